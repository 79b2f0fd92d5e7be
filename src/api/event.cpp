// Event entry points.
#include "api_decls.hpp"
#include "api/api_util.hpp"
#include "backend/vendor_info.hpp"
#include "core/event.hpp"
#include "core/info.hpp"
#include "CL/cl_ext_unicl.h"

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
  return vendor_profiling_info(v, param, size, value, size_ret);
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
