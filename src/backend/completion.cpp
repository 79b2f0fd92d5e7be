#include "backend/completion.hpp"

#include <atomic>

#include "backend/profiling.hpp"
#include "backend/vendor_callback.hpp"

namespace unicl {
namespace {

class VendorCompletion final : public Completion {
 public:
  explicit VendorCompletion(VendorRef<cl_event> event) : event_(std::move(event)) {}

  cl_int status() const override {
    if (finished_.load(std::memory_order_acquire)) return CL_COMPLETE;
    cl_event e = event_.get();
    cl_int s = CL_QUEUED;
    if (vd(e).clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) != CL_SUCCESS) return CL_QUEUED;
    if (s == CL_COMPLETE) finished_.store(true, std::memory_order_release);
    return s;
  }

  // Looks at the status, registers, and looks again: a vendor that never
  // calls back for a status reached before registration (oclgrind) cannot
  // lose the wake-up between the first look and the registration, and
  // whichever of the second look and the vendor's call comes last finds the
  // callable already taken. The first look spares a registration that such
  // a vendor would never call, and so never free.
  void on_done(std::function<void(cl_int)> fn) override {
    // A serialized vendor completes nothing while its lock is held: the
    // looks and the registration form one step.
    auto hold = hold_vendor(event_.get());
    if (cl_int now = status(); now <= CL_COMPLETE) {
      if (hold) hold.unlock();
      return fn(now < 0 ? now : CL_COMPLETE);
    }
    auto once = std::make_shared<Once>(std::move(fn));
    cl_int err = set_vendor_event_callback(event_.get(), CL_COMPLETE,
                                           [once](cl_event, cl_int status) { once->run(status < 0 ? status : CL_COMPLETE); });
    cl_int now = status();
    if (hold) hold.unlock();
    if (now <= CL_COMPLETE) once->run(now < 0 ? now : CL_COMPLETE);
    else if (err != CL_SUCCESS) once->run(err);  // no wake-up would ever come
  }

  bool times(cl_ulong &start, cl_ulong &end) const override { return profiling_times(event_.get(), start, end); }
  cl_event vendor_event() const override { return event_.get(); }

 private:
  struct Once {
    explicit Once(std::function<void(cl_int)> f) : fn(std::move(f)) {}
    std::function<void(cl_int)> fn;
    std::atomic<bool> taken{false};
    void run(cl_int status) {
      if (!taken.exchange(true, std::memory_order_acq_rel)) fn(status);
    }
  };
  VendorRef<cl_event> event_;
  mutable std::atomic<bool> finished_{false};
};

}  // namespace

std::shared_ptr<Completion> vendor_completion(VendorRef<cl_event> event) {
  return std::make_shared<VendorCompletion>(std::move(event));
}

}  // namespace unicl
