// The task graph of multi-device contexts: when a command may be submitted,
// and what it waits for on its own device.
#include "core/task.hpp"

#include <algorithm>

#include "core/scheduling.hpp"
#include "core/mem_object.hpp"
#include "core/queue.hpp"
#include "core/runtime.hpp"

namespace unicl {

cl_int on_vendor_status(cl_event e, cl_int type, Task::StatusCallback fn) {
  // A serialized vendor's callback comes from inside a call of UniCL's,
  // under its lock: the run goes to the work queue instead, where it may
  // take the context mutex (held elsewhere while calling that vendor).
  return when_vendor_status(e, type, std::move(fn),
                            [](std::function<void()> run) { Runtime::get().work_queue().post(std::move(run)); });
}

Task::Task(_cl_command_queue *queue, Plan plan)
    : context_(queue->context),
      queue_(queue),
      slot_(queue->scheduled ? kUnplaced : queue->slot),
      scheduled_(queue->scheduled),
      plan_(std::move(plan)) {}

Task::~Task() = default;

void Task::depend_on(std::shared_ptr<Task> task) {
  if (!task) return;
  task->successors.push_back(weak_from_this());
  deps_.push_back({std::move(task), {}});
}

void Task::depend_on(Awaited awaited) { deps_.push_back({nullptr, std::move(awaited)}); }

cl_int Task::start() {
  UNICL_HOLDS(context_->mutex, "Task::start: caller holds the context lock");
  advance(false);
  // A command that failed at once was never enqueued: the caller returns
  // the error instead of an event.
  cl_int s = state();
  return s < 0 ? s : CL_SUCCESS;
}

cl_int Task::state() { return state_.load(std::memory_order_acquire); }

cl_int Task::status() {
  cl_int s = state();
  if (s != CL_SUBMITTED) return s;
  s = completion_->status();
  return s == CL_QUEUED ? CL_SUBMITTED : s;  // planned, not yet issued
}

// Called with the context mutex held. Walks what the task follows: a
// dependency that is not ready makes the task listen for it (the listener
// re-runs advance() from the work queue or its device's worker, where the
// walk starts over) and the walk stops with kWaiting. With `same_device`, a
// command submitted on the task's own device goes into that vendor wait list
// instead of being waited for: its vendor orders it; so does one issued to
// a device whose events that vendor takes (_cl_context::events_reach).
// Without it (a command of a scheduled queue, not placed yet) everything
// must be complete: a policy can only weigh devices for a command that can
// start; or, with `ahead`, at least planned on a device (kAhead), for a
// scheduler that places a command behind what it waits for.
Task::Readiness Task::walk_dependencies(WaitList *same_device, bool ahead) {
  auto self = shared_from_this();
  auto again = [self](cl_int) { self->retry(); };
  Readiness readiness = kReady;
  for (auto &d : deps_) {
    if (!d.task) {
      cl_int s = d.awaited.status();
      if (s < 0) return kFailed;
      if (s != CL_COMPLETE) {
        d.awaited.on_complete(again);
        return kWaiting;
      }
      continue;
    }
    cl_int s = d.task->state();
    if (s < 0) return kFailed;
    if (s == CL_QUEUED) {
      d.task->when_settled([self] { self->retry(); });
      return kWaiting;
    }
    std::shared_ptr<Completion> done = d.task->completion();
    if (same_device && d.task->slot() == slot()) {
      same_device->add_from(done, slot(), slot());
      continue;
    }
    s = done->status();
    if (s < 0) return kFailed;
    if (same_device && s != CL_COMPLETE && context_->events_reach(d.task->slot(), slot())) {
      // Another device whose vendor events this one's vendor takes: once
      // issued there (its vendor event exists), it joins the vendor wait
      // list instead of being waited for here.
      if (!done->vendor_event()) {
        d.task->completion()->when_issued([self] { self->retry(); });
        return kWaiting;
      }
      Runtime::get().flush_off_caller(context_->slots[d.task->slot()].device.get(), done);
      same_device->add_issued(done);
      continue;
    }
    if (s != CL_COMPLETE) {
      // The producer's command must run (vendors need not run what was
      // never flushed), flushed from UniCL's threads, never from here.
      Runtime::get().flush_off_caller(context_->slots[d.task->slot()].device.get(), done);
      if (ahead) {
        readiness = kAhead;
        continue;
      }
      done->on_done(again);
      return kWaiting;
    }
  }
  return readiness;
}

bool Task::may_go_ahead() const {
  // Kernels only, which a policy weighs; a divider's pieces keep the
  // order it sized them for, and other commands go where their data is
  // (advance()).
  return !work.kernel.empty() && !work.pinned && context_->engine && context_->engine->places_ahead();
}

bool Task::unfinished() const {
  const cl_int s = state_.load(std::memory_order_acquire);
  return s == CL_QUEUED || (s == CL_SUBMITTED && completion_->status() != CL_COMPLETE);
}

bool Task::follows_unfinished() const {
  return std::any_of(deps_.begin(), deps_.end(), [](const Dep &d) { return d.task && d.task->unfinished(); });
}

void Task::unfinished_predecessors(std::vector<const Task *> &out) const {
  UNICL_HOLDS(context_->mutex, "Task::unfinished_predecessors: caller holds the context lock");
  out.clear();
  for (auto &d : deps_)
    if (d.task && d.task->unfinished()) out.push_back(d.task.get());
}

size_t Task::only_device_waited_for() const {
  UNICL_HOLDS(context_->mutex, "Task::only_device_waited_for: caller holds the context lock");
  size_t device = kUnplaced;
  for (auto &d : deps_) {
    if (!d.task) {
      if (d.awaited.status() != CL_COMPLETE) return kUnplaced;
      continue;
    }
    if (d.task->state() != CL_SUBMITTED) return kUnplaced;
    if (d.task->completion()->status() == CL_COMPLETE) continue;
    if (device != kUnplaced && d.task->slot() != device) return kUnplaced;
    device = d.task->slot();
  }
  if (device == kUnplaced) return kUnplaced;
  for (auto &[m, access] : work.buffers)
    if (!m->wholly_valid_on(device)) return kUnplaced;
  return device;
}

void Task::advance(bool deferred) {
  UNICL_HOLDS(context_->mutex, "Task::advance: caller holds the context lock");
  if (state() != CL_QUEUED) return;
  if (!placed()) {
    if (pushed_) return;
    switch (walk_dependencies(nullptr, may_go_ahead())) {
      case kWaiting:
        // A command other than a kernel goes where its data is (the
        // engine's rule once it can start); when all it waits for runs on
        // the device its data will be on, it goes there now, after those
        // commands in the vendor's queue, instead of a round trip through
        // their completion later (a read after the launch that computed
        // its bytes). A kernel waits: a policy weighs devices only for a
        // command that can start.
        if (size_t device = work.kernel.empty() && !work.pinned ? only_device_waited_for() : kUnplaced;
            device != kUnplaced) {
          pushed_ = true;
          place(device);
          advance_placed(deferred);
        }
        return;
      case kFailed:  // advance() again, placed, settles it failed
      case kReady:
      case kAhead:  // placed, it waits for the rest (below)
        pushed_ = true;
        context_->engine->push(shared_from_this(), deferred);
        return;
    }
  }
  WaitList wait;
  switch (walk_dependencies(&wait)) {
    case kWaiting: return;
    case kFailed: return settle(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, nullptr);
    case kReady:
    case kAhead: break;  // not walked for here
  }
  auto planned = std::make_shared<PendingCompletion>();
  Issue call;
  cl_int err = plan_(slot(), wait, planned, call);
  if (err == kBlocked) {
    if (!wait.blocker()) return retry();
    Runtime::get().flush_off_caller(context_->slots[wait.blocker_slot()].device.get(), wait.blocker());
    wait.blocker()->on_done([self = shared_from_this()](cl_int) { self->retry(); });
    return;
  }
  if (err != CL_SUCCESS) return settle(err, nullptr);
  issue_call_ = std::move(call);
  issue_queue_ = queue_;
  issue_wait_ = std::move(wait);
  issue_deferred_ = deferred;
  // Settled before it is posted: another thread draining the device's
  // issue queue may issue it at once.
  settle(CL_SUBMITTED, planned);
  context_->slots[slot_].issue->post(std::shared_ptr<IssueStep>(shared_from_this()));
}

void Task::issue_now() {
  issue();
  // What the call held goes now, not with the task (queues keep their last
  // tasks).
  issue_call_ = nullptr;
  issue_queue_ = Ref<_cl_command_queue>();
  issue_wait_ = WaitList();
}

void Task::issue() {
  const std::shared_ptr<PendingCompletion> &planned = completion_;
  bool deferred = issue_deferred_;
  cl_command_queue vq = nullptr;
  cl_event out = nullptr;
  cl_int err = issue_wait_.failed() != CL_SUCCESS ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
  if (err == CL_SUCCESS) err = issue_queue_->vendor_for(slot(), vq);
  if (err == CL_SUCCESS) take_turn(vq);
  if (err == CL_SUCCESS) err = issue_call_(slot(), vq, issue_wait_, deferred, &out);
  if (err != CL_SUCCESS) {
    mark_issued(err);
    // Issued with its enqueue call, the error is that call's: the command
    // never was, what waits for it goes on. Issued later, it failed.
    if (deferred) planned->fail(err);
    else planned->withdraw(err);
    return;
  }
  if (Runtime::get().trace().on())
    Runtime::get().trace().record(out, *context_->slots[slot()].device,
                                  work.kernel.empty() ? command_name(type) : work.kernel, "command");
  planned->fulfil(VendorRef<cl_event>::adopt(out), VendorRef<cl_command_queue>::share(vq));
  // Issued later than its enqueue call: nobody else will flush it. Once
  // this thread stops issuing (a flush can take long: oclgrind runs the
  // queue in it, and the next command's issue need not wait for it), and
  // from UniCL's threads only (this may be an application's, issuing what
  // its enqueue made ready).
  if (deferred) {
    _cl_device_id *device = context_->slots[slot()].device.get();
    IssueQueue::after_issuing([planned, device] { Runtime::get().flush_off_caller(device, planned); });
  }
  mark_issued(CL_SUCCESS);
}

void Task::take_turn(cl_command_queue vq) {
  if (work.kernel.empty()) return;
  const DeviceSlot &s = context_->slots[slot()];
  if (s.device->root()->launches_overlap) return;
  const bool in_order = !(issue_queue_->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  if (auto before = s.turns->take(work.kernel, completion_, vq, in_order)) issue_wait_.add_order(before);
}

void Task::mark_issued(cl_int error) {
  {
    std::lock_guard lock(mutex_);
    if (error != CL_SUCCESS) state_ = error;
    issued_ = true;
  }
  issued_cv_.notify_all();
}

void Task::retry() {
  if (placed()) return advance_on_worker();
  Runtime::get().work_queue().post([self = shared_from_this()] {
    ContextLock lock(*self->context_);
    self->advance(true);
  });
}

void Task::advance_placed(bool deferred) {
  UNICL_HOLDS(context_->mutex, "Task::advance_placed: caller holds the context lock");
  const DeviceSlot &slot = context_->slots[slot_];
  // A device of another node: each vendor call is a round trip, so its
  // commands are planned and issued by its worker, not by the application's
  // thread, which would wait for each in turn.
  if (slot.device->node != 0) return advance_on_worker();
  // Placed ahead of what it follows (ContextScheduler::places_ahead) on a
  // vendor whose calls wait while it runs a command: issued from the
  // application's call, the call would wait for the commands before it.
  if (!deferred && vendor_serialized(slot.device->vendor) && follows_unfinished()) return advance_on_worker();
  if (!deferred) return advance(false);
  // Later than the enqueue call, this thread is the one that drains
  // completions: issuing here saves handing each command to another
  // thread, which costs more than the issue itself on a loaded host.
  if (!vendor_serialized(slot.device->vendor)) return advance(true);
  advance_on_worker();
}

void Task::advance_on_worker() {
  DeviceSlot &slot = context_->slots[slot_];
  std::shared_ptr<WorkerBatch> batch = slot.worker_batch;
  {
    std::lock_guard lock(batch->mutex);
    batch->tasks.push_back(shared_from_this());
    if (batch->posted) return;  // the job on its way takes this one too
    batch->posted = true;
  }
  Runtime::get().device_worker(slot.device.get()).post([batch, ctx = context_] {
    std::vector<std::shared_ptr<Task>> tasks;  // released after the lock
    {
      std::lock_guard lock(batch->mutex);
      tasks.swap(batch->tasks);
      batch->posted = false;
    }
    ContextLock lock(*ctx);
    for (auto &t : tasks) t->advance(true);
  });  // issued here, in plan order, when the lock is released
}

void Task::settle(cl_int state, std::shared_ptr<PendingCompletion> planned) {
  std::vector<std::function<void()>> listeners;
  {
    std::lock_guard lock(mutex_);
    completion_ = std::move(planned);
    state_ = state;
    if (state < 0) issued_ = true;  // nothing will be issued
    listeners.swap(listeners_);
  }
  if (state < 0) issued_cv_.notify_all();
  plan_ = nullptr;  // what the command holds now lives in its issue step
  deps_.clear();
  queue_ = Ref<_cl_command_queue>();
  if (scheduled_) context_->engine->settled(shared_from_this());
  // Listeners run from the work queue: they may call back into the
  // application or take the context mutex, which the caller holds.
  if (!listeners.empty())
    Runtime::get().work_queue().post([listeners = std::move(listeners)] {
      for (auto &fn : listeners) fn();
    });
}

void Task::when_settled(std::function<void()> fn) {
  {
    std::lock_guard lock(mutex_);
    if (state_ == CL_QUEUED) {
      listeners_.push_back(std::move(fn));
      return;
    }
  }
  fn();
}

void Task::on_status(cl_int type, StatusCallback fn) {
  when_settled([self = shared_from_this(), type, fn = std::move(fn)]() mutable {
    if (cl_int s = self->state(); s < 0) return fn(s);
    self->completion_->when_issued([self, type, fn = std::move(fn)] {
      if (cl_int s = self->state(); s < 0) return fn(s);
      // The spec passes the status the callback was registered for, or an
      // error; some vendors (oclgrind) pass CL_COMPLETE to every callback.
      auto exact = [type, fn](cl_int status) { fn(status < 0 ? status : type); };
      if (on_vendor_status(self->vendor_event(), type, exact) != CL_SUCCESS)
        exact(self->wait() == CL_SUCCESS ? type : -1);
    });
  });
}

void Task::wait_submitted() {
  std::unique_lock lock(mutex_);
  issued_cv_.wait(lock, [this] { return issued_; });
}

cl_int Task::wait() {
  wait_submitted();
  if (state() < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return completion_->wait() == CL_COMPLETE ? CL_SUCCESS : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
}

}  // namespace unicl
