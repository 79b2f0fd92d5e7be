// The node client's commands: each asks the node to enqueue it (waiting for
// the node's status, so that errors come back from the call itself, as
// UniCL expects of a vendor) under an event rank 0 named; the command's end
// comes later in an event message (remote_events.cpp). Written bytes travel
// with the request, read bytes with the end.
#include <algorithm>
#include <array>
#include <cstring>

#include "cluster/remote_objects.hpp"
#include "remote_api_decls.hpp"

namespace unicl::api {
using namespace unicl::cluster;

namespace {

// Checks the queue and wait list, writes the command's header, then `body`,
// and asks the node. `blocking`: returns once the command ended.
// A read's bytes go to `read_into` (read_size of them) or through
// `deliver`; a write's come from `data`.
struct Bulk {
  void *read_into = nullptr;
  size_t read_size = 0;
  std::function<void(const std::vector<char> &)> deliver;
  const void *data = nullptr;
  size_t data_size = 0;
};

template <class Body>
cl_int enqueue(cl_command_queue q, Op op, cl_command_type type, cl_uint num_wait, const cl_event *wait,
               cl_event *event, bool blocking, Body &&body, Bulk bulk = {}) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if ((num_wait && !wait) || (!num_wait && wait)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < num_wait; ++i)
    if (!live(wait[i], ObjectKind::kEvent) || wait[i]->rank != q->rank || wait[i]->context != q->context)
      return CL_INVALID_EVENT_WAIT_LIST;
  cl_event e = new_command_event(q, type);
  e->read_into = bulk.read_into, e->read_size = bulk.read_size, e->deliver = std::move(bulk.deliver);
  Writer w;
  w.put(q->remote).put(num_wait);
  for (cl_uint i = 0; i < num_wait; ++i) w.put(wait[i]->remote);
  w.put(e->remote);
  if (cl_int err = body(w); err != CL_SUCCESS) {
    forget_command_event(e);
    return err;
  }
  if (cl_int err = rpc(q->rank, op, w, nullptr, bulk.data, bulk.data_size); err != CL_SUCCESS) {
    forget_command_event(e);
    return err;
  }
  cl_int status = CL_SUCCESS;
  if (blocking && api::clWaitForEvents(1, &e) != CL_SUCCESS) {
    // A lost node says so (CL_DEVICE_NOT_AVAILABLE), as the calls made to it
    // after the loss do; any other failure is the wait list's, for the spec.
    std::lock_guard lock(e->mutex);
    status = e->status == CL_DEVICE_NOT_AVAILABLE ? CL_DEVICE_NOT_AVAILABLE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
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
  return enqueue(
      q, Op::kWriteBuffer, CL_COMMAND_WRITE_BUFFER, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (!ptr || !size || offset + size > buffer->size) return CL_INVALID_VALUE;
        w.put(buffer->remote).put(uint64_t{offset}).put(uint64_t{size});
        return CL_SUCCESS;
      },
      {.data = ptr, .data_size = size});
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
      {.read_into = ptr, .read_size = size});
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

// ---- rectangles: the host side travels packed (rows of region[0] bytes) ----

namespace {

struct HostLayout {
  size_t origin[3], row, slice;
};
// The host layout's pitches, defaulted as the spec says; false when they
// are below the region's.
bool host_layout(const size_t *origin, const size_t *region, size_t row, size_t slice, HostLayout &out) {
  for (int i = 0; i < 3; ++i) out.origin[i] = origin[i];
  out.row = row ? row : region[0];
  out.slice = slice ? slice : region[1] * out.row;
  return out.row >= region[0] && out.slice >= region[1] * out.row;
}
// Calls fn(host offset, packed offset) for each row of the region.
template <class Fn>
void each_row(const HostLayout &h, const size_t *region, Fn &&fn) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      fn(h.origin[0] + (h.origin[1] + y) * h.row + (h.origin[2] + z) * h.slice, (z * region[1] + y) * region[0]);
}
bool valid_region(const size_t *origin, const size_t *region) {
  return origin && region && region[0] && region[1] && region[2];
}

}  // namespace

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                            const size_t *buffer_origin, const size_t *host_origin,
                                            const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                                            cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !ours(buffer, q)) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kWriteBufferRect, CL_COMMAND_WRITE_BUFFER_RECT, num_wait, wait, event, blocking,
                 [&](Writer &w) {
                   HostLayout h;
                   if (!ptr || !buffer_origin || !valid_region(host_origin, region) ||
                       !host_layout(host_origin, region, host_row_pitch, host_slice_pitch, h))
                     return CL_INVALID_VALUE;
                   std::vector<char> packed(region[0] * region[1] * region[2]);
                   each_row(h, region, [&](size_t host, size_t at) {
                     std::memcpy(packed.data() + at, static_cast<const char *>(ptr) + host, region[0]);
                   });
                   w.put(buffer->remote);
                   for (int i = 0; i < 3; ++i) w.put(uint64_t{buffer_origin[i]});
                   for (int i = 0; i < 3; ++i) w.put(uint64_t{region[i]});
                   w.put(uint64_t{buffer_row_pitch}).put(uint64_t{buffer_slice_pitch}).bytes(packed.data(), packed.size());
                   return CL_SUCCESS;
                 });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                           const size_t *buffer_origin, const size_t *host_origin,
                                           const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_wait,
                                           const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !ours(buffer, q)) return CL_INVALID_MEM_OBJECT;
  HostLayout h{};
  const bool ok = ptr && buffer_origin && valid_region(host_origin, region) &&
                  host_layout(host_origin, region, host_row_pitch, host_slice_pitch, h);
  std::array<size_t, 3> r{};
  if (region) r = {region[0], region[1], region[2]};
  return enqueue(
      q, Op::kReadBufferRect, CL_COMMAND_READ_BUFFER_RECT, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (!ok) return CL_INVALID_VALUE;
        w.put(buffer->remote);
        for (int i = 0; i < 3; ++i) w.put(uint64_t{buffer_origin[i]});
        for (int i = 0; i < 3; ++i) w.put(uint64_t{region[i]});
        w.put(uint64_t{buffer_row_pitch}).put(uint64_t{buffer_slice_pitch});
        return CL_SUCCESS;
      },
      {.deliver = [h, r, ptr](const std::vector<char> &packed) {
         if (packed.size() != r[0] * r[1] * r[2]) return;
         each_row(h, r.data(), [&](size_t host, size_t at) {
           std::memcpy(static_cast<char *>(ptr) + host, packed.data() + at, r[0]);
         });
       }});
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!ours(src, q) || !ours(dst, q))) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kCopyBufferRect, CL_COMMAND_COPY_BUFFER_RECT, num_wait, wait, event, false, [&](Writer &w) {
    if (!src_origin || !valid_region(dst_origin, region)) return CL_INVALID_VALUE;
    w.put(src->remote).put(dst->remote);
    for (int i = 0; i < 3; ++i) w.put(uint64_t{src_origin[i]});
    for (int i = 0; i < 3; ++i) w.put(uint64_t{dst_origin[i]});
    for (int i = 0; i < 3; ++i) w.put(uint64_t{region[i]});
    w.put(uint64_t{src_row_pitch}).put(uint64_t{src_slice_pitch}).put(uint64_t{dst_row_pitch})
        .put(uint64_t{dst_slice_pitch});
    return CL_SUCCESS;
  });
}

