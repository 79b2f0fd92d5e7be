// Transfers and kernel launches. Transfers really move the bytes and take
// latency + bytes / bandwidth of the queue's device; kernels take
// flops(n) / (gflops * efficiency) and, in timing mode, compute nothing.
#include <algorithm>
#include <array>
#include <cstring>

#include "api.hpp"
#include "objects.hpp"
#include "pocl_bridge.hpp"
#include "submit.hpp"

namespace sim::api {
namespace {

const Config &config() { return platform()->config; }

double transfer_seconds(Queue *q, size_t bytes) { return config().transfer_seconds(q->device->config, bytes); }

// Checks common to commands on one buffer; out: the buffer's own reference.
cl_int check_buffer(Queue *q, Memory *m) {
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!checked(m)) return CL_INVALID_MEM_OBJECT;
  if (m->context != q->context) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

bool in_range(Memory *m, size_t offset, size_t size) { return offset <= m->size && size <= m->size - offset; }

bool host_may_read(Memory *m) { return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
bool host_may_write(Memory *m) { return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

// A 3-D box in a linear buffer, as the *Rect calls describe it.
struct Box {
  size_t origin[3];
  size_t row_pitch, slice_pitch;

  size_t at(size_t y, size_t z) const { return origin[0] + (origin[1] + y) * row_pitch + (origin[2] + z) * slice_pitch; }
};

// Applies the default pitches; false if they are invalid for the region.
bool make_box(const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch, Box &box) {
  if (!row_pitch) row_pitch = region[0];
  if (!slice_pitch) slice_pitch = region[1] * row_pitch;
  if (row_pitch < region[0] || slice_pitch < region[1] * row_pitch || slice_pitch % row_pitch) return false;
  box = {{origin[0], origin[1], origin[2]}, row_pitch, slice_pitch};
  return true;
}

size_t box_end(const Box &b, const size_t *region) { return b.at(region[1] - 1, region[2] - 1) + region[0]; }

void copy_box(std::byte *dst, const Box &db, const std::byte *src, const Box &sb, const size_t *region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) std::memmove(dst + db.at(y, z), src + sb.at(y, z), region[0]);
}

// The argument checks the three *Rect calls share, for one side.
cl_int check_rect_side(Memory *m, const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch,
                       Box &box) {
  if (!origin || !region || !region[0] || !region[1] || !region[2]) return CL_INVALID_VALUE;
  if (!make_box(origin, region, row_pitch, slice_pitch, box)) return CL_INVALID_VALUE;
  if (m && box_end(box, region) > m->size) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int rect_transfer(Queue *q, Memory *m, cl_bool blocking, bool read, const size_t *buffer_origin,
                     const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                     size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint n,
                     const cl_event *wait_list, cl_event *event) {
  if (cl_int err = check_buffer(q, m); err != CL_SUCCESS) return err;
  if (!ptr) return CL_INVALID_VALUE;
  if (read ? !host_may_read(m) : !host_may_write(m)) return CL_INVALID_OPERATION;
  Box bb{}, hb{};
  if (cl_int err = check_rect_side(m, buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, bb); err) return err;
  if (cl_int err = check_rect_side(nullptr, host_origin, region, host_row_pitch, host_slice_pitch, hb); err) return err;
  std::array<size_t, 3> r{region[0], region[1], region[2]};
  auto host = static_cast<std::byte *>(ptr);
  auto work = [buf = m->shared(), bb, hb, r, host, read] {
    if (read) copy_box(host, hb, buf->data, bb, r.data());
    else copy_box(buf->data, bb, host, hb, r.data());
    return CL_SUCCESS;
  };
  return submit(q, n, wait_list, event,
                {cl_command_type(read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT),
                 transfer_seconds(q, r[0] * r[1] * r[2]), work},
                blocking);
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q_handle, cl_mem m_handle, cl_bool blocking, size_t offset,
                                       size_t size,
                                       void *ptr, cl_uint n, const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  if (cl_int err = check_buffer(q, m); err != CL_SUCCESS) return err;
  if (!ptr || size == 0 || !in_range(m, offset, size)) return CL_INVALID_VALUE;
  if (!host_may_read(m)) return CL_INVALID_OPERATION;
  auto work = [buf = m->shared(), offset, size, ptr] {
    std::memcpy(ptr, buf->data + offset, size);
    return CL_SUCCESS;
  };
  return submit(q, n, wait_list, event, {CL_COMMAND_READ_BUFFER, transfer_seconds(q, size), work}, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q_handle, cl_mem m_handle, cl_bool blocking, size_t offset,
                                        size_t size,
                                        const void *ptr, cl_uint n, const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  if (cl_int err = check_buffer(q, m); err != CL_SUCCESS) return err;
  if (!ptr || size == 0 || !in_range(m, offset, size)) return CL_INVALID_VALUE;
  if (!host_may_write(m)) return CL_INVALID_OPERATION;
  auto work = [buf = m->shared(), offset, size, ptr] {
    std::memcpy(buf->data + offset, ptr, size);
    return CL_SUCCESS;
  };
  return submit(q, n, wait_list, event, {CL_COMMAND_WRITE_BUFFER, transfer_seconds(q, size), work}, blocking);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q_handle, cl_mem src_handle, cl_mem dst_handle,
                                       size_t src_offset,
                                       size_t dst_offset, size_t size, cl_uint n, const cl_event *wait_list,
                                       cl_event *event) {
  auto *q = remote(q_handle);
  auto *src = remote(src_handle);
  auto *dst = remote(dst_handle);
  if (cl_int err = check_buffer(q, src); err != CL_SUCCESS) return err;
  if (cl_int err = check_buffer(q, dst); err != CL_SUCCESS) return err;
  if (size == 0 || !in_range(src, src_offset, size) || !in_range(dst, dst_offset, size)) return CL_INVALID_VALUE;
  // Overlap is judged on the bytes themselves, so a sub-buffer and its parent count too.
  const std::byte *s = src->data + src_offset, *d = dst->data + dst_offset;
  if (s < d + size && d < s + size) return CL_MEM_COPY_OVERLAP;
  auto work = [from = src->shared(), to = dst->shared(), src_offset, dst_offset, size] {
    std::memcpy(to->data + dst_offset, from->data + src_offset, size);
    return CL_SUCCESS;
  };
  return submit(q, n, wait_list, event, {CL_COMMAND_COPY_BUFFER, transfer_seconds(q, size), work});
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q_handle, cl_mem m_handle, cl_bool blocking,
                                           const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                                           size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint n, const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  return rect_transfer(q, m, blocking, true, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                       host_row_pitch, host_slice_pitch, ptr, n, wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q_handle, cl_mem m_handle, cl_bool blocking,
                                            const size_t *buffer_origin, const size_t *host_origin,
                                            const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                                            cl_uint n, const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  return rect_transfer(q, m, blocking, false, buffer_origin, host_origin, region, buffer_row_pitch,
                       buffer_slice_pitch, host_row_pitch, host_slice_pitch, const_cast<void *>(ptr), n, wait_list,
                       event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q_handle, cl_mem src_handle, cl_mem dst_handle,
                                           const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint n, const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *src = remote(src_handle);
  auto *dst = remote(dst_handle);
  if (cl_int err = check_buffer(q, src); err != CL_SUCCESS) return err;
  if (cl_int err = check_buffer(q, dst); err != CL_SUCCESS) return err;
  Box sb{}, db{};
  if (cl_int err = check_rect_side(src, src_origin, region, src_row_pitch, src_slice_pitch, sb); err) return err;
  if (cl_int err = check_rect_side(dst, dst_origin, region, dst_row_pitch, dst_slice_pitch, db); err) return err;
  if (src->data == dst->data) {
    // The spec's overlap rule, simplified to the byte ranges the boxes span.
    size_t s0 = sb.at(0, 0), s1 = box_end(sb, region), d0 = db.at(0, 0), d1 = box_end(db, region);
    if (s0 < d1 && d0 < s1) return CL_MEM_COPY_OVERLAP;
  }
  std::array<size_t, 3> r{region[0], region[1], region[2]};
  auto work = [from = src->shared(), to = dst->shared(), sb, db, r] {
    copy_box(to->data, db, from->data, sb, r.data());
    return CL_SUCCESS;
  };
  return submit(q, n, wait_list, event, {CL_COMMAND_COPY_BUFFER_RECT, transfer_seconds(q, r[0] * r[1] * r[2]), work});
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q_handle, cl_mem m_handle, const void *pattern,
                                       size_t pattern_size,
                                       size_t offset, size_t size, cl_uint n, const cl_event *wait_list,
                                       cl_event *event) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  if (cl_int err = check_buffer(q, m); err != CL_SUCCESS) return err;
  bool power_of_two = pattern_size && !(pattern_size & (pattern_size - 1));
  if (!pattern || !power_of_two || pattern_size > 128) return CL_INVALID_VALUE;
  if (size == 0 || offset % pattern_size || size % pattern_size || !in_range(m, offset, size)) return CL_INVALID_VALUE;
  auto bytes = static_cast<const std::byte *>(pattern);
  auto work = [buf = m->shared(), p = std::vector<std::byte>(bytes, bytes + pattern_size), offset, size] {
    // One copy of the pattern, then the filled part doubles at each step.
    std::byte *dst = buf->data + offset;
    std::memcpy(dst, p.data(), p.size());
    for (size_t filled = p.size(); filled < size; filled *= 2) std::memcpy(dst + filled, dst, std::min(filled, size - filled));
    return CL_SUCCESS;
  };
  return submit(q, n, wait_list, event, {CL_COMMAND_FILL_BUFFER, transfer_seconds(q, size), work});
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q_handle, cl_mem m_handle, cl_bool blocking,
                                     cl_map_flags flags, size_t offset,
                                     size_t size, cl_uint n, const cl_event *wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  if (cl_int err = check_buffer(q, m); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (size == 0 || !in_range(m, offset, size)) return fail(errcode_ret, CL_INVALID_VALUE);
  constexpr cl_map_flags all = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~all) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return fail(errcode_ret, CL_INVALID_VALUE);
  if (((flags & CL_MAP_READ) && !host_may_read(m)) || ((flags & ~cl_map_flags{CL_MAP_READ}) && !host_may_write(m)))
    return fail(errcode_ret, CL_INVALID_OPERATION);
  // The bytes already live in host memory: mapping hands out a pointer into
  // them and only costs the modeled transfer (none when the contents are
  // to be overwritten anyway).
  void *ptr = m->data + offset;
  {
    std::lock_guard lock(m->mutex);
    m->mappings.emplace(ptr, Memory::Mapping{size, flags});
  }
  size_t moved = (flags & CL_MAP_WRITE_INVALIDATE_REGION) ? 0 : size;
  cl_int err = submit(q, n, wait_list, event, {CL_COMMAND_MAP_BUFFER, transfer_seconds(q, moved), nullptr}, blocking);
  if (err != CL_SUCCESS) {
    std::lock_guard lock(m->mutex);
    m->mappings.erase(m->mappings.find(ptr));
    return fail(errcode_ret, err);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return ptr;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q_handle, cl_mem m_handle, void *ptr, cl_uint n,
                                           const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *m = remote(m_handle);
  if (cl_int err = check_buffer(q, m); err != CL_SUCCESS) return err;
  if (cl_int err = check_wait_list(q->context.get(), n, wait_list); err != CL_SUCCESS) return err;
  Memory::Mapping mapping{};
  {
    std::lock_guard lock(m->mutex);
    auto it = m->mappings.find(ptr);
    if (it == m->mappings.end()) return CL_INVALID_VALUE;
    mapping = it->second;
    m->mappings.erase(it);
  }
  // Written data goes back to the device; read-only mappings cost only latency.
  size_t moved = (mapping.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ? mapping.size : 0;
  return submit(q, n, wait_list, event,
                {CL_COMMAND_UNMAP_MEM_OBJECT, transfer_seconds(q, moved), [keep = m->shared()] { return CL_SUCCESS; }});
}

namespace {

cl_int enqueue_kernel(cl_command_type type, Queue *q, Kernel *k, cl_uint dims, const size_t *offset,
                      const size_t *global, const size_t *local, cl_uint n, const cl_event *wait_list,
                      cl_event *event) {
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!checked(k)) return CL_INVALID_KERNEL;
  if (k->program->context != q->context) return CL_INVALID_CONTEXT;
  if (dims < 1 || dims > 3) return CL_INVALID_WORK_DIMENSION;
  if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
  pocl::Launch launch;
  launch.dims = dims;
  launch.has_offset = offset != nullptr;
  launch.has_local = local != nullptr;
  double work_items = 1;
  size_t group = 1;
  for (cl_uint i = 0; i < dims; ++i) {
    if (global[i] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
    if (local && (local[i] == 0 || local[i] > 1024)) return CL_INVALID_WORK_ITEM_SIZE;
    if (local && global[i] % local[i]) return CL_INVALID_WORK_GROUP_SIZE;
    launch.global[i] = global[i];
    launch.offset[i] = offset ? offset[i] : 0;
    launch.local[i] = local ? local[i] : 1;
    work_items *= static_cast<double>(global[i]);
    group *= launch.local[i];
  }
  if (group > 1024) return CL_INVALID_WORK_GROUP_SIZE;
  {
    // The arguments as they are now: later clSetKernelArg calls must not
    // change this launch.
    std::lock_guard lock(k->mutex);
    launch.args = k->args;
  }
  const auto &params = k->signature->params;
  launch.buffers.resize(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    if (!launch.args[i].set) return CL_INVALID_KERNEL_ARGS;
    if (!params[i].is_buffer()) continue;
    Memory *m = nullptr;
    std::memcpy(&m, launch.args[i].bytes.data(), sizeof m);
    if (m && !checked(m)) return CL_INVALID_KERNEL_ARGS;  // released since clSetKernelArg
    if (m) launch.buffers[i] = m->shared();
  }
  launch.kernel = k->shared();
  double seconds = config().kernel_seconds(k->signature->name, q->device->config, work_items);
  std::function<cl_int()> work;
  if (config().correctness) work = [launch = std::move(launch)] { return pocl::run(launch); };
  return submit(q, n, wait_list, event, {type, seconds, std::move(work)});
}

}  // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q_handle, cl_kernel k_handle, cl_uint dims,
                                          const size_t *offset,
                                          const size_t *global, const size_t *local, cl_uint n,
                                          const cl_event *wait_list, cl_event *event) {
  auto *q = remote(q_handle);
  auto *k = remote(k_handle);
  return enqueue_kernel(CL_COMMAND_NDRANGE_KERNEL, q, k, dims, offset, global, local, n, wait_list, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q_handle, cl_kernel k_handle, cl_uint n, const cl_event *wait_list,
                                 cl_event *event) {
  auto *q = remote(q_handle);
  auto *k = remote(k_handle);
  const size_t one = 1;
  return enqueue_kernel(CL_COMMAND_TASK, q, k, 1, nullptr, &one, &one, n, wait_list, event);
}

}  // namespace sim::api
