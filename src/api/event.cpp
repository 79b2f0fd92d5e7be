// Event entry points.
#include <algorithm>
#include <vector>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "backend/vendor_info.hpp"
#include "core/event.hpp"
#include "core/info.hpp"
#include "CL/cl_ext_unicl.h"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// The devices a command ran on: its own, or for a divided launch those of
// its kernel pieces (all its pieces' when it has no kernel piece).
std::vector<cl_device_id> devices_of(cl_event e) {
  std::vector<cl_device_id> out;
  auto add = [&](const Task &t) {
    if (!t.placed()) return;
    cl_device_id d = e->context->slots[t.slot()].device.get();
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  };
  if (e->division) {
    auto pieces = e->division->pieces();
    auto kernel = [](const std::shared_ptr<Task> &t) {
      return t->type == CL_COMMAND_NDRANGE_KERNEL || t->type == CL_COMMAND_TASK;
    };
    bool any_kernel = std::any_of(pieces.begin(), pieces.end(), kernel);
    for (auto &t : pieces)
      if (!any_kernel || kernel(t)) add(*t);
  } else if (e->task) {
    add(*e->task);
  } else if (e->vendor) {
    out.push_back(e->context->slots[e->queue->slot].device.get());
  }
  return out;
}

// A divided launch's times (host clock, see cl_ext_unicl.h), once complete.
cl_int division_profiling(cl_event e, cl_profiling_info param, size_t size, void *value, size_t *size_ret) {
  if (e->status() != CL_COMPLETE) return refuse(CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed");
  const DivisionRecord &d = *e->division;
  cl_ulong t = 0;
  switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: t = d.queued; break;
    case CL_PROFILING_COMMAND_SUBMIT: t = d.submitted; break;
    // A launch starts when what it follows completes, which may be before
    // its pieces were all enqueued (submitted): the specification orders
    // submit <= start <= end.
    case CL_PROFILING_COMMAND_START: t = std::max<cl_ulong>(d.started, d.submitted); break;
    default: t = std::max<cl_ulong>({d.ended, d.started, d.submitted}); break;  // END, COMPLETE
  }
  return info_value(size, value, size_ret, t);
}

}  // namespace
}  // namespace unicl

namespace unicl::api {

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (num_events == 0 || !event_list) return refuse(CL_INVALID_VALUE, "no events (num_events is 0 or event_list NULL)");
  for (cl_uint i = 0; i < num_events; ++i)
    if (!live(event_list[i])) return refuse(CL_INVALID_EVENT, "an event of the list is not a live event");
  for (cl_uint i = 1; i < num_events; ++i)
    if (event_list[i]->context.get() != event_list[0]->context.get()) return refuse(CL_INVALID_CONTEXT, "the events belong to different contexts");
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_events; ++i) {
    cl_int err = event_list[i]->wait();
    if (err != CL_SUCCESS || event_list[i]->status() < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return result;
}

cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(e)) return refuse(CL_INVALID_EVENT, "event is NULL or not a live event");
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE: return info_value<cl_command_queue>(size, value, size_ret, e->queue.get());
    case CL_EVENT_CONTEXT: return info_value<cl_context>(size, value, size_ret, e->context.get());
    case CL_EVENT_COMMAND_TYPE: return info_value(size, value, size_ret, e->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return info_value<cl_int>(size, value, size_ret, e->status());
    case CL_EVENT_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, e->refs.load());
    case CL_EVENT_DEVICE_UNICL: {
      std::vector<cl_device_id> devices = devices_of(e);
      return info_value(size, value, size_ret, devices.empty() ? cl_device_id{} : devices.front());
    }
    case CL_EVENT_DEVICES_UNICL: return info_vector(size, value, size_ret, devices_of(e));
    case CL_EVENT_DIVIDE_FACTOR_UNICL:
      return info_value<cl_uint>(size, value, size_ret, e->division ? e->division->factor : 0);
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clRetainEvent(cl_event e) { return retain_handle(e, CL_INVALID_EVENT); }
cl_int CL_API_CALL clReleaseEvent(cl_event e) { return release_handle(e, CL_INVALID_EVENT); }

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info param, size_t size, void *value,
                                           size_t *size_ret) {
  if (!live(e)) return refuse(CL_INVALID_EVENT, "event is NULL or not a live event");
  // Checked here: not every vendor refuses timestamps of unprofiled queues.
  if (e->is_user() || !e->queue->profiling()) return refuse(CL_PROFILING_INFO_NOT_AVAILABLE, "a user event, or its queue does not profile (CL_QUEUE_PROFILING_ENABLE)");
  if (param < CL_PROFILING_COMMAND_QUEUED || param > CL_PROFILING_COMMAND_COMPLETE) return refuse(CL_INVALID_VALUE, "param_name is not a profiling query");
  if (e->division) return division_profiling(e, param, size, value, size_ret);
  if (e->task && e->task->state() != CL_SUBMITTED) return refuse(CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not finished yet");
  cl_event v = e->task ? e->task->vendor_event() : e->vendor.get();
  size_t slot = e->task ? e->task->slot() : e->queue->slot;
  unsigned version = e->context->slots[slot].device->vendor_version;
  // COMPLETE is a 2.0 query; for older vendors it equals END (no child commands).
  if (param == CL_PROFILING_COMMAND_COMPLETE && version < 200) param = CL_PROFILING_COMMAND_END;
  return vendor_profiling_info(v, param, size, value, size_ret);
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  auto e = make_object<_cl_event>();
  e->context = Ref<_cl_context>(context);
  return hand_out(std::move(e), errcode_ret);
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int execution_status) {
  if (!live(e) || !e->is_user()) return refuse(CL_INVALID_EVENT, "event is not a live user event");
  return e->set_user_status(execution_status);
}

cl_int CL_API_CALL clSetEventCallback(cl_event e, cl_int type, void(CL_CALLBACK *pfn)(cl_event, cl_int, void *),
                                      void *user_data) {
  if (!live(e)) return refuse(CL_INVALID_EVENT, "event is NULL or not a live event");
  if (!pfn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return refuse(CL_INVALID_VALUE, "pfn_notify is NULL, or command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
  return e->add_callback(type, pfn, user_data);
}

}  // namespace unicl::api