// ---- images: the host side travels packed (rows of region[0] pixels) ----

namespace {

bool is_image(cl_mem m, cl_command_queue q) { return ours(m, q) && m->type != CL_MEM_OBJECT_BUFFER; }
void put3(Writer &w, const size_t *v) {
  for (int i = 0; i < 3; ++i) w.put(uint64_t{v[i]});
}
// The application's layout of `region` of `image` at `ptr`: rows of
// `row` bytes apart, slices `slice` apart (0: packed, as the spec says).
HostLayout image_layout(cl_mem image, const size_t *region, size_t row, size_t slice) {
  const size_t origin[3] = {0, 0, 0};
  const size_t bytes[3] = {region[0] * image->element, region[1], region[2]};
  HostLayout h{};
  host_layout(origin, bytes, row, slice, h);
  return h;
}

}  // namespace

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t *origin,
                                       const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                       cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !is_image(image, q)) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kWriteImage, CL_COMMAND_WRITE_IMAGE, num_wait, wait, event, blocking, [&](Writer &w) {
    if (!ptr || !valid_region(origin, region)) return CL_INVALID_VALUE;
    const size_t bytes[3] = {region[0] * image->element, region[1], region[2]};
    HostLayout h = image_layout(image, region, row_pitch, slice_pitch);
    std::vector<char> packed(bytes[0] * bytes[1] * bytes[2]);
    each_row(h, bytes, [&](size_t host, size_t at) {
      std::memcpy(packed.data() + at, static_cast<const char *>(ptr) + host, bytes[0]);
    });
    w.put(image->remote);
    put3(w, origin);
    put3(w, region);
    w.bytes(packed.data(), packed.size());
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                                      cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !is_image(image, q)) return CL_INVALID_MEM_OBJECT;
  const bool ok = ptr && valid_region(origin, region);
  HostLayout h{};
  std::array<size_t, 3> bytes{};
  if (ok) h = image_layout(image, region, row_pitch, slice_pitch), bytes = {region[0] * image->element, region[1], region[2]};
  return enqueue(
      q, Op::kReadImage, CL_COMMAND_READ_IMAGE, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (!ok) return CL_INVALID_VALUE;
        w.put(image->remote);
        put3(w, origin);
        put3(w, region);
        return CL_SUCCESS;
      },
      {.deliver = [h, bytes, ptr](const std::vector<char> &packed) {
         if (packed.size() != bytes[0] * bytes[1] * bytes[2]) return;
         each_row(h, bytes.data(), [&](size_t host, size_t at) {
           std::memcpy(static_cast<char *>(ptr) + host, packed.data() + at, bytes[0]);
         });
       }});
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region, cl_uint num_wait,
                                      const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!is_image(src, q) || !is_image(dst, q))) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kCopyImage, CL_COMMAND_COPY_IMAGE, num_wait, wait, event, false, [&](Writer &w) {
    if (!src_origin || !valid_region(dst_origin, region)) return CL_INVALID_VALUE;
    w.put(src->remote).put(dst->remote);
    put3(w, src_origin);
    put3(w, dst_origin);
    put3(w, region);
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem image, const void *color, const size_t *origin,
                                      const size_t *region, cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && !is_image(image, q)) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kFillImage, CL_COMMAND_FILL_IMAGE, num_wait, wait, event, false, [&](Writer &w) {
    if (!color || !valid_region(origin, region)) return CL_INVALID_VALUE;
    w.put(image->remote).bytes(color, 16);  // four 32-bit channels at most
    put3(w, origin);
    put3(w, region);
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem image, cl_mem buffer, const size_t *origin,
                                              const size_t *region, size_t offset, cl_uint num_wait,
                                              const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!is_image(image, q) || !ours(buffer, q))) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kCopyImageToBuffer, CL_COMMAND_COPY_IMAGE_TO_BUFFER, num_wait, wait, event, false,
                 [&](Writer &w) {
                   if (!valid_region(origin, region)) return CL_INVALID_VALUE;
                   w.put(image->remote).put(buffer->remote);
                   put3(w, origin);
                   put3(w, region);
                   w.put(uint64_t{offset});
                   return CL_SUCCESS;
                 });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem buffer, cl_mem image, size_t offset,
                                              const size_t *origin, const size_t *region, cl_uint num_wait,
                                              const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!is_image(image, q) || !ours(buffer, q))) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kCopyBufferToImage, CL_COMMAND_COPY_BUFFER_TO_IMAGE, num_wait, wait, event, false,
                 [&](Writer &w) {
                   if (!valid_region(origin, region)) return CL_INVALID_VALUE;
                   w.put(buffer->remote).put(image->remote).put(uint64_t{offset});
                   put3(w, origin);
                   put3(w, region);
                   return CL_SUCCESS;
                 });
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking, cl_map_flags flags,
                                    const size_t *origin, const size_t *region, size_t *row_pitch,
                                    size_t *slice_pitch, cl_uint num_wait, const cl_event *wait, cl_event *event,
                                    cl_int *errcode_ret) {
  auto fail = [&](cl_int err) -> void * {
    if (errcode_ret) *errcode_ret = err;
    return nullptr;
  };
  if (!live(q, ObjectKind::kQueue)) return fail(CL_INVALID_COMMAND_QUEUE);
  if (!is_image(image, q)) return fail(CL_INVALID_MEM_OBJECT);
  const bool layered = image->type == CL_MEM_OBJECT_IMAGE3D || image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (!valid_region(origin, region) || !row_pitch || (layered && !slice_pitch)) return fail(CL_INVALID_VALUE);
  const cl_map_flags kinds = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~kinds) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return fail(CL_INVALID_VALUE);
  // The mapped pixels live in rank 0's memory, packed.
  _cl_mem::Mapping m{0, region[0] * image->element * region[1] * region[2], flags, {}};
  for (int i = 0; i < 3; ++i) m.origin[i] = origin[i], m.region[i] = region[i];
  m.storage.resize(m.size);
  char *ptr = m.storage.data();
  *row_pitch = region[0] * image->element;
  if (slice_pitch)
    *slice_pitch = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? *row_pitch : layered ? *row_pitch * region[1] : 0;
  cl_int err = CL_SUCCESS;
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) {
    err = enqueue(q, Op::kMarker, CL_COMMAND_MAP_IMAGE, num_wait, wait, event, blocking,
                  [](Writer &) { return CL_SUCCESS; });
  } else {
    err = enqueue(
        q, Op::kReadImage, CL_COMMAND_MAP_IMAGE, num_wait, wait, event, blocking,
        [&](Writer &w) {
          w.put(image->remote);
          put3(w, origin);
          put3(w, region);
          return CL_SUCCESS;
        },
        {.read_into = ptr, .read_size = m.size});
  }
  if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) return fail(err);
  {
    std::lock_guard lock(image->maps_mutex);
    image->maps.emplace_back(ptr, std::move(m));
  }
  if (errcode_ret) *errcode_ret = err;
  return ptr;
}

