// The node client's commands: each is checked here (what the specification
// makes the call check, from what rank 0 knows) and posted to the node
// under an event rank 0 named; nothing waits for the node. Its end comes
// later in a report (remote_events.cpp), failed if the node's vendor could
// not run it. Written bytes travel with the request (inline when small),
// read bytes with the end.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string>

#include "cluster/remote_checks.hpp"
#include "remote_api_decls.hpp"

namespace unicl::api {
using namespace unicl::cluster;

namespace {

// A write's bytes in rank 0's memory, read when they are sent: from where
// they are (`direct`, held there by `keep`), or packed into `size` bytes by
// `pack` (the rows of a rectangle, an image's pixels).
struct HostBytes {
  size_t size = 0;
  const void *direct = nullptr;
  std::function<void(char *)> pack;
  std::shared_ptr<const void> keep;
};

// What a command moves between rank 0's memory and the node: a read's
// bytes go to `read_into` (read_size of them) or through `deliver`; a
// write's are `write` (size 0: none).
struct Transfer {
  void *read_into = nullptr;
  size_t read_size = 0;
  std::function<void(const char *, size_t)> deliver;
  HostBytes write;
};

// Appends `b`'s payload, as the bytes are now, to `w`; what follows the
// batch (when not inline) in `after`.
void put_bytes(Writer &w, const HostBytes &b, BulkBytes &after) {
  if (b.direct) {
    write_payload(w, b.direct, b.size);
    if (!inline_payload(b.size)) after = {b.direct, b.size, b.keep};
    return;
  }
  auto packed = std::make_shared<std::vector<char>>(b.size);
  b.pack(packed->data());
  write_payload(w, packed->data(), packed->size());
  if (!inline_payload(b.size)) after = {packed->data(), packed->size(), packed};
}

// What a write on `q` after `wait` must see end at rank 0 before its bytes
// are read there, as a vendor reads a write's memory only when the write
// runs: the reads and maps of an in-order queue still in flight (they fill
// rank 0's memory when they end) and, in the wait list, those and user
// events not set yet (the application may fill the memory first). Each
// retained.
std::vector<cl_event> bytes_follow(cl_command_queue q, cl_uint n, const cl_event *wait) {
  std::vector<cl_event> out;
  if (!(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    std::lock_guard lock(q->mutex);
    for (cl_event e : q->host_fills) retain(e), out.push_back(e);
  }
  for (cl_uint i = 0; i < n; ++i) {
    cl_event e = wait[i];
    bool pending = false;
    {
      std::lock_guard lock(e->mutex);
      pending = e->status > CL_COMPLETE;
    }
    if (pending && (!e->queue || fills_host(e->type)) && std::find(out.begin(), out.end(), e) == out.end())
      retain(e), out.push_back(e);
  }
  return out;
}

// Sends the bytes of write `id` on node `rank` (kWriteBytes) once every
// event of `blockers` (retained; released here) has ended, or its failure
// if one failed. The ends are asked for now.
void send_bytes_later(int rank, uint64_t id, HostBytes bytes, std::vector<cl_event> blockers) {
  struct Later {
    std::atomic<size_t> left;
    std::atomic<cl_int> status{CL_SUCCESS};
    HostBytes bytes;
    int rank;
    uint64_t id;
  };
  auto later = std::make_shared<Later>();
  later->left = blockers.size(), later->bytes = std::move(bytes), later->rank = rank, later->id = id;
  auto arrived = [later](cl_int status) {
    if (status < 0) later->status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (--later->left > 0) return;
    Writer w;
    w.put(later->id).put(later->status.load());
    BulkBytes after;
    if (later->status == CL_SUCCESS) put_bytes(w, later->bytes, after);
    else write_payload(w, nullptr, 0);
    post(later->rank, Op::kWriteBytes, w, after.data, after.size, std::move(after.keep));
  };
  for (cl_event b : blockers) {
    if (b->queue) want_ends(b->queue);
    when_ended(b, arrived);
    release(b);
  }
}

// Checks the queue and wait list, then `body` (the command's own arguments
// and checks), and posts the command with its header; a write's bytes last
// (its payload), or, when they may not be ready yet, later. `blocking`:
// returns once the command ended.
template <class Body>
cl_int enqueue(cl_command_queue q, Op op, cl_command_type type, cl_uint num_wait, const cl_event *wait,
               cl_event *event, bool blocking, Body &&body, Transfer &&transfer = {}) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if ((num_wait && !wait) || (!num_wait && wait)) return CL_INVALID_EVENT_WAIT_LIST;
  CommandHeader header;
  header.queue = q->id;
  for (cl_uint i = 0; i < num_wait; ++i) {
    if (!live(wait[i], ObjectKind::kEvent) || wait[i]->rank != q->rank || wait[i]->context != q->context)
      return CL_INVALID_EVENT_WAIT_LIST;
    header.wait.push_back(wait[i]->id);
  }
  Writer args;
  if (cl_int err = body(args); err != CL_SUCCESS) return err;
  if (node_lost(q->rank)) return CL_DEVICE_NOT_AVAILABLE;
  std::vector<cl_event> blockers;
  BulkBytes after;
  if (transfer.write.size) {
    blockers = bytes_follow(q, num_wait, wait);
    if (blockers.empty()) put_bytes(args, transfer.write, after);
    else args.put<uint64_t>(transfer.write.size).put(PayloadAt::kLater);
  }
  // A command nobody can name (no event handed out, no wait, nothing to
  // bring back) is not followed one by one: the node reports nothing of it,
  // and a wait on its queue covers it with a marker (clFinish). A stream of
  // launches then costs neither side an event each.
  if (!event && !blocking && !transfer.read_into && !transfer.deliver && !transfer.write.size) {
    bool untracked = false;
    {
      std::lock_guard lock(q->mutex);
      if (!q->waited) untracked = true, ++q->untracked;
    }
    if (untracked) {
      header.event = 0;
      Writer w;
      write(w, header);
      w.raw(args.buffer().data(), args.size());
      return post(q->rank, op, w) ? CL_SUCCESS : CL_DEVICE_NOT_AVAILABLE;
    }
  }
  // Someone will wait for its end: report it at once.
  cl_event e = new_command_event(q, type, blocking || event);
  e->read_into = transfer.read_into, e->read_size = transfer.read_size, e->deliver = std::move(transfer.deliver);
  header.event = e->id;
  header.flags = e->prompt ? kPrompt : 0;
  Writer w;
  write(w, header);
  w.raw(args.buffer().data(), args.size());
  if (!post(q->rank, op, w, after.data, after.size, std::move(after.keep))) {
    for (cl_event b : blockers) release(b);
    forget_command_event(e);
    return CL_DEVICE_NOT_AVAILABLE;
  }
  if (!blockers.empty()) send_bytes_later(q->rank, e->id, std::move(transfer.write), std::move(blockers));
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

// A memory object a command of `q` names: a buffer (or an image, `image`)
// of the queue's context.
cl_int object_error(cl_mem m, cl_command_queue q, bool image = false) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if (!ours(m, q) || (m->type != CL_MEM_OBJECT_BUFFER) != image) return CL_INVALID_MEM_OBJECT;
  return m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

}  // namespace

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                                        size_t size, const void *ptr, cl_uint num_wait, const cl_event *wait,
                                        cl_event *event) {
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(
      q, Op::kWriteBuffer, CL_COMMAND_WRITE_BUFFER, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(buffer, false); err != CL_SUCCESS) return err;
        if (!ptr) return CL_INVALID_VALUE;
        if (cl_int err = range_error(buffer, offset, size); err != CL_SUCCESS) return err;
        w.put(buffer->id).put(uint64_t{offset});
        return CL_SUCCESS;
      },
      {.write = {.size = size, .direct = ptr}});
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                       void *ptr, cl_uint num_wait, const cl_event *wait, cl_event *event) {
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(
      q, Op::kReadBuffer, CL_COMMAND_READ_BUFFER, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(buffer, true); err != CL_SUCCESS) return err;
        if (!ptr) return CL_INVALID_VALUE;
        if (cl_int err = range_error(buffer, offset, size); err != CL_SUCCESS) return err;
        w.put(buffer->id).put(uint64_t{offset}).put(uint64_t{size});
        return CL_SUCCESS;
      },
      {.read_into = ptr, .read_size = size});
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                       size_t dst_offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event) {
  for (cl_mem m : {src, dst})
    if (cl_int err = object_error(m, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(q, Op::kCopyBuffer, CL_COMMAND_COPY_BUFFER, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = range_error(src, src_offset, size); err != CL_SUCCESS) return err;
    if (cl_int err = range_error(dst, dst_offset, size); err != CL_SUCCESS) return err;
    if (cl_int err = copy_overlap_error(src, src_offset, dst, dst_offset, size); err != CL_SUCCESS) return err;
    w.put(src->id).put(dst->id).put(uint64_t{src_offset}).put(uint64_t{dst_offset}).put(uint64_t{size});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern, size_t pattern_size,
                                       size_t offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event) {
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(q, Op::kFillBuffer, CL_COMMAND_FILL_BUFFER, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = fill_error(buffer, pattern, pattern_size, offset, size); err != CL_SUCCESS) return err;
    w.put(buffer->id).bytes(pattern, pattern_size).put(uint64_t{offset}).put(uint64_t{size});
    return CL_SUCCESS;
  });
}

