// UniCL events. An event is either backed by the vendor event of the command
// it stands for, or native to UniCL (user events). Either kind can be waited
// on by commands of any device of the context: `wait_event_in` hands out a
// vendor event valid in the waiting device's slot, bridging across vendors
// with a vendor user event completed from the source's completion callback.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "queue.hpp"

struct _cl_event : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Event;
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);
  _cl_event() : ObjectHeader(kKind) {}

  unicl::Ref<_cl_context> context;
  unicl::Ref<_cl_command_queue> queue;  // null for user events
  cl_command_type type = CL_COMMAND_USER;
  unicl::VendorRef<cl_event> vendor;   // null for user events
  size_t slot = 0;                     // slot of `vendor`

  bool is_user() const { return !vendor; }
  cl_int status();
  // Runs `fn(final_status)` once the event completes or fails.
  void on_complete(std::function<void(cl_int)> fn);
  cl_int set_user_status(cl_int status);
  cl_int add_callback(cl_int type, Callback fn, void *data);
  cl_int wait();

 private:
  struct Pending {
    cl_int type;
    std::function<void(cl_int)> fn;
  };
  std::mutex mutex_;
  std::condition_variable done_;
  cl_int user_status_ = CL_SUBMITTED;
  std::vector<Pending> pending_;
  void add_pending(cl_int type, std::function<void(cl_int)> fn);
};

namespace unicl {

// Dependencies between device slots are resolved on the host: UniCL waits
// for the other slot's event before it submits the dependent command.
// Vendors' user events cannot carry such edges reliably (PoCL 3.1's `basic`
// device runs commands whose user-event dependencies are still pending), so
// a vendor user event is used only where the source is a UniCL user event,
// exactly as the vendor would see it when used directly.
// Returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the event failed.
cl_int wait_on_host(cl_event vendor_event);
// Adds to `out` what a command on `slot` must wait for to follow UniCL event e.
cl_int wait_event_in(cl_event e, size_t slot, VendorRef<cl_event> &out);

// A UniCL event standing for a command that ran on `q` as `vendor_event`.
Ref<_cl_event> make_command_event(_cl_command_queue *q, cl_command_type type, VendorRef<cl_event> vendor_event);

// Validated wait list translated into vendor events for one slot.
class WaitList {
 public:
  cl_int add_user_list(_cl_context *ctx, size_t slot, cl_uint n, const cl_event *events);
  void add(VendorRef<cl_event> e) {
    if (e) owned_.push_back(std::move(e));
  }
  // A vendor event of slot `from` that a command on slot `to` must follow.
  cl_int add_from(cl_event vendor_event, size_t from, size_t to) {
    if (!vendor_event) return CL_SUCCESS;
    if (from != to) return wait_on_host(vendor_event);
    add(VendorRef<cl_event>::share(vendor_event));
    return CL_SUCCESS;
  }
  cl_uint size() const { return static_cast<cl_uint>(owned_.size()); }
  // The list in the form vendor enqueue calls take (null when empty).
  const cl_event *data();

 private:
  std::vector<VendorRef<cl_event>> owned_;
  std::vector<cl_event> raw_;
};

}  // namespace unicl