// ---- copies between nodes (cl_ext_unicl.h) ----

cl_int CL_API_CALL clEnqueueCopyBufferToPeerUNICL(cl_command_queue src_queue, cl_command_queue dst_queue, cl_mem src,
                                                  cl_mem dst, size_t src_offset, size_t dst_offset, size_t size,
                                                  cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (!live(src_queue, ObjectKind::kQueue) || !live(dst_queue, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if (!ours(src, src_queue) || !ours(dst, dst_queue) || src->context != src_queue->context ||
      dst->context != dst_queue->context)
    return CL_INVALID_MEM_OBJECT;
  if (!size || src_offset > src->size || size > src->size - src_offset || dst_offset > dst->size ||
      size > dst->size - dst_offset)
    return CL_INVALID_VALUE;
  if ((num_wait && !wait) || (!num_wait && wait)) return CL_INVALID_EVENT_WAIT_LIST;
  // Each side waits for the events of its own context (both sides may be
  // on one node, in two contexts of different vendors).
  std::vector<uint64_t> at_src, at_dst;
  for (cl_uint i = 0; i < num_wait; ++i) {
    cl_event e = wait[i];
    if (!live(e, ObjectKind::kEvent) || (e->context != src_queue->context && e->context != dst_queue->context))
      return CL_INVALID_EVENT_WAIT_LIST;
    (e->context == src_queue->context ? at_src : at_dst).push_back(e->remote);
  }
  auto header = [](Writer &w, cl_command_queue q, const std::vector<uint64_t> &events, uint64_t id) {
    w.put(q->remote).put(static_cast<cl_uint>(events.size()));
    for (uint64_t e : events) w.put(e);
    w.put(id);
  };
  // The receiver first, so that its write (and its event) exist before
  // the bytes can come.
  cl_event e = new_command_event(dst_queue, CL_COMMAND_COPY_BUFFER);
  e->peer_source = src_queue->rank;
  Writer receive;
  header(receive, dst_queue, at_dst, e->remote);
  receive.put(dst->remote).put(uint64_t{dst_offset}).put(uint64_t{size});
  // Within one node, the receiver may take the bytes from the source's
  // host copy (host_copies.hpp) rather than from a read.
  if (src_queue->rank == dst_queue->rank) receive.put(uint8_t{1}).put(src->remote).put(uint64_t{src_offset});
  else receive.put(uint8_t{0});
  if (cl_int err = rpc(dst_queue->rank, Op::kPeerReceive, receive); err != CL_SUCCESS) {
    forget_command_event(e);
    return err;
  }
  Writer send;
  header(send, src_queue, at_src, new_event_id());
  send.put(src->remote).put(uint64_t{src_offset}).put(uint64_t{size}).put(int32_t{dst_queue->rank}).put(e->remote);
  if (cl_int err = rpc(src_queue->rank, Op::kPeerSend, send); err != CL_SUCCESS) {
    // The receiver's write fails and reports its end; the caller never
    // sees its event.
    Writer cancel;
    cancel.put(e->remote).put(err);
    post(dst_queue->rank, Op::kPeerCancel, cancel);
    forget_command_event(e);
    return err;
  }
  if (event) *event = e;
  else release(e);
  return CL_SUCCESS;
}

// ---- maps: host memory of rank 0, filled by a read, written back at unmap ----

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                     size_t offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                     cl_event *event, cl_int *errcode_ret) {
  auto fail = [&](cl_int err) -> void * {
    if (errcode_ret) *errcode_ret = err;
    return nullptr;
  };
  if (!live(q, ObjectKind::kQueue)) return fail(CL_INVALID_COMMAND_QUEUE);
  if (!ours(buffer, q)) return fail(CL_INVALID_MEM_OBJECT);
  if (!size || offset + size > buffer->size) return fail(CL_INVALID_VALUE);
  const cl_map_flags kinds = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~kinds) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return fail(CL_INVALID_VALUE);
  _cl_mem::Mapping m{offset, size, flags, {}};
  char *ptr = nullptr;
  if (buffer->flags & CL_MEM_USE_HOST_PTR) ptr = static_cast<char *>(buffer->host_ptr) + offset;
  else m.storage.resize(size), ptr = m.storage.data();
  cl_int err = CL_SUCCESS;
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) {
    err = enqueue(q, Op::kMarker, CL_COMMAND_MAP_BUFFER, num_wait, wait, event, blocking,
                  [](Writer &) { return CL_SUCCESS; });
  } else {
    err = enqueue(
        q, Op::kReadBuffer, CL_COMMAND_MAP_BUFFER, num_wait, wait, event, blocking,
        [&](Writer &w) {
          w.put(buffer->remote).put(uint64_t{offset}).put(uint64_t{size});
          return CL_SUCCESS;
        },
        {.read_into = ptr, .read_size = size});
  }
  if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) return fail(err);
  {
    std::lock_guard lock(buffer->maps_mutex);
    buffer->maps.emplace_back(ptr, std::move(m));  // a vector's heap block does not move with it
  }
  if (errcode_ret) *errcode_ret = err;
  return ptr;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj, void *ptr, cl_uint num_wait,
                                           const cl_event *wait, cl_event *event) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if (!ours(memobj, q)) return CL_INVALID_MEM_OBJECT;
  _cl_mem::Mapping m;
  {
    std::lock_guard lock(memobj->maps_mutex);
    auto it = std::find_if(memobj->maps.begin(), memobj->maps.end(), [&](auto &p) { return p.first == ptr; });
    if (it == memobj->maps.end()) return CL_INVALID_VALUE;
    m = std::move(it->second);
    memobj->maps.erase(it);
  }
  if (!(m.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
    return enqueue(q, Op::kMarker, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
                   [](Writer &) { return CL_SUCCESS; });
  if (memobj->type != CL_MEM_OBJECT_BUFFER)
    return enqueue(q, Op::kWriteImage, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false, [&](Writer &w) {
      w.put(memobj->remote);
      put3(w, m.origin);
      put3(w, m.region);
      w.bytes(m.storage.data(), m.storage.size());
      return CL_SUCCESS;
    });
  // The bytes are on the node when the request returns: the storage may go.
  return enqueue(
      q, Op::kWriteBuffer, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
      [&](Writer &w) {
        w.put(memobj->remote).put(uint64_t{m.offset}).put(uint64_t{m.size});
        return CL_SUCCESS;
      },
      {.data = ptr, .data_size = m.size});
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_objects, const cl_mem *objects,
                                              cl_mem_migration_flags flags, cl_uint num_wait, const cl_event *wait,
                                              cl_event *event) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if (!num_objects || !objects) return CL_INVALID_VALUE;
  if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_objects; ++i)
    if (!ours(objects[i], q)) return CL_INVALID_MEM_OBJECT;
  // The node's memory is the device's: there is nothing to move, only an order.
  return enqueue(q, Op::kMarker, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_wait, wait, event, false,
                 [](Writer &) { return CL_SUCCESS; });
}

}  // namespace unicl::api
