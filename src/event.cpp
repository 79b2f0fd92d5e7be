// Events: status, callbacks, waits, and bridging between device slots.
#include "event.hpp"

#include "api_decls.hpp"
#include "api_util.hpp"
#include "info.hpp"

namespace unicl {
namespace {

using Completion = std::function<void(cl_int)>;

void CL_CALLBACK run_completion(cl_event, cl_int status, void *data) {
  std::unique_ptr<Completion> fn(static_cast<Completion *>(data));
  (*fn)(status);
}

// Execution status of vendor event `e`, or CL_QUEUED when it cannot be read.
cl_int vendor_status(cl_event e) {
  cl_int s = CL_QUEUED;
  return vd(e).clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS ? s
                                                                                                          : CL_QUEUED;
}

// Runs fn(status) once vendor event `e` reaches status `type` (or fails),
// from the vendor's thread, or at once if it already has: some vendors
// (oclgrind) never call callbacks registered after the status was reached.
cl_int on_vendor_status(cl_event e, cl_int type, Completion fn) {
  if (cl_int now = vendor_status(e); now <= type) {
    fn(now < 0 ? now : type);
    return CL_SUCCESS;
  }
  auto data = std::make_unique<Completion>(std::move(fn));
  cl_int err = vd(e).clSetEventCallback(e, type, run_completion, data.get());
  if (err == CL_SUCCESS) data.release();  // owned by the callback now
  return err;
}

VendorRef<cl_event> vendor_user_event(cl_context vctx) {
  cl_int err = CL_SUCCESS;
  cl_event e = vd(vctx).clCreateUserEvent(vctx, &err);
  return err == CL_SUCCESS ? VendorRef<cl_event>::adopt(e) : VendorRef<cl_event>();
}

// A vendor user event of `vctx` that completes as its source does.
Completion completer(VendorRef<cl_event> target) {
  return [target = std::move(target)](cl_int status) {
    vd(target.get()).clSetUserEventStatus(target.get(), status < 0 ? status : CL_COMPLETE);
  };
}

}  // namespace

cl_int wait_on_host(cl_event vendor_event) {
  cl_int status = CL_QUEUED;
  if (vd(vendor_event).clWaitForEvents(1, &vendor_event) != CL_SUCCESS) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  vd(vendor_event).clGetEventInfo(vendor_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  return status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int wait_event_in(cl_event e, size_t slot, VendorRef<cl_event> &out) {
  if (!e->is_user()) {
    if (e->slot != slot) return wait_on_host(e->vendor.get());
    out = VendorRef<cl_event>::share(e->vendor.get());
    return CL_SUCCESS;
  }
  out = vendor_user_event(e->context->vendor(slot));
  if (!out) return CL_OUT_OF_RESOURCES;
  e->on_complete(completer(out));
  return CL_SUCCESS;
}

Ref<_cl_event> make_command_event(_cl_command_queue *q, cl_command_type type, VendorRef<cl_event> vendor_event) {
  auto e = make_object<_cl_event>();
  e->context = q->context;
  e->queue = Ref<_cl_command_queue>(q);
  e->type = type;
  e->vendor = std::move(vendor_event);
  e->slot = q->slot;
  return e;
}

cl_int WaitList::add_user_list(_cl_context *ctx, size_t slot, cl_uint n, const cl_event *events) {
  if ((n > 0) != (events != nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; ++i)
    if (!live(events[i])) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; ++i)
    if (events[i]->context.get() != ctx) return CL_INVALID_CONTEXT;
  for (cl_uint i = 0; i < n; ++i) {
    VendorRef<cl_event> e;
    if (cl_int err = wait_event_in(events[i], slot, e); err != CL_SUCCESS) return err;
    add(std::move(e));
  }
  return CL_SUCCESS;
}

const cl_event *WaitList::data() {
  raw_.clear();
  for (auto &e : owned_) raw_.push_back(e.get());
  return raw_.empty() ? nullptr : raw_.data();
}

}  // namespace unicl

using namespace unicl;

cl_int _cl_event::status() {
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
  if (is_user()) return add_pending(CL_COMPLETE, std::move(fn));
  if (on_vendor_status(vendor.get(), CL_COMPLETE, fn) != CL_SUCCESS) {
    cl_event v = vendor.get();
    vd(v).clWaitForEvents(1, &v);
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
  if (is_user()) {
    add_pending(type, std::move(call));
    return CL_SUCCESS;
  }
  return on_vendor_status(vendor.get(), type, std::move(call));
}

cl_int _cl_event::wait() {
  if (is_user()) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return user_status_ <= CL_COMPLETE; });
    return user_status_ < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
  }
  cl_event v = vendor.get();
  return vd(v).clWaitForEvents(1, &v);
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
  cl_event v = e->vendor.get();
  unsigned version = e->queue ? e->queue->device->vendor_version : 300;
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
