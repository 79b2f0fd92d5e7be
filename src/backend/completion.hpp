// When a command or a transfer issued on some device is done, as UniCL's
// coherence and task graph wait for it: a Completion, not a vendor event,
// so that devices reached otherwise than through a local vendor (a remote
// node) fit the same edges. The local backend's completions wrap a vendor
// event.
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

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
  // Blocks until done: CL_COMPLETE or the error.
  virtual cl_int wait() = 0;
  // Runs fn() once the work has reached its device (vendor_event() is then
  // set, or the work was refused): at once for work issued directly.
  virtual void when_issued(std::function<void()> fn) { fn(); }
  // Failed before reaching its device, and the failure was reported to
  // whoever asked for the work (an enqueue call's error): it never
  // happened, so what waits for it need not fail.
  virtual bool withdrawn() const { return false; }
  // Makes sure the device runs the work (some vendors run commands only
  // when their queue is flushed); nothing before it is issued.
  virtual void flush() = 0;
};

// The error of work that failed before reaching its device, reported to no
// one (not withdrawn): it left no vendor event to wait for, so what waits
// for it must fail instead. CL_SUCCESS for any other work.
cl_int failed_before_issue(const Completion &c);

// The completion of a local vendor command, issued on `queue`. Made
// outside any context lock: it registers its one vendor callback then.
std::shared_ptr<Completion> vendor_completion(VendorRef<cl_event> event, VendorRef<cl_command_queue> queue);

// The completion of work planned under a context lock and issued to its
// device after the lock is released (IssueQueue): CL_QUEUED until then.
// Whatever waits for it may do so from the moment it is planned.
//
// Work issued as one local vendor command (the common case: every command
// of a multi-device context) is watched here directly: one object, one
// list of what waits for its end, one vendor callback, registered when it
// is issued (outside any context lock). Its end is then answered from this
// object's own state, so that under a context lock, where no vendor may be
// called, whether it is done is a plain read. Other work (a copy an
// endpoint made) is followed through its own completion.
class PendingCompletion final : public Completion, public std::enable_shared_from_this<PendingCompletion> {
 public:
  // The work was issued as the vendor command of `event`, on `queue` (held:
  // an event does not keep its queue alive, and flush() needs it).
  void fulfil(VendorRef<cl_event> event, VendorRef<cl_command_queue> queue);
  // The work was issued otherwise: `issued` is its completion from now on.
  void fulfil(std::shared_ptr<Completion> issued);
  // The work could not be issued (the device refused it): done, with
  // `error`; what waits for it fails. withdraw() is the same for work
  // whose failure was reported at once: what waits for it goes on.
  void fail(cl_int error);
  void withdraw(cl_int error);
  bool withdrawn() const override;
  // Runs fn() once fulfilled or failed (at once if it is).
  void when_issued(std::function<void()> fn) override;
  // Fulfilled or failed.
  bool issued() const { return phase_.load(std::memory_order_acquire) != kPlanned; }
  // Failed before anything ran on the device: nothing to order after.
  bool refused() const { return phase_.load(std::memory_order_acquire) == kFailed; }

  cl_int status() const override;
  void on_done(std::function<void(cl_int)> fn) override;
  bool times(cl_ulong &start, cl_ulong &end) const override;
  cl_event vendor_event() const override;
  cl_int wait() override;
  void flush() override;

 private:
  // What the work became. The fields it names (event_ and queue_, or
  // issued_, or error_) are written once, under the mutex, before phase_
  // (release); read without the lock after it (acquire).
  enum Phase : int { kPlanned, kVendor, kOther, kFailed };
  static constexpr cl_int kNotFinal = 1;  // final_ before the end is known (any value above CL_COMPLETE)
  void finish(cl_int status);
  void issued_now(Phase phase, std::unique_lock<std::mutex> &lock);

  std::atomic<int> phase_{kPlanned};
  std::atomic<cl_int> final_{kNotFinal};  // CL_COMPLETE or the error, once known (vendor work, failures)
  VendorRef<cl_event> event_;
  VendorRef<cl_command_queue> queue_;
  std::shared_ptr<Completion> issued_;
  cl_int error_ = CL_SUCCESS;
  bool withdrawn_ = false;
  mutable std::mutex mutex_;
  std::condition_variable issued_cv_;
  std::vector<std::function<void()>> issued_waiting_;
  std::vector<std::function<void(cl_int)>> done_waiting_;
};

}  // namespace unicl
