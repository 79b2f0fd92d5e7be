// Events, user events, and the commands that only order others: markers,
// barriers, migrations; clFlush and clFinish.
#include "api.hpp"
#include "info.hpp"
#include "objects.hpp"
#include "submit.hpp"

namespace sim::api {

cl_event CL_API_CALL clCreateUserEvent(cl_context context_handle, cl_int *errcode_ret) {
  auto *context = remote(context_handle);
  if (!checked(context)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  auto ev = create<Event>();
  ev->context = context->shared();
  ev->type = CL_COMMAND_USER;
  ev->status = CL_SUBMITTED;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return hand_out(ev);
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event ev_handle, cl_int status) {
  auto *ev = remote(ev_handle);
  if (!checked(ev) || ev->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
  if (status > CL_COMPLETE) return CL_INVALID_VALUE;
  {
    std::lock_guard lock(ev->mutex);
    if (ev->user_status_set) return CL_INVALID_OPERATION;  // only once
    ev->user_status_set = true;
  }
  ev->ended = sim::now_ns();  // when the commands waiting for it may start
  ev->set_status(status);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list) {
  if (n == 0 || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; ++i) {
    if (!checked(list[i])) return CL_INVALID_EVENT;
    if (remote(list[i])->context != remote(list[0])->context) return CL_INVALID_CONTEXT;
  }
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < n; ++i) {
    remote(list[i])->wait();
    if (remote(list[i])->status < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return result;
}

cl_int CL_API_CALL clGetEventInfo(cl_event ev_handle, cl_event_info param, size_t size, void *value, size_t *size_ret) {
  auto *ev = remote(ev_handle);
  if (!checked(ev)) return CL_INVALID_EVENT;
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE: return info_value(size, value, size_ret, handle(ev->queue.get()));
    case CL_EVENT_CONTEXT: return info_value(size, value, size_ret, handle(ev->context.get()));
    case CL_EVENT_COMMAND_TYPE: return info_value(size, value, size_ret, ev->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return info_value(size, value, size_ret, ev->status.load());
    case CL_EVENT_REFERENCE_COUNT: return info_value(size, value, size_ret, ev->refs.load());
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return retain_handle(remote(event), CL_INVALID_EVENT);
}
cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return release_handle(remote(event), CL_INVALID_EVENT);
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev_handle, cl_profiling_info param, size_t size, void *value,
                                           size_t *size_ret) {
  auto *ev = remote(ev_handle);
  if (!checked(ev)) return CL_INVALID_EVENT;
  if (!ev->queue || !ev->queue->profiling() || ev->status != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: return info_value<cl_ulong>(size, value, size_ret, ev->queued);
    case CL_PROFILING_COMMAND_SUBMIT: return info_value<cl_ulong>(size, value, size_ret, ev->submitted);
    case CL_PROFILING_COMMAND_START: return info_value<cl_ulong>(size, value, size_ret, ev->started);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: return info_value<cl_ulong>(size, value, size_ret, ev->ended);
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetEventCallback(cl_event ev_handle, cl_int type, void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                      void *user_data) {
  auto *ev = remote(ev_handle);
  if (!checked(ev)) return CL_INVALID_EVENT;
  if (!fn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return CL_INVALID_VALUE;
  ev->add_callback(type, fn, user_data);
  return CL_SUCCESS;
}

// Commands start as soon as they are enqueued: there is nothing to flush.
cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  return checked(command_queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clFinish(cl_command_queue q_handle) {
  auto *q = remote(q_handle);
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  std::vector<std::shared_ptr<Event>> pending;
  {
    std::lock_guard lock(q->mutex);
    for (const auto &w : q->unfinished)
      if (auto e = w.lock()) pending.push_back(e);
  }
  for (const auto &e : pending) e->wait();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q_handle, cl_uint n, const cl_event *wait_list,
                                               cl_event *event) {
  auto *q = remote(q_handle);
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  return submit(q, n, wait_list, event, {CL_COMMAND_MARKER, 0, nullptr, Ordering::marker});
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q_handle, cl_uint n, const cl_event *wait_list,
                                                cl_event *event) {
  auto *q = remote(q_handle);
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  return submit(q, n, wait_list, event, {CL_COMMAND_BARRIER, 0, nullptr, Ordering::barrier});
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  if (!event) return CL_INVALID_VALUE;
  return api::clEnqueueMarkerWithWaitList(command_queue, 0, nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return api::clEnqueueBarrierWithWaitList(command_queue, 0, nullptr, nullptr);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q_handle, cl_uint n, const cl_event *list) {
  auto *q = remote(q_handle);
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !list) return CL_INVALID_VALUE;
  return api::clEnqueueBarrierWithWaitList(q_handle, n, list, nullptr);
}

// Every buffer lives in host memory that all devices share: migrating is
// only a point in the queue's order.
cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q_handle, cl_uint num_mems, const cl_mem *mems,
                                              cl_mem_migration_flags flags, cl_uint n, const cl_event *wait_list,
                                              cl_event *event) {
  auto *q = remote(q_handle);
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  if (num_mems == 0 || !mems) return CL_INVALID_VALUE;
  if (flags & ~cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED})
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mems; ++i) {
    if (!checked(mems[i])) return CL_INVALID_MEM_OBJECT;
    if (remote(mems[i])->context != q->context) return CL_INVALID_CONTEXT;
  }
  return submit(q, n, wait_list, event, {CL_COMMAND_MIGRATE_MEM_OBJECTS, 0, nullptr, Ordering::command});
}

}  // namespace sim::api
