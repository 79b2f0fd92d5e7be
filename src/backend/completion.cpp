#include "backend/completion.hpp"

#include "backend/profiling.hpp"
#include "backend/vendor_objects.hpp"
#include "backend/vendor_status.hpp"

namespace unicl {

std::shared_ptr<Completion> vendor_completion(VendorRef<cl_event> event, VendorRef<cl_command_queue> queue) {
  auto c = std::make_shared<PendingCompletion>();
  c->fulfil(std::move(event), std::move(queue));
  return c;
}

cl_int failed_before_issue(const Completion &c) {
  if (c.vendor_event()) return CL_SUCCESS;
  cl_int s = c.status();
  return s < 0 && !c.withdrawn() ? s : CL_SUCCESS;
}

void PendingCompletion::issued_now(Phase phase, std::unique_lock<std::mutex> &lock) {
  phase_.store(phase, std::memory_order_release);
  std::vector<std::function<void()>> waiting;
  waiting.swap(issued_waiting_);
  lock.unlock();
  issued_cv_.notify_all();
  for (auto &fn : waiting) fn();
}

void PendingCompletion::fulfil(VendorRef<cl_event> event, VendorRef<cl_command_queue> queue) {
  {
    std::unique_lock lock(mutex_);
    event_ = std::move(event);
    queue_ = std::move(queue);
    issued_now(kVendor, lock);
  }
  // The one vendor callback: from now on the end is this object's to tell.
  cl_int err = when_vendor_status(event_.get(), CL_COMPLETE,
                                  [self = shared_from_this()](cl_int status) { self->finish(status); });
  if (err != CL_SUCCESS) {
    cl_int now = vendor_status(event_.get());  // no wake-up will come: tell what is known now
    finish(now <= CL_COMPLETE ? (now < 0 ? now : CL_COMPLETE) : err);
  }
}

void PendingCompletion::fulfil(std::shared_ptr<Completion> issued) {
  std::vector<std::function<void(cl_int)>> done;
  {
    std::unique_lock lock(mutex_);
    issued_ = std::move(issued);
    done.swap(done_waiting_);
    issued_now(kOther, lock);
  }
  for (auto &fn : done) issued_->on_done(std::move(fn));
}

void PendingCompletion::fail(cl_int error) {
  std::vector<std::function<void(cl_int)>> done;
  {
    std::unique_lock lock(mutex_);
    error_ = error < 0 ? error : CL_OUT_OF_RESOURCES;
    final_.store(error_, std::memory_order_release);
    done.swap(done_waiting_);
    issued_now(kFailed, lock);
  }
  for (auto &fn : done) fn(error_);
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

void PendingCompletion::finish(cl_int status) {
  std::vector<std::function<void(cl_int)>> done;
  {
    std::lock_guard lock(mutex_);
    final_.store(status < 0 ? status : CL_COMPLETE, std::memory_order_release);
    done.swap(done_waiting_);
  }
  for (auto &fn : done) fn(final_.load(std::memory_order_acquire));
}

void PendingCompletion::when_issued(std::function<void()> fn) {
  if (!issued()) {
    std::lock_guard lock(mutex_);
    if (!issued()) {
      issued_waiting_.push_back(std::move(fn));
      return;
    }
  }
  fn();
}

cl_int PendingCompletion::status() const {
  if (cl_int s = final_.load(std::memory_order_acquire); s != kNotFinal) return s;
  switch (phase_.load(std::memory_order_acquire)) {
    case kOther: return issued_->status();
    case kVendor:
      // Inside a context lock the vendor is not asked: not done is all that
      // matters there. Elsewhere (the application's status query) it is,
      // and its answer stands even before its callback has reported the
      // end here: after clWaitForEvents the status must be CL_COMPLETE.
      if (VendorCallScope::inside()) return CL_SUBMITTED;
      return vendor_status(event_.get());
    case kFailed: return error_;
    default: return CL_QUEUED;
  }
}

void PendingCompletion::on_done(std::function<void(cl_int)> fn) {
  if (phase_.load(std::memory_order_acquire) != kOther) {
    std::unique_lock lock(mutex_);
    if (final_.load(std::memory_order_acquire) == kNotFinal && phase_.load(std::memory_order_acquire) != kOther) {
      done_waiting_.push_back(std::move(fn));
      return;
    }
  }
  if (phase_.load(std::memory_order_acquire) == kOther) return issued_->on_done(std::move(fn));
  fn(final_.load(std::memory_order_acquire));
}

bool PendingCompletion::times(cl_ulong &start, cl_ulong &end) const {
  switch (phase_.load(std::memory_order_acquire)) {
    case kVendor: return profiling_times(event_.get(), start, end);
    case kOther: return issued_->times(start, end);
    default: return false;
  }
}

cl_event PendingCompletion::vendor_event() const {
  switch (phase_.load(std::memory_order_acquire)) {
    case kVendor: return event_.get();
    case kOther: return issued_->vendor_event();
    default: return nullptr;
  }
}

void PendingCompletion::flush() {
  switch (phase_.load(std::memory_order_acquire)) {
    case kVendor:
      if (final_.load(std::memory_order_acquire) == kNotFinal) vendor_flush(queue_.get());
      break;
    case kOther: issued_->flush(); break;
    default: break;
  }
}

cl_int PendingCompletion::wait() {
  {
    std::unique_lock lock(mutex_);
    issued_cv_.wait(lock, [this] { return issued(); });
  }
  switch (phase_.load(std::memory_order_acquire)) {
    case kOther: return issued_->wait();
    case kFailed: return error_;
    default: break;
  }
  if (cl_int s = final_.load(std::memory_order_acquire); s != kNotFinal) return s;
  cl_event e = event_.get();
  cl_int waited = vendor_wait(e);
  if (cl_int s = vendor_status(e); s < 0) return s;
  return waited == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
}

}  // namespace unicl
