// The node client's commands: each asks the node to enqueue it (waiting for
// the node's status, so that errors come back from the call itself, as
// UniCL expects of a vendor) under an event rank 0 named; the command's end
// comes later in an event message (remote_events.cpp). Written bytes travel
// with the request, read bytes with the end.
#include "cluster/remote_objects.hpp"
#include "remote_api_decls.hpp"

namespace unicl::api {
using namespace unicl::cluster;

namespace {

// Checks the queue and wait list, writes the command's header, then `body`,
// and asks the node. `blocking`: returns once the command ended.
template <class Body>
cl_int enqueue(cl_command_queue q, Op op, cl_command_type type, cl_uint num_wait, const cl_event *wait,
               cl_event *event, bool blocking, Body &&body, void *read_into = nullptr, size_t read_size = 0) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if ((num_wait && !wait) || (!num_wait && wait)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < num_wait; ++i)
    if (!live(wait[i], ObjectKind::kEvent) || wait[i]->rank != q->rank || wait[i]->context != q->context)
      return CL_INVALID_EVENT_WAIT_LIST;
  cl_event e = new_command_event(q, type);
  e->read_into = read_into, e->read_size = read_size;
  Writer w;
  w.put(q->remote).put(num_wait);
  for (cl_uint i = 0; i < num_wait; ++i) w.put(wait[i]->remote);
  w.put(e->remote);
  if (cl_int err = body(w); err != CL_SUCCESS) {
    forget_command_event(e);
    return err;
  }
  if (cl_int err = rpc(q->rank, op, w); err != CL_SUCCESS) {
    forget_command_event(e);
    return err;
  }
  cl_int status = CL_SUCCESS;
  if (blocking) status = api::clWaitForEvents(1, &e) == CL_SUCCESS ? CL_SUCCESS : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (event) *event = e;
  else release(e);
  return status;
}

bool ours(cl_mem m, cl_command_queue q) { return live(m, ObjectKind::kMemory) && live(q, ObjectKind::kQueue) && m->rank == q->rank; }

}  // namespace

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                                        size_t size, const void *ptr, cl_uint num_wait, const cl_event *wait,
                                        cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !ours(buffer, q)) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kWriteBuffer, CL_COMMAND_WRITE_BUFFER, num_wait, wait, event, blocking, [&](Writer &w) {
    if (!ptr || !size || offset + size > buffer->size) return CL_INVALID_VALUE;
    w.put(buffer->remote).put(uint64_t{offset}).bytes(ptr, size);
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                       void *ptr, cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !ours(buffer, q)) return CL_INVALID_MEM_OBJECT;
  return enqueue(
      q, Op::kReadBuffer, CL_COMMAND_READ_BUFFER, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (!ptr || !size || offset + size > buffer->size) return CL_INVALID_VALUE;
        w.put(buffer->remote).put(uint64_t{offset}).put(uint64_t{size});
        return CL_SUCCESS;
      },
      ptr, size);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                       size_t dst_offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!ours(src, q) || !ours(dst, q))) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kCopyBuffer, CL_COMMAND_COPY_BUFFER, num_wait, wait, event, false, [&](Writer &w) {
    w.put(src->remote).put(dst->remote).put(uint64_t{src_offset}).put(uint64_t{dst_offset}).put(uint64_t{size});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern, size_t pattern_size,
                                       size_t offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !ours(buffer, q)) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kFillBuffer, CL_COMMAND_FILL_BUFFER, num_wait, wait, event, false, [&](Writer &w) {
    if (!pattern || !pattern_size) return CL_INVALID_VALUE;
    w.put(buffer->remote).bytes(pattern, pattern_size).put(uint64_t{offset}).put(uint64_t{size});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                          const size_t *global, const size_t *local, cl_uint num_wait,
                                          const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!live(k, ObjectKind::kKernel) || k->rank != q->rank)) return CL_INVALID_KERNEL;
  return enqueue(q, Op::kNDRange, CL_COMMAND_NDRANGE_KERNEL, num_wait, wait, event, false, [&](Writer &w) {
    if (dims < 1 || dims > 3) return CL_INVALID_WORK_DIMENSION;
    if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
    w.put(k->remote).put(dims);
    for (cl_uint i = 0; i < 3; ++i) w.put(uint64_t{offset && i < dims ? offset[i] : 0});
    for (cl_uint i = 0; i < 3; ++i) w.put(uint64_t{i < dims ? global[i] : 1});
    for (cl_uint i = 0; i < 3; ++i) w.put(uint64_t{local && i < dims ? local[i] : 1});
    w.put(uint8_t{offset != nullptr}).put(uint8_t{local != nullptr});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint num_wait, const cl_event *wait,
                                 cl_event *event) {
  const size_t one = 1;
  return api::clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, num_wait, wait, event);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint num_wait, const cl_event *wait,
                                               cl_event *event) {
  return enqueue(q, Op::kMarker, CL_COMMAND_MARKER, num_wait, wait, event, false, [](Writer &) { return CL_SUCCESS; });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint num_wait, const cl_event *wait,
                                                cl_event *event) {
  return enqueue(q, Op::kBarrier, CL_COMMAND_BARRIER, num_wait, wait, event, false,
                 [](Writer &) { return CL_SUCCESS; });
}

}  // namespace unicl::api
