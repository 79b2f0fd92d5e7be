#include "backend/completion.hpp"

#include <atomic>

#include "backend/profiling.hpp"
#include "backend/vendor_status.hpp"

namespace unicl {
namespace {

// Learns of the end of its vendor event once, through one vendor callback
// registered when it is made (outside any context lock), and answers from
// then on from its own state: under a context lock, where no vendor may be
// called, whether it is done and who waits for it are plain reads.
class VendorCompletion final : public Completion, public std::enable_shared_from_this<VendorCompletion> {
 public:
  VendorCompletion(VendorRef<cl_event> event, VendorRef<cl_command_queue> queue)
      : event_(std::move(event)), queue_(std::move(queue)) {}

  void watch() {
    cl_int err = when_vendor_status(event_.get(), CL_COMPLETE,
                                    [self = shared_from_this()](cl_int status) { self->finish(status); });
    if (err != CL_SUCCESS) {
      cl_int now = vendor_status(event_.get());  // no wake-up will come: tell what is known now
      finish(now <= CL_COMPLETE ? (now < 0 ? now : CL_COMPLETE) : err);
    }
  }

  cl_int status() const override {
    if (cl_int s = final_.load(std::memory_order_acquire); s != kNotFinal) return s;
    // Inside a context lock the vendor is not asked: not done is all that
    // matters there. Elsewhere (the application's status query) it is.
    if (VendorCallScope::inside()) return CL_SUBMITTED;
    cl_int s = vendor_status(event_.get());
    return s <= CL_COMPLETE ? CL_SUBMITTED : s;  // the end is reported by finish(), once
  }

  void on_done(std::function<void(cl_int)> fn) override {
    {
      std::lock_guard lock(mutex_);
      if (final_.load(std::memory_order_acquire) == kNotFinal) {
        waiting_.push_back(std::move(fn));
        return;
      }
    }
    fn(final_.load(std::memory_order_acquire));
  }

  bool times(cl_ulong &start, cl_ulong &end) const override { return profiling_times(event_.get(), start, end); }
  cl_event vendor_event() const override { return event_.get(); }
  void flush() override {
    if (final_.load(std::memory_order_acquire) == kNotFinal) vd(queue_.get()).clFlush(queue_.get());
  }
  cl_int wait() override {
    if (cl_int s = final_.load(std::memory_order_acquire); s != kNotFinal) return s;
    cl_event e = event_.get();
    cl_int waited = vd(e).clWaitForEvents(1, &e);
    if (cl_int s = vendor_status(e); s < 0) return s;
    return waited == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }

 private:
  static constexpr cl_int kNotFinal = 1;  // final_ before the end is known (any value above CL_COMPLETE)
  void finish(cl_int status) {
    std::vector<std::function<void(cl_int)>> waiting;
    {
      std::lock_guard lock(mutex_);
      final_.store(status < 0 ? status : CL_COMPLETE, std::memory_order_release);
      waiting.swap(waiting_);
    }
    for (auto &fn : waiting) fn(final_.load(std::memory_order_acquire));
  }

  VendorRef<cl_event> event_;
  VendorRef<cl_command_queue> queue_;  // held: an event does not keep its queue alive
  std::atomic<cl_int> final_{kNotFinal};
  std::mutex mutex_;
  std::vector<std::function<void(cl_int)>> waiting_;
};

}  // namespace

std::shared_ptr<Completion> vendor_completion(VendorRef<cl_event> event, VendorRef<cl_command_queue> queue) {
  auto c = std::make_shared<VendorCompletion>(std::move(event), std::move(queue));
  c->watch();
  return c;
}

void PendingCompletion::fulfil(std::shared_ptr<Completion> issued) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard lock(mutex_);
    issued_ = std::move(issued);
    fulfilled_.store(true, std::memory_order_release);
    waiting.swap(waiting_);
  }
  issued_cv_.notify_all();
  for (auto &fn : waiting) fn();
}

void PendingCompletion::fail(cl_int error) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard lock(mutex_);
    error_ = error < 0 ? error : CL_OUT_OF_RESOURCES;
    waiting.swap(waiting_);
  }
  issued_cv_.notify_all();
  for (auto &fn : waiting) fn();
}

void PendingCompletion::withdraw(cl_int error) {
  {
    std::lock_guard lock(mutex_);
    withdrawn_ = true;
  }
  fail(error);
}

bool PendingCompletion::withdrawn() const {
  std::lock_guard lock(mutex_);
  return withdrawn_;
}

void PendingCompletion::when_issued(std::function<void()> fn) {
  {
    std::lock_guard lock(mutex_);
    if (!issued_ && error_ == CL_SUCCESS) {
      waiting_.push_back(std::move(fn));
      return;
    }
  }
  fn();
}

bool PendingCompletion::issued() const {
  if (fulfilled_.load(std::memory_order_acquire)) return true;
  std::lock_guard lock(mutex_);
  return issued_ || error_ != CL_SUCCESS;
}

bool PendingCompletion::refused() const {
  std::lock_guard lock(mutex_);
  return error_ != CL_SUCCESS;
}

cl_int PendingCompletion::status() const {
  if (Completion *issued = inner()) return issued->status();
  std::lock_guard lock(mutex_);
  if (issued_) return issued_->status();
  return error_ != CL_SUCCESS ? error_ : CL_QUEUED;
}

void PendingCompletion::on_done(std::function<void(cl_int)> fn) {
  if (Completion *issued = inner()) return issued->on_done(std::move(fn));
  // `this` is safe: the waiting list runs only from this object's own
  // fulfil() or fail(), or at once.
  when_issued([this, fn = std::move(fn)]() mutable {
    if (Completion *issued = inner()) return issued->on_done(std::move(fn));
    fn(status());
  });
}

bool PendingCompletion::times(cl_ulong &start, cl_ulong &end) const {
  Completion *issued = inner();
  return issued && issued->times(start, end);
}

void PendingCompletion::flush() {
  if (Completion *issued = inner()) issued->flush();
}

cl_event PendingCompletion::vendor_event() const {
  Completion *issued = inner();
  return issued ? issued->vendor_event() : nullptr;
}

cl_int PendingCompletion::wait() {
  std::shared_ptr<Completion> issued;
  {
    std::unique_lock lock(mutex_);
    issued_cv_.wait(lock, [this] { return issued_ || error_ != CL_SUCCESS; });
    if (!issued_) return error_;
    issued = issued_;
  }
  return issued->wait();
}

}  // namespace unicl