namespace {


// The OpenCL version of a device, as major * 10 + minor ("OpenCL 3.0 ...": 30).
int version_of(cl_device_id d) {
  auto it = d->info.find(CL_DEVICE_VERSION);
  int major = 1, minor = 0;
  if (it != d->info.end()) std::sscanf(std::string(it->second.begin(), it->second.end()).c_str(), "OpenCL %d.%d", &major, &minor);
  return major * 10 + minor;
}

// Whether launches of `k` may have work-groups of unequal sizes: OpenCL C
// 2.0 on, a device that has them, and a build that did not forbid them.
bool non_uniform(cl_kernel k, cl_device_id d) {
  std::string options;
  {
    std::lock_guard lock(k->program->mutex);
    options = k->program->options;
  }
  if (options.find("-cl-uniform-work-group-size") != std::string::npos) return false;
  if (options.find("-cl-std=CL2.") == std::string::npos && options.find("-cl-std=CL3.") == std::string::npos)
    return false;
  const int version = version_of(d);
  return version >= 20 && (version < 30 || d->value<cl_bool>(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT));
}

// What clEnqueueNDRangeKernel must refuse, from the device's limits and the
// kernel's build (the node's vendor is not asked).
cl_int launch_error(cl_kernel k, cl_device_id d, cl_uint dims, const size_t *global, const size_t *local) {
  if (dims < 1 || dims > d->value<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, 3)) return CL_INVALID_WORK_DIMENSION;
  if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
  // From OpenCL 2.1 a range of 0 is an empty launch, before an error.
  if (version_of(d) < 21)
    for (cl_uint i = 0; i < dims; ++i)
      if (global[i] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
  size_t required[3] = {0, 0, 0};
  if (auto it = k->facts.work_group.find(CL_KERNEL_COMPILE_WORK_GROUP_SIZE);
      it != k->facts.work_group.end() && it->second.size() >= sizeof required)
    std::memcpy(required, it->second.data(), sizeof required);
  const bool reqd = required[0] || required[1] || required[2];
  if (!local) return reqd ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
  size_t sizes[3] = {0, 0, 0};
  if (auto it = d->info.find(CL_DEVICE_MAX_WORK_ITEM_SIZES); it != d->info.end())
    std::memcpy(sizes, it->second.data(), std::min(it->second.size(), sizeof sizes));
  size_t items = 1;
  for (cl_uint i = 0; i < dims; ++i) {
    if (local[i] == 0) return CL_INVALID_WORK_GROUP_SIZE;
    if (reqd && local[i] != (required[i] ? required[i] : 1)) return CL_INVALID_WORK_GROUP_SIZE;
    items *= local[i];
  }
  // The whole group first, as vendors check it.
  const size_t device_max = d->value<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE, ~size_t{0});
  const size_t kernel_max = info_value<size_t>(k->facts.work_group, CL_KERNEL_WORK_GROUP_SIZE, device_max);
  if (items > std::min(device_max, kernel_max)) return CL_INVALID_WORK_GROUP_SIZE;
  for (cl_uint i = 0; i < dims; ++i)
    if (sizes[i] && local[i] > sizes[i]) return CL_INVALID_WORK_ITEM_SIZE;
  for (cl_uint i = 0; i < dims; ++i)
    if (global[i] % local[i] != 0 && !non_uniform(k, d)) return CL_INVALID_WORK_GROUP_SIZE;
  return CL_SUCCESS;
}

}  // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                          const size_t *global, const size_t *local, cl_uint num_wait,
                                          const cl_event *wait, cl_event *event) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  if (!live(k, ObjectKind::kKernel) || k->rank != q->rank) return CL_INVALID_KERNEL;
  if (k->program->context != q->context) return CL_INVALID_CONTEXT;
  return enqueue(q, Op::kNDRange, CL_COMMAND_NDRANGE_KERNEL, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = launch_error(k, q->device, dims, global, local); err != CL_SUCCESS) return err;
    w.put(k->id);
    // Last: it records the arguments as sent.
    if (cl_int err = changed_args(k, w, true); err != CL_SUCCESS) return err;
    w.put(dims);
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
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  Transfer transfer;
  return enqueue(q, Op::kWriteBufferRect, CL_COMMAND_WRITE_BUFFER_RECT, num_wait, wait, event, blocking,
                 [&](Writer &w) {
                   if (cl_int err = host_access_error(buffer, false); err != CL_SUCCESS) return err;
                   if (cl_int err = rect_error(buffer, {buffer_origin, region, buffer_row_pitch, buffer_slice_pitch});
                       err != CL_SUCCESS)
                     return err;
                   HostLayout h;
                   if (!ptr || rect_error(nullptr, {host_origin, region, host_row_pitch, host_slice_pitch}) ||
                       !host_layout(host_origin, region, host_row_pitch, host_slice_pitch, h))
                     return CL_INVALID_VALUE;
                   const std::array<size_t, 3> r{region[0], region[1], region[2]};
                   transfer.write.size = r[0] * r[1] * r[2];
                   transfer.write.pack = [h, r, ptr](char *packed) {
                     each_row(h, r.data(), [&](size_t host, size_t at) {
                       std::memcpy(packed + at, static_cast<const char *>(ptr) + host, r[0]);
                     });
                   };
                   w.put(buffer->id);
                   for (int i = 0; i < 3; ++i) w.put(uint64_t{buffer_origin[i]});
                   for (int i = 0; i < 3; ++i) w.put(uint64_t{region[i]});
                   w.put(uint64_t{buffer_row_pitch}).put(uint64_t{buffer_slice_pitch});
                   return CL_SUCCESS;
                 },
                 std::move(transfer));
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                           const size_t *buffer_origin, const size_t *host_origin,
                                           const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_wait,
                                           const cl_event *wait, cl_event *event) {
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  HostLayout h{};
  const bool ok = ptr && !rect_error(nullptr, {host_origin, region, host_row_pitch, host_slice_pitch}) &&
                  host_layout(host_origin, region, host_row_pitch, host_slice_pitch, h);
  std::array<size_t, 3> r{};
  if (region) r = {region[0], region[1], region[2]};
  return enqueue(
      q, Op::kReadBufferRect, CL_COMMAND_READ_BUFFER_RECT, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(buffer, true); err != CL_SUCCESS) return err;
        if (cl_int err = rect_error(buffer, {buffer_origin, region, buffer_row_pitch, buffer_slice_pitch});
            err != CL_SUCCESS)
          return err;
        if (!ok) return CL_INVALID_VALUE;
        w.put(buffer->id);
        for (int i = 0; i < 3; ++i) w.put(uint64_t{buffer_origin[i]});
        for (int i = 0; i < 3; ++i) w.put(uint64_t{region[i]});
        w.put(uint64_t{buffer_row_pitch}).put(uint64_t{buffer_slice_pitch});
        return CL_SUCCESS;
      },
      {.deliver = [h, r, ptr](const char *packed, size_t size) {
         if (size != r[0] * r[1] * r[2]) return;
         each_row(h, r.data(), [&](size_t host, size_t at) {
           std::memcpy(static_cast<char *>(ptr) + host, packed + at, r[0]);
         });
       }});
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_wait, const cl_event *wait, cl_event *event) {
  for (cl_mem m : {src, dst})
    if (cl_int err = object_error(m, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(q, Op::kCopyBufferRect, CL_COMMAND_COPY_BUFFER_RECT, num_wait, wait, event, false, [&](Writer &w) {
    const Rect from{src_origin, region, src_row_pitch, src_slice_pitch}, to{dst_origin, region, dst_row_pitch,
                                                                          dst_slice_pitch};
    if (cl_int err = rect_error(src, from); err != CL_SUCCESS) return err;
    if (cl_int err = rect_error(dst, to); err != CL_SUCCESS) return err;
    // One buffer, one layout: the specification's own overlap check.
    if (src == dst && src_row_pitch != dst_row_pitch && src_slice_pitch != dst_slice_pitch) return CL_INVALID_VALUE;
    if (cl_int err = rect_overlap_error(src, from, dst, to); err != CL_SUCCESS) return err;
    w.put(src->id).put(dst->id);
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
  Transfer transfer;
  return enqueue(
      q, Op::kWriteImage, CL_COMMAND_WRITE_IMAGE, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(image, false); err != CL_SUCCESS) return err;
        if (!ptr || !valid_region(origin, region)) return CL_INVALID_VALUE;
        const std::array<size_t, 3> bytes{region[0] * image->element, region[1], region[2]};
        HostLayout h = image_layout(image, region, row_pitch, slice_pitch);
        transfer.write.size = bytes[0] * bytes[1] * bytes[2];
        transfer.write.pack = [h, bytes, ptr](char *packed) {
          each_row(h, bytes.data(), [&](size_t host, size_t at) {
            std::memcpy(packed + at, static_cast<const char *>(ptr) + host, bytes[0]);
          });
        };
        w.put(image->id);
        put3(w, origin);
        put3(w, region);
        return CL_SUCCESS;
      },
      std::move(transfer));
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
        if (cl_int err = host_access_error(image, true); err != CL_SUCCESS) return err;
        if (!ok) return CL_INVALID_VALUE;
        w.put(image->id);
        put3(w, origin);
        put3(w, region);
        return CL_SUCCESS;
      },
      {.deliver = [h, bytes, ptr](const char *packed, size_t size) {
         if (size != bytes[0] * bytes[1] * bytes[2]) return;
         each_row(h, bytes.data(), [&](size_t host, size_t at) {
           std::memcpy(static_cast<char *>(ptr) + host, packed + at, bytes[0]);
         });
       }});
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region, cl_uint num_wait,
                                      const cl_event *wait, cl_event *event) {
  if (live(q, ObjectKind::kQueue) && (!is_image(src, q) || !is_image(dst, q))) return CL_INVALID_MEM_OBJECT;
  return enqueue(q, Op::kCopyImage, CL_COMMAND_COPY_IMAGE, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = format_mismatch_error(src, dst); err != CL_SUCCESS) return err;
    if (!src_origin || !valid_region(dst_origin, region)) return CL_INVALID_VALUE;
    w.put(src->id).put(dst->id);
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
    w.put(image->id).bytes(color, 16);  // four 32-bit channels at most
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
                   w.put(image->id).put(buffer->id);
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
                   w.put(buffer->id).put(image->id).put(uint64_t{offset});
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
  if (cl_int err = object_error(image, q, true); err != CL_SUCCESS) return fail(err);
  const bool layered = image->type == CL_MEM_OBJECT_IMAGE3D || image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (!valid_region(origin, region) || !row_pitch || (layered && !slice_pitch)) return fail(CL_INVALID_VALUE);
  if (cl_int err = map_flags_error(image, flags); err != CL_SUCCESS) return fail(err);
  // The mapped pixels live in rank 0's memory, packed.
  _cl_mem::Mapping m{0, region[0] * image->element * region[1] * region[2], flags, {}};
  for (int i = 0; i < 3; ++i) m.origin[i] = origin[i], m.region[i] = region[i];
  m.storage = std::make_shared<std::vector<char>>(m.size);
  char *ptr = m.storage->data();
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
          w.put(image->id);
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

// ---- maps: host memory of rank 0, filled by a read, written back at unmap ----

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                     size_t offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                     cl_event *event, cl_int *errcode_ret) {
  auto fail = [&](cl_int err) -> void * {
    if (errcode_ret) *errcode_ret = err;
    return nullptr;
  };
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS) return fail(err);
  if (cl_int err = range_error(buffer, offset, size); err != CL_SUCCESS) return fail(err);
  if (cl_int err = map_flags_error(buffer, flags); err != CL_SUCCESS) return fail(err);
  _cl_mem::Mapping m{offset, size, flags, {}};
  char *ptr = nullptr;
  if (buffer->flags & CL_MEM_USE_HOST_PTR) {
    ptr = static_cast<char *>(buffer->host_ptr) + offset;
  } else {
    m.storage = std::make_shared<std::vector<char>>(size);
    ptr = m.storage->data();
  }
  cl_int err = CL_SUCCESS;
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) {
    err = enqueue(q, Op::kMarker, CL_COMMAND_MAP_BUFFER, num_wait, wait, event, blocking,
                  [](Writer &) { return CL_SUCCESS; });
  } else {
    err = enqueue(
        q, Op::kReadBuffer, CL_COMMAND_MAP_BUFFER, num_wait, wait, event, blocking,
        [&](Writer &w) {
          w.put(buffer->id).put(uint64_t{offset}).put(uint64_t{size});
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
  // The mapped bytes go from the map's storage, kept until sent (a
  // USE_HOST_PTR buffer's are in the application's memory).
  const HostBytes bytes{.size = m.size, .direct = ptr, .keep = m.storage};
  if (memobj->type != CL_MEM_OBJECT_BUFFER)
    return enqueue(
        q, Op::kWriteImage, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
        [&](Writer &w) {
          w.put(memobj->id);
          put3(w, m.origin);
          put3(w, m.region);
          return CL_SUCCESS;
        },
        {.write = bytes});
  return enqueue(
      q, Op::kWriteBuffer, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
      [&](Writer &w) {
        w.put(memobj->id).put(uint64_t{m.offset});
        return CL_SUCCESS;
      },
      {.write = bytes});
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
