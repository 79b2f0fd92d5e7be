#include "backend/completion.hpp"

#include <atomic>

#include "backend/profiling.hpp"
#include "backend/vendor_status.hpp"

namespace unicl {
namespace {

class VendorCompletion final : public Completion {
 public:
  explicit VendorCompletion(VendorRef<cl_event> event) : event_(std::move(event)) {}

  cl_int status() const override {
    if (finished_.load(std::memory_order_acquire)) return CL_COMPLETE;
    cl_int s = vendor_status(event_.get());
    if (s == CL_COMPLETE) finished_.store(true, std::memory_order_release);
    return s;
  }

  void on_done(std::function<void(cl_int)> fn) override {
    if (cl_int err = when_vendor_status(event_.get(), CL_COMPLETE, fn); err != CL_SUCCESS) {
      cl_int now = status();  // no wake-up will come: tell what is known now
      fn(now <= CL_COMPLETE ? (now < 0 ? now : CL_COMPLETE) : err);
    }
  }

  bool times(cl_ulong &start, cl_ulong &end) const override { return profiling_times(event_.get(), start, end); }
  cl_event vendor_event() const override { return event_.get(); }

 private:
  VendorRef<cl_event> event_;
  mutable std::atomic<bool> finished_{false};
};

}  // namespace

std::shared_ptr<Completion> vendor_completion(VendorRef<cl_event> event) {
  return std::make_shared<VendorCompletion>(std::move(event));
}

}  // namespace unicl
