// Events: status, callbacks, waits, and bridging between device slots.
#include "event.hpp"

#include "api_decls.hpp"
#include "api_util.hpp"
#include "info.hpp"
#include "../include/CL/cl_ext_unicl.h"
#include "vendor_execution.hpp"

namespace unicl {
namespace {

VendorRef<cl_event> vendor_user_event(cl_context vctx) {
  cl_int err = CL_SUCCESS;
  cl_event e = vd(vctx).clCreateUserEvent(vctx, &err);
  return err == CL_SUCCESS ? VendorRef<cl_event>::adopt(e) : VendorRef<cl_event>();
}

}  // namespace

cl_int wait_event_in(cl_event e, VendorRef<cl_event> &out) {
  if (!e->is_user()) {
    out = VendorRef<cl_event>::share(e->vendor.get());
    return CL_SUCCESS;
  }
  // The vendor sees a user event of its own, as when used directly.
  out = vendor_user_event(e->context->vendor(0));
  if (!out) return CL_OUT_OF_RESOURCES;
  e->on_complete([target = out](cl_int status) {
    vd(target.get()).clSetUserEventStatus(target.get(), status < 0 ? status : CL_COMPLETE);
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
  if ((n > 0) != (events != nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; ++i)
    if (!live(events[i])) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; ++i)
    if (events[i]->context.get() != ctx) return CL_INVALID_CONTEXT;
  if (ctx->multi()) return CL_SUCCESS;  // the task graph takes them (Command)
  for (cl_uint i = 0; i < n; ++i) {
    VendorRef<cl_event> e;
    if (cl_int err = wait_event_in(events[i], e); err != CL_SUCCESS) return err;
    add(std::move(e));
  }
  return CL_SUCCESS;
}

void WaitList::add_from(cl_event vendor_event, size_t from, size_t to) {
  if (!vendor_event) return;
  if (from == to) return add(VendorRef<cl_event>::share(vendor_event));
  if (blocker_ || vendor_status(vendor_event) <= CL_COMPLETE) return;
  blocker_ = VendorRef<cl_event>::share(vendor_event);
}

const cl_event *WaitList::data() {
  raw_.clear();
  for (auto &e : owned_) raw_.push_back(e.get());
  return raw_.empty() ? nullptr : raw_.data();
}

}  // namespace unicl

using namespace unicl;

cl_int _cl_event::status() {
  if (task) return task->status();
  if (is_user()) {
    std::lock_guard lock(mutex_);
    return user_status_;
  }
  cl_int s = CL_QUEUED;
  cl_event v = vendor.get();
  cl_int err = vd(v).clGetEventInfo(v, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
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

void _cl_event::on_complete(std::function<void(cl_int)> fn) {
  if (task) return task->on_status(CL_COMPLETE, std::move(fn));
  if (is_user()) return add_pending(CL_COMPLETE, std::move(fn));
  if (on_vendor_status(vendor.get(), CL_COMPLETE, fn) != CL_SUCCESS) {
    vendor_wait(vendor.get());
    fn(status());
  }
}

cl_int _cl_event::set_user_status(cl_int s) {
  if (s > CL_COMPLETE) return CL_INVALID_VALUE;
  std::vector<Pending> fire;
  {
    std::lock_guard lock(mutex_);
    if (user_status_ <= CL_COMPLETE) return CL_INVALID_OPERATION;
    user_status_ = s;
    fire.swap(pending_);
  }
  done_.notify_all();
  for (auto &p : fire) p.fn(s < 0 ? s : p.type);
  return CL_SUCCESS;
}

cl_int _cl_event::add_callback(cl_int type, Callback fn, void *data) {
  Ref<_cl_event> self(this);  // callbacks may run after the application released the event
  auto call = [self, fn, data](cl_int s) { fn(self.get(), s, data); };
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

namespace unicl::api {

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; ++i)
    if (!live(event_list[i])) return CL_INVALID_EVENT;
  for (cl_uint i = 1; i < num_events; ++i)
    if (event_list[i]->context.get() != event_list[0]->context.get()) return CL_INVALID_CONTEXT;
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_events; ++i) {
    cl_int err = event_list[i]->wait();
    if (err != CL_SUCCESS || event_list[i]->status() < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return result;
}

cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(e)) return CL_INVALID_EVENT;
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE: return info_value<cl_command_queue>(size, value, size_ret, e->queue.get());
    case CL_EVENT_CONTEXT: return info_value<cl_context>(size, value, size_ret, e->context.get());
    case CL_EVENT_COMMAND_TYPE: return info_value(size, value, size_ret, e->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return info_value<cl_int>(size, value, size_ret, e->status());
    case CL_EVENT_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, e->refs.load());
    case CL_EVENT_DEVICE_UNICL: {
      cl_device_id d = nullptr;
      if (e->task && e->task->placed()) d = e->context->slots[e->task->slot()].device.get();
      else if (e->vendor) d = e->context->slots[e->queue->slot].device.get();
      return info_value(size, value, size_ret, d);
    }
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clRetainEvent(cl_event e) { return retain_handle(e, CL_INVALID_EVENT); }
cl_int CL_API_CALL clReleaseEvent(cl_event e) { return release_handle(e, CL_INVALID_EVENT); }

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info param, size_t size, void *value,
                                           size_t *size_ret) {
  if (!live(e)) return CL_INVALID_EVENT;
  // Checked here: not every vendor refuses timestamps of unprofiled queues.
  if (e->is_user() || !e->queue->profiling()) return CL_PROFILING_INFO_NOT_AVAILABLE;
  if (param < CL_PROFILING_COMMAND_QUEUED || param > CL_PROFILING_COMMAND_COMPLETE) return CL_INVALID_VALUE;
  if (e->task && e->task->state() != CL_SUBMITTED) return CL_PROFILING_INFO_NOT_AVAILABLE;
  cl_event v = e->task ? e->task->vendor_event() : e->vendor.get();
  size_t slot = e->task ? e->task->slot() : e->queue->slot;
  unsigned version = e->context->slots[slot].device->vendor_version;
  // COMPLETE is a 2.0 query; for older vendors it equals END (no child commands).
  if (param == CL_PROFILING_COMMAND_COMPLETE && version < 200) param = CL_PROFILING_COMMAND_END;
  return vd(v).clGetEventProfilingInfo(v, param, size, value, size_ret);
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  auto e = make_object<_cl_event>();
  e->context = Ref<_cl_context>(context);
  return hand_out(std::move(e), errcode_ret);
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int execution_status) {
  if (!live(e) || !e->is_user()) return CL_INVALID_EVENT;
  return e->set_user_status(execution_status);
}

cl_int CL_API_CALL clSetEventCallback(cl_event e, cl_int type, void(CL_CALLBACK *pfn)(cl_event, cl_int, void *),
                                      void *user_data) {
  if (!live(e)) return CL_INVALID_EVENT;
  if (!pfn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return CL_INVALID_VALUE;
  return e->add_callback(type, pfn, user_data);
}

}  // namespace unicl::api
