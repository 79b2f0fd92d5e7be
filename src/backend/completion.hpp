// When a command or a transfer issued on some device is done, as UniCL's
// coherence and task graph wait for it: a Completion, not a vendor event,
// so that devices reached otherwise than through a local vendor (a remote
// node) fit the same edges. The local backend's completions wrap a vendor
// event.
#pragma once
#include <functional>
#include <memory>

#include "backend/vendor.hpp"

namespace unicl {

class Completion {
 public:
  virtual ~Completion() = default;
  // CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a negative error.
  virtual cl_int status() const = 0;
  bool done() const { return status() <= CL_COMPLETE; }
  // Runs fn(CL_COMPLETE or the error) exactly once, once done: at once, on
  // this thread, if it already is, else later from another thread, possibly
  // inside a call into the vendor: fn must not block nor take a lock held
  // around vendor calls (the context mutex).
  virtual void on_done(std::function<void(cl_int)> fn) = 0;
  // START and END of the work in the device's clock (nanoseconds); false
  // when unknown.
  virtual bool times(cl_ulong &start, cl_ulong &end) const = 0;
  // The vendor event standing for it on a local vendor device (what a
  // later command on the same device puts in its wait list); null for
  // completions of other backends.
  virtual cl_event vendor_event() const = 0;
};

// The completion of a local vendor command.
std::shared_ptr<Completion> vendor_completion(VendorRef<cl_event> event);

}  // namespace unicl
