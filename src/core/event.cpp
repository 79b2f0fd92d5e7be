// Events: status, callbacks, waits, and bridging between device slots.
#include "core/event.hpp"

#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/runtime.hpp"
#include "core/refusal.hpp"

namespace unicl {

cl_int wait_event_in(cl_event e, VendorRef<cl_event> &out) {
  if (!e->is_user()) {
    out = VendorRef<cl_event>::share(e->vendor.get());
    return CL_SUCCESS;
  }
  // The vendor sees a user event of its own, as when used directly.
  cl_int err = CL_SUCCESS;
  out = vendor_user_event(e->context->vendor(0), err);
  if (err != CL_SUCCESS || !out) return refuse(CL_OUT_OF_RESOURCES, "the vendor made no user event to stand for a user event of UniCL");
  e->on_complete([target = out](cl_int status) {
    vendor_set_user_event_status(target.get(), status < 0 ? status : CL_COMPLETE);
  });
  return CL_SUCCESS;
}

Ref<_cl_event> make_command_event(_cl_command_queue *q, cl_command_type type, VendorRef<cl_event> vendor_event) {
  auto e = make_object<_cl_event>();
  e->context = q->context;
  e->queue = Ref<_cl_command_queue>(q);
  e->type = type;
  e->vendor = std::move(vendor_event);
  return e;
}

Ref<_cl_event> make_task_event(_cl_command_queue *q, cl_command_type type, std::shared_ptr<Task> task) {
  auto e = make_object<_cl_event>();
  e->context = q->context;
  e->queue = Ref<_cl_command_queue>(q);
  e->type = type;
  e->task = std::move(task);
  return e;
}

cl_int WaitList::add_user_list(_cl_context *ctx, cl_uint n, const cl_event *events) {
  if ((n > 0) != (events != nullptr)) return refuse(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list and event_wait_list disagree (one is 0 or NULL, the other not)");
  for (cl_uint i = 0; i < n; ++i)
    if (!live(events[i])) return refuse(CL_INVALID_EVENT_WAIT_LIST, "an event of the wait list is NULL or not a live event");
  for (cl_uint i = 0; i < n; ++i)
    if (events[i]->context.get() != ctx) return refuse(CL_INVALID_CONTEXT, "an event of the wait list belongs to another context");
  if (ctx->multi()) return CL_SUCCESS;  // the task graph takes them (Command)
  for (cl_uint i = 0; i < n; ++i) {
    VendorRef<cl_event> e;
    if (cl_int err = wait_event_in(events[i], e); err != CL_SUCCESS) return err;
    add(std::move(e));
  }
  return CL_SUCCESS;
}

void WaitList::add_from(const std::shared_ptr<Completion> &done, size_t from, size_t to) {
  if (!done) return;
  if (from == to) {
    same_device_.push_back(done);
    resolved_ = false;
    return;
  }
  if (blocker_ || done->done()) return;
  block_on(done, from);
}

void WaitList::resolve() {
  if (resolved_) return;
  raw_.clear();
  for (auto &e : owned_) raw_.push_back(e.get());
  for (auto &c : same_device_) {
    if (cl_event e = c->vendor_event()) raw_.push_back(e);
    else if (cl_int s = failed_before_issue(*c); s != CL_SUCCESS) failed_ = s;
  }
  for (auto &c : ordered_after_)
    if (cl_event e = c->vendor_event()) raw_.push_back(e);
  resolved_ = true;
}

cl_int WaitList::failed() {
  resolve();
  return failed_;
}

cl_uint WaitList::size() {
  resolve();
  return static_cast<cl_uint>(raw_.size());
}

const cl_event *WaitList::data() {
  resolve();
  return raw_.empty() ? nullptr : raw_.data();
}

}  // namespace unicl

using namespace unicl;

cl_int _cl_event::status() {
  if (task) return division_status(task->status());
  if (is_user()) {
    std::lock_guard lock(mutex_);
    return user_status_;
  }
  cl_int s = CL_QUEUED;
  cl_int err = vendor_info(vendor.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
  return err == CL_SUCCESS ? s : err;
}

void _cl_event::add_pending(cl_int type, std::function<void(cl_int)> fn) {
  std::unique_lock lock(mutex_);
  if (user_status_ <= type) {
    cl_int s = user_status_ < 0 ? user_status_ : type;
    lock.unlock();
    fn(s);
    return;
  }
  pending_.push_back({type, std::move(fn)});
}

cl_int _cl_event::division_status(cl_int s) const {
  if (s >= 0 || !division) return s;
  cl_int error = division->error.load();
  return error < 0 ? error : s;
}

void _cl_event::on_complete(std::function<void(cl_int)> fn) {
  if (task) return task->on_status(CL_COMPLETE, std::move(fn));
  if (is_user()) return add_pending(CL_COMPLETE, std::move(fn));
  if (on_vendor_status(vendor.get(), CL_COMPLETE, fn) != CL_SUCCESS) {
    vendor_wait(vendor.get());
    fn(status());
  }
}

cl_int _cl_event::set_user_status(cl_int s) {
  if (s > CL_COMPLETE) return refuse(CL_INVALID_VALUE, "execution_status is neither CL_COMPLETE nor a negative error");
  std::vector<Pending> fire;
  {
    std::lock_guard lock(mutex_);
    if (user_status_ <= CL_COMPLETE) return refuse(CL_INVALID_OPERATION, "the user event's status is already set");
    user_status_ = s;
    fire.swap(pending_);
  }
  done_.notify_all();
  for (auto &p : fire) p.fn(s < 0 ? s : p.type);
  return CL_SUCCESS;
}

cl_int _cl_event::add_callback(cl_int type, Callback fn, void *data) {
  Ref<_cl_event> self(this);  // callbacks may run after the application released the event
  auto call = [self, fn, data](cl_int s) { fn(self.get(), self->division_status(s), data); };
  if (task) {
    task->on_status(type, std::move(call));
    return CL_SUCCESS;
  }
  if (is_user()) {
    add_pending(type, std::move(call));
    return CL_SUCCESS;
  }
  return on_vendor_status(vendor.get(), type, std::move(call));
}

cl_int _cl_event::wait() {
  if (task) return task->wait();
  if (is_user()) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return user_status_ <= CL_COMPLETE; });
    return user_status_ < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
  }
  return vendor_wait(vendor.get());
}
