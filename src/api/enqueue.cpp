// Enqueue entry points. Each one: validate, translate through Command, call
// the vendor queue of the queue's device, finish.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "api/api_decls.hpp"
#include "api/argument_checks.hpp"
#include "api/handles.hpp"
#include "api/command.hpp"
#include "api/launch_checks.hpp"
#include "api/pieces_queue.hpp"
#include "api/rect_checks.hpp"
#include "core/inferred_split.hpp"
#include "core/kernel.hpp"
#include "core/runtime.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// Host access flags, checked by UniCL itself in multi-device contexts where
// replicas are made without them.
cl_int host_may(cl_mem m, bool read) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (!m->context->multi()) return CL_SUCCESS;
  cl_mem_flags deny = read ? (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)
                           : (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
  return (m->flags & deny) ? refuse(CL_INVALID_OPERATION, "the memory object's host access flags forbid this access") : CL_SUCCESS;
}

Access map_access(cl_map_flags flags) {
  return (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ? kReadWrite : kRead;
}

// What a launch does to memory argument `m`: what the vendor's argument
// information says, narrowed by what the kernel analysis found (`analysed`,
// access::Mode bits; 0: no analysis of the argument).
Access arg_access(const ArgMeta &meta, cl_mem m, uint8_t analysed) {
  if (m->flags & CL_MEM_READ_ONLY) return kRead;
  Access access = meta.known ? meta.access : kReadWrite;
  if (analysed) access = static_cast<Access>(access & analysed);
  return access != 0 ? access : kRead;  // an argument the kernel never touches: ordered as a read
}

// Per argument, the modes the kernel analysis found (0 where none).
std::vector<uint8_t> analysed_modes(const _cl_kernel &k) {
  std::vector<uint8_t> modes(k.args.size(), 0);
  if (auto analysed = k.analysed())
    for (size_t i = 0; i < modes.size() && i < analysed->params.size(); ++i)
      if (auto kind = analysed->params[i].kind;
          kind == access::Param::Kind::Global || kind == access::Param::Kind::Constant || kind == access::Param::Kind::Image2D)
        modes[i] = analysed->params[i].modes ? analysed->params[i].modes : uint8_t{access::kReads};
  return modes;
}

// Maps in multi-device contexts hand out the host copy: a marker that makes
// the host copy valid stands for the map.
// `offset`: where the mapping starts in the host copy; `touched`: the bytes
// of `m` it maps.
void *map_host_copy(_cl_command_queue *q, cl_mem m, cl_bool blocking, cl_map_flags flags, size_t offset,
                    Touched touched, cl_uint n, const cl_event *events, cl_event *event, cl_command_type type, cl_int *errcode_ret) {
  Command c(q, type);
  Access access = map_access(flags);
  cl_int err = c.wait_for(n, events);
  if (err == CL_SUCCESS) err = c.use_host(m, access, kRead, touched);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  void *ptr = static_cast<std::byte *>(host_copy(m)) + offset;
  _cl_mem::HostMapping mapping{ptr, access, touched.offset, touched.size};
  m->host_maps.push_back(mapping);
  m->map_count.fetch_add(1);
  // Once, whichever path finds the failure first; the other returns only
  // when it is done.
  auto unmap = [ctx = Ref<_cl_context>(q->context), mem = Ref<_cl_mem>(m), mapping,
                once = std::make_shared<std::once_flag>()] {
    std::call_once(*once, [&] {
      ContextLock lock(*ctx);
      auto it = std::find(mem->host_maps.begin(), mem->host_maps.end(), mapping);
      if (it != mem->host_maps.end()) {
        mem->host_maps.erase(it);
        mem->map_count.fetch_sub(1);
      }
    });
  };
  // A map that fails after its enqueue call returned (a read-back it needs
  // failed on its device) was never mapped either.
  c.on_later_failure([unmap](cl_int) { unmap(); });
  err = c.run([](VendorCall &l) { return vendor_enqueue::MarkerWithWaitList(l.on()); },
              event, blocking);
  if (err == CL_SUCCESS) {
    set_error(errcode_ret, CL_SUCCESS);
    return ptr;
  }
  unmap();  // not mapped after all
  return fail(errcode_ret, err);
}

// Multi-device contexts, a buffer the vendor shares between the devices
// (_cl_mem::vendor_shared): the vendor maps it on the device the command
// runs on. The pointer is known at once: a buffer over the application's
// memory maps to it (CL_MEM_USE_HOST_PTR), wherever the map runs.
void *map_shared(_cl_command_queue *q, cl_mem m, cl_bool blocking, cl_map_flags flags, size_t offset, size_t size,
                 cl_uint n, const cl_event *events, cl_event *event, cl_int *errcode_ret) {
  Command c(q, CL_COMMAND_MAP_BUFFER);
  cl_int err = c.use(m, map_access(flags), {offset, size});
  if (err == CL_SUCCESS) err = c.wait_for(n, events);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  err = c.run([=](VendorCall &l) {
    cl_int e = CL_SUCCESS;
    vendor_enqueue::MapBuffer(l.on(), e, l.mem(0), l.blocking(blocking), flags, offset, size);
    return e;
  }, event, blocking);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  m->map_count.fetch_add(1);
  set_error(errcode_ret, CL_SUCCESS);
  return static_cast<std::byte *>(m->host_ptr) + offset;
}

// The byte range [offset, offset + size) lies inside buffer `m`. Checked by
// UniCL without overflow: a vendor's own `offset + size` check can wrap
// (oclgrind then reads far out of bounds and crashes).
bool in_bounds(cl_mem m, size_t offset, size_t size) {
  return m->is_image() || (offset <= m->size && size <= m->size - offset);
}

// global_work_offset + global_work_size must fit in size_t; PoCL does not
// check and runs the kernel with wrapped ids.
bool offset_fits(cl_uint dim, const size_t *offset, const size_t *global) {
  if (!offset || !global || dim == 0 || dim > 3) return true;  // other checks are the vendor's
  for (cl_uint i = 0; i < dim; ++i)
    if (global[i] > SIZE_MAX - offset[i]) return false;
  return true;
}


// A read of bytes valid in the host copy, on q (a read's parts queue): a
// marker that waits for what writes them there (the host copy's validity is
// as planned: a transfer into it may still be on its way), then a copy into
// the application's memory, from the work queue once the marker completes;
// `event` completes after the copy.
cl_int read_from_host_copy(_cl_command_queue *q, cl_mem m, size_t offset, size_t size, void *ptr, cl_event *event) {
  Command c(q, CL_COMMAND_READ_BUFFER);
  if (cl_int err = c.use_host(m, kRead, kRead, {offset, size}); err != CL_SUCCESS) return err;
  const std::byte *from = static_cast<const std::byte *>(host_copy(m)) + offset;
  cl_event raw = nullptr;
  if (cl_int err = c.run([](VendorCall &l) { return vendor_enqueue::MarkerWithWaitList(l.on()); }, &raw);
      err != CL_SUCCESS)
    return err;
  Ref<_cl_event> valid(raw, true);
  cl_int err = CL_SUCCESS;
  Ref<_cl_event> copied(api::clCreateUserEvent(q->context.get(), &err), true);
  if (err != CL_SUCCESS) return err;
  // From the work queue: a vendor's completion callback (where this is
  // called from) must not make commands ready, which may call that vendor.
  valid->on_complete([from, ptr, size, copied](cl_int status) {
    Runtime::get().work_queue().post([from, ptr, size, copied, status] {
      if (status == CL_COMPLETE) std::memcpy(ptr, from, size);
      api::clSetUserEventStatus(copied.get(), status < 0 ? status : CL_COMPLETE);
    });
  });
  *event = copied.detach();
  return CL_SUCCESS;
}

// Whether a read goes in parts (read_in_parts, or the queue's last divided
// launch is not done); never one of the parts themselves (their thread pins them to their device).
bool reads_in_parts(_cl_command_queue *q, cl_mem m, size_t offset, size_t size) {
  if (!q->context->multi() || !live(m) || m->is_image() || m->context.get() != q->context.get() || size == 0 ||
      !in_bounds(m, offset, size) || PinnedSlot::current() != PinnedSlot::kNone)
    return false;
  ContextLock lock(*q->context);
  // After a divided launch not yet done, where its pieces put the bytes is
  // known only once they are placed: decide then.
  if (q->divided_launch_running()) return true;
  return read_in_parts(m, root_range(m, offset, size));
}

// Enqueues on `on` a read of each of `parts` of `m` into the application's
// `ptr` (which holds the read's bytes from buffer offset `offset`), as parts
// of `record`; their events in `reads`. Stops at the first refused.
cl_int enqueue_read_parts(cl_command_queue on, _cl_mem *m, const std::vector<ReadSource> &parts, size_t offset,
                          void *ptr, DivisionRecord &record, std::vector<cl_event> &reads) {
  const size_t base = m->root() == m ? 0 : m->origin;  // the parts are in root coordinates
  auto *to = static_cast<std::byte *>(ptr) - offset;    // the application's byte of buffer offset 0
  DivisionScope parts_of(record);
  for (const ReadSource &part : parts) {
    const size_t at = part.range.offset - base;
    cl_event e = nullptr;
    cl_int err;
    if (part.slot == host_location(m)) {
      err = read_from_host_copy(on, m, at, part.range.length, to + at, &e);
    } else {
      PinnedSlot pin(part.slot);
      err = api::clEnqueueReadBuffer(on, m, CL_FALSE, at, part.range.length, to + at, 0, nullptr, &e);
    }
    if (err != CL_SUCCESS) return err;
    reads.push_back(e);
  }
  return CL_SUCCESS;
}

// The parts of a read (read_sources), once everything it follows has
// completed, so that where its bytes are is known: those valid in the host
// copy copied from there (read_from_host_copy), each other one read by the
// device holding it
// straight into the application's memory, all at once on q's parts queue
// (the parts of `record`: the read's event says where they ran); `done`
// completes when they all have. From the work queue.
void read_parts(_cl_command_queue *q, Ref<_cl_mem> m, size_t offset, size_t size, void *ptr,
                std::shared_ptr<DivisionRecord> record, Ref<_cl_event> done) {
  std::vector<ReadSource> parts;
  {
    ContextLock lock(*q->context);
    parts = read_sources(m.get(), root_range(m.get(), offset, size));
  }
  cl_command_queue on = nullptr;
  cl_int err = pieces_queue(q, on);
  std::vector<cl_event> reads;
  if (err == CL_SUCCESS) err = enqueue_read_parts(on, m.get(), parts, offset, ptr, *record, reads);
  // The read ends when every part enqueued has (a part refused fails it,
  // once the others no longer write the application's memory).
  cl_event all = nullptr;
  if (!reads.empty())
    if (cl_int marked = api::clEnqueueMarkerWithWaitList(on, static_cast<cl_uint>(reads.size()), reads.data(), &all);
        marked != CL_SUCCESS && err == CL_SUCCESS)
      err = marked;
  for (cl_event e : reads) api::clReleaseEvent(e);
  if (on) on->flush_off_caller();
  auto end = [record, done, err](cl_int status) {
    if (status >= 0) status = err;
    record->ended = host_clock_ns();
    if (status < 0) record->error = status;
    api::clSetUserEventStatus(done.get(), status < 0 ? status : CL_COMPLETE);
  };
  if (!all) return end(CL_COMPLETE);
  Ref<_cl_event>(all, true)->on_complete(
      [end](cl_int status) { Runtime::get().work_queue().post([end, status] { end(status); }); });
}

// A read of a multi-device context's buffer whose bytes are best read in
// parts (read_in_parts): a marker after what the read follows; when it
// completes, the parts (read_parts); the read's event, a marker after them.
// Where the bytes are is decided only then: when the read is enqueued the
// launches before it may not have placed their pieces yet.
cl_int read_buffer_in_parts(_cl_command_queue *q, cl_mem m, cl_bool blocking, size_t offset, size_t size, void *ptr,
                            cl_uint n, const cl_event *events, cl_event *event) {
  if (!ptr) return refuse(CL_INVALID_VALUE, "ptr is NULL");
  cl_event raw = nullptr;
  if (cl_int err = api::clEnqueueMarkerWithWaitList(q, n, events, &raw); err != CL_SUCCESS) return err;
  Ref<_cl_event> before(raw, true);
  // What waits for the marker is the read's own event, behind a user event
  // no flush reaches: it must be flushed now (a vendor that runs its queue
  // only when flushed would hold it, and clFinish with it).
  q->flush_off_caller();
  cl_int err = CL_SUCCESS;
  Ref<_cl_event> done(api::clCreateUserEvent(q->context.get(), &err), true);
  if (err != CL_SUCCESS) return err;
  auto record = std::make_shared<DivisionRecord>();
  record->queued = host_clock_ns();
  // From the work queue: a vendor's completion callback (where this is
  // called from) must not make commands ready, which may call that vendor.
  before->on_complete([q = Ref<_cl_command_queue>(q), m = Ref<_cl_mem>(m), offset, size, ptr, record,
                       done](cl_int status) {
    Runtime::get().work_queue().post([q, m, offset, size, ptr, record, done, status] {
      record->submitted = record->started = host_clock_ns();
      if (status < 0) {
        record->ended = record->started.load();
        record->error = status;
        api::clSetUserEventStatus(done.get(), status);
      } else {
        read_parts(q.get(), m, offset, size, ptr, record, done);
      }
    });
  });
  cl_event after = done.get(), gate = nullptr;
  if ((err = api::clEnqueueMarkerWithWaitList(q, 1, &after, &gate)) != CL_SUCCESS) return err;
  gate->type = CL_COMMAND_READ_BUFFER;
  gate->division = record;
  if (blocking) err = api::clWaitForEvents(1, &gate);
  if (event && err == CL_SUCCESS) *event = gate;
  else api::clReleaseEvent(gate);
  return err;
}

std::vector<std::byte> copy_bytes(const void *p, size_t n) {
  auto *b = static_cast<const std::byte *>(p);
  return p ? std::vector<std::byte>(b, b + n) : std::vector<std::byte>();
}

}  // namespace
}  // namespace unicl

namespace unicl::api {

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                       void *ptr, cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (cl_int err = host_may(buffer, true); err != CL_SUCCESS) return err;
  if (reads_in_parts(q, buffer, offset, size))
    return read_buffer_in_parts(q, buffer, blocking, offset, size, ptr, n, events, event);
  Command c(q, CL_COMMAND_READ_BUFFER);
  if (cl_int err = c.use_buffer(buffer, kRead, {offset, size}); err != CL_SUCCESS) return err;
  if (!in_bounds(buffer, offset, size)) return refuse(CL_INVALID_VALUE, "the region (offset, size) is not inside the buffer");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::ReadBuffer(l.on(), l.mem(0), l.blocking(blocking), offset, size, ptr);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                        const void *ptr, cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (cl_int err = host_may(buffer, false); err != CL_SUCCESS) return err;
  Command c(q, CL_COMMAND_WRITE_BUFFER);
  if (cl_int err = c.use_buffer(buffer, kReadWrite, {offset, size, true}); err != CL_SUCCESS) return err;
  if (!in_bounds(buffer, offset, size)) return refuse(CL_INVALID_VALUE, "the region (offset, size) is not inside the buffer");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::WriteBuffer(l.on(), l.mem(0), l.blocking(blocking), offset, size, ptr);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                           const size_t *buffer_origin, const size_t *host_origin,
                                           const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint n,
                                           const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (cl_int err = host_may(buffer, true); err != CL_SUCCESS) return err;
  Command c(q, CL_COMMAND_READ_BUFFER_RECT);
  if (cl_int err = c.use_buffer(buffer, kRead); err != CL_SUCCESS) return err;
  if (check_rect({buffer_origin, buffer_row_pitch, buffer_slice_pitch}, region, buffer->size) != CL_SUCCESS ||
      check_rect({host_origin, host_row_pitch, host_slice_pitch}, region, 0) != CL_SUCCESS || !ptr)
    return refuse(CL_INVALID_VALUE, "the region, its origins or pitches, or ptr");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes bo(buffer_origin), ho(host_origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::ReadBufferRect(l.on(), l.mem(0), l.blocking(blocking), bo.get(), ho.get(), r.get(),
                                          buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                          ptr);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                            const size_t *buffer_origin, const size_t *host_origin,
                                            const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void *ptr, cl_uint n,
                                            const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (cl_int err = host_may(buffer, false); err != CL_SUCCESS) return err;
  Command c(q, CL_COMMAND_WRITE_BUFFER_RECT);
  if (cl_int err = c.use_buffer(buffer, kReadWrite); err != CL_SUCCESS) return err;
  if (check_rect({buffer_origin, buffer_row_pitch, buffer_slice_pitch}, region, buffer->size) != CL_SUCCESS ||
      check_rect({host_origin, host_row_pitch, host_slice_pitch}, region, 0) != CL_SUCCESS || !ptr)
    return refuse(CL_INVALID_VALUE, "the region, its origins or pitches, or ptr");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes bo(buffer_origin), ho(host_origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::WriteBufferRect(l.on(), l.mem(0), l.blocking(blocking), bo.get(), ho.get(), r.get(),
                                           buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                           ptr);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                                       size_t size, cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_COPY_BUFFER);
  if (cl_int err = c.use_buffer(src, kRead, {src_offset, size}); err != CL_SUCCESS) return err;
  if (cl_int err = c.use_buffer(dst, kReadWrite, {dst_offset, size, true}); err != CL_SUCCESS) return err;
  if (size == 0 || !in_bounds(src, src_offset, size) || !in_bounds(dst, dst_offset, size))
    return refuse(CL_INVALID_VALUE, "size is 0, or a range past its buffer's end");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::CopyBuffer(l.on(), l.mem(0), l.mem(1), src_offset, dst_offset, size);
  }, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_COPY_BUFFER_RECT);
  if (cl_int err = c.use_buffer(src, kRead); err != CL_SUCCESS) return err;
  if (cl_int err = c.use_buffer(dst, kReadWrite); err != CL_SUCCESS) return err;
  if (check_rect({src_origin, src_row_pitch, src_slice_pitch}, region, src->size) != CL_SUCCESS ||
      check_rect({dst_origin, dst_row_pitch, dst_slice_pitch}, region, dst->size) != CL_SUCCESS)
    return refuse(CL_INVALID_VALUE, "the region, its origins or pitches");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes so(src_origin), dso(dst_origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::CopyBufferRect(l.on(), l.mem(0), l.mem(1), so.get(), dso.get(), r.get(), src_row_pitch,
                                          src_slice_pitch, dst_row_pitch, dst_slice_pitch);
  }, event);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern, size_t pattern_size,
                                       size_t offset, size_t size, cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_FILL_BUFFER);
  if (cl_int err = c.use_buffer(buffer, kReadWrite, {offset, size, true}); err != CL_SUCCESS) return err;
  if (!in_bounds(buffer, offset, size)) return refuse(CL_INVALID_VALUE, "the region (offset, size) is not inside the buffer");
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  if (!valid_pattern(pattern, pattern_size)) return refuse(CL_INVALID_VALUE, "pattern is NULL or pattern_size is not 1, 2, 4, ... 128");
  return c.run([=, bytes = copy_bytes(pattern, pattern_size)](VendorCall &l) {
    return vendor_enqueue::FillBuffer(l.on(), l.mem(0), bytes.data(), pattern_size, offset, size);
  }, event);
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr, cl_uint n,
                                      const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (cl_int err = host_may(image, true); err != CL_SUCCESS) return err;
  Command c(q, CL_COMMAND_READ_IMAGE);
  if (cl_int err = c.use_image(image, kRead); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(image, origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes o(origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::ReadImage(l.on(), l.mem(0), l.blocking(blocking), o.get(), r.get(), row_pitch,
                                     slice_pitch, ptr);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t *origin,
                                       const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                       cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (cl_int err = host_may(image, false); err != CL_SUCCESS) return err;
  Command c(q, CL_COMMAND_WRITE_IMAGE);
  if (cl_int err = c.use_image(image, kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(image, origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes o(origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::WriteImage(l.on(), l.mem(0), l.blocking(blocking), o.get(), r.get(), row_pitch,
                                      slice_pitch, ptr);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region, cl_uint n,
                                      const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_COPY_IMAGE);
  if (cl_int err = c.use_image(src, kRead); err != CL_SUCCESS) return err;
  if (cl_int err = c.use_image(dst, kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(src, src_origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(dst, dst_origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes so(src_origin), dso(dst_origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::CopyImage(l.on(), l.mem(0), l.mem(1), so.get(), dso.get(), r.get());
  }, event);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem image, const void *fill_color, const size_t *origin,
                                      const size_t *region, cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_FILL_IMAGE);
  if (cl_int err = c.use_image(image, kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(image, origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes o(origin), r(region);
  // A fill colour is four 32-bit channels whatever the image format.
  return c.run([=, color = copy_bytes(fill_color, 16)](VendorCall &l) {
    return vendor_enqueue::FillImage(l.on(), l.mem(0), color.empty() ? nullptr : color.data(), o.get(), r.get());
  }, event);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset, cl_uint n,
                                              const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER);
  if (cl_int err = c.use_image(src, kRead); err != CL_SUCCESS) return err;
  if (cl_int err = c.use_buffer(dst, kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(src, src_origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes so(src_origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::CopyImageToBuffer(l.on(), l.mem(0), l.mem(1), so.get(), r.get(), dst_offset);
  }, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                              const size_t *dst_origin, const size_t *region, cl_uint n,
                                              const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE);
  if (cl_int err = c.use_buffer(src, kRead); err != CL_SUCCESS) return err;
  if (cl_int err = c.use_image(dst, kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = check_image_region(dst, dst_origin, region); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  Sizes dso(dst_origin), r(region);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::CopyBufferToImage(l.on(), l.mem(0), l.mem(1), src_offset, dso.get(), r.get());
  }, event);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                     size_t offset, size_t size, cl_uint n, const cl_event *events, cl_event *event,
                                     cl_int *errcode_ret) {
  if (!live(q)) return fail(errcode_ret, refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue"));
  if (!live(buffer) || buffer->is_image()) return fail(errcode_ret, refuse(CL_INVALID_MEM_OBJECT, "buffer is not a live buffer"));
  if (buffer->context.get() != q->context.get()) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "buffer belongs to another context than command_queue"));
  // Checked here for every context: some vendors map with contradictory flags.
  if (!valid_map_flags(flags)) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "map_flags are not valid (CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE, or unknown bits)"));
  if (buffer->context->multi()) {
    if (size == 0 || offset > buffer->size || size > buffer->size - offset)
      return fail(errcode_ret, refuse(CL_INVALID_VALUE, "the region (offset, size) is empty or not inside the buffer"));
    if (cl_int err = host_may(buffer, !(flags & CL_MAP_WRITE_INVALIDATE_REGION)); err != CL_SUCCESS)
      return fail(errcode_ret, err);
    if (buffer->root()->vendor_shared) return map_shared(q, buffer, blocking, flags, offset, size, n, events, event, errcode_ret);
    return map_host_copy(q, buffer, blocking, flags, offset, {offset, size}, n, events, event, CL_COMMAND_MAP_BUFFER,
                         errcode_ret);
  }
  Command c(q, CL_COMMAND_MAP_BUFFER);
  cl_int err = c.use(buffer, map_access(flags));
  if (err == CL_SUCCESS) err = c.wait_for(n, events);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  void *ptr = nullptr;
  err = c.run([&](VendorCall &l) {
    cl_int e = CL_SUCCESS;
    ptr = vendor_enqueue::MapBuffer(l.on(), e, l.mem(0), blocking, flags, offset, size);
    return e;
  }, event);
  if (err == CL_SUCCESS) buffer->map_count.fetch_add(1);
  set_error(errcode_ret, err);
  return err == CL_SUCCESS ? ptr : nullptr;
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking, cl_map_flags flags,
                                    const size_t *origin, const size_t *region, size_t *row_pitch,
                                    size_t *slice_pitch, cl_uint n, const cl_event *events, cl_event *event,
                                    cl_int *errcode_ret) {
  if (!live(q)) return fail(errcode_ret, refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue"));
  if (!live(image) || !image->is_image()) return fail(errcode_ret, refuse(CL_INVALID_MEM_OBJECT, "image is not a live image"));
  if (image->context.get() != q->context.get()) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "image belongs to another context than command_queue"));
  if (!valid_map_flags(flags)) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "map_flags are not valid (CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE, or unknown bits)"));
  if (cl_int err = check_image_region(image, origin, region); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (image->context->multi()) {
    if (!origin || !region || !row_pitch) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "origin, region or image_row_pitch is NULL"));
    const bool slices = image->type == CL_MEM_OBJECT_IMAGE3D || image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                        image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    if (slices && !slice_pitch)
      return fail(errcode_ret, refuse(CL_INVALID_VALUE, "image_slice_pitch is NULL for a 3D image or an image array"));
    // The host copy is tightly packed: rows of width * element size.
    size_t rp = image->desc.image_width * image->element_size;
    size_t rows = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : std::max<size_t>(image->desc.image_height, 1);
    size_t sp = rp * rows;
    *row_pitch = rp;
    if (slice_pitch) *slice_pitch = sp;
    size_t offset = origin[0] * image->element_size + origin[1] * rp + origin[2] * sp;
    if (image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) offset = origin[0] * image->element_size + origin[1] * rp;
    return map_host_copy(q, image, blocking, flags, offset, {}, n, events, event, CL_COMMAND_MAP_IMAGE, errcode_ret);
  }
  Command c(q, CL_COMMAND_MAP_IMAGE);
  cl_int err = c.use(image, map_access(flags));
  if (err == CL_SUCCESS) err = c.wait_for(n, events);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  void *ptr = nullptr;
  err = c.run([&](VendorCall &l) {
    cl_int e = CL_SUCCESS;
    ptr = vendor_enqueue::MapImage(l.on(), e, l.mem(0), blocking, flags, origin, region, row_pitch, slice_pitch);
    return e;
  }, event);
  if (err == CL_SUCCESS) image->map_count.fetch_add(1);
  set_error(errcode_ret, err);
  return err == CL_SUCCESS ? ptr : nullptr;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *mapped_ptr, cl_uint n,
                                           const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (m->context.get() != q->context.get()) return refuse(CL_INVALID_CONTEXT, "the memory object belongs to another context than command_queue");
  Command c(q, CL_COMMAND_UNMAP_MEM_OBJECT);
  if (m->context->multi() && !m->root()->vendor_shared) {
    auto it = std::find_if(m->host_maps.begin(), m->host_maps.end(), [&](auto &r) { return r.ptr == mapped_ptr; });
    if (it == m->host_maps.end()) return refuse(CL_INVALID_VALUE, "mapped_ptr is not a pointer a map of this memory object returned");
    if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
    // A map for writing handed the host copy to the application: when it
    // gives it back, the host copy is the only valid one.
    bool wrote = it->access & kWrite;
    Touched mapped{it->offset, it->size};
    if (cl_int err = c.use_host(m, wrote ? kReadWrite : kRead, wrote ? kWrite : kRead, mapped); err != CL_SUCCESS)
      return err;
    auto mapping = *it;
    m->host_maps.erase(it);
    m->map_count.fetch_sub(1);
    cl_int err = c.run([](VendorCall &l) {
      return vendor_enqueue::MarkerWithWaitList(l.on());
    }, event);
    if (err != CL_SUCCESS) {
      // Still mapped: the unmap was not enqueued.
      ContextLock lock(*q->context);
      m->host_maps.push_back(mapping);
      m->map_count.fetch_add(1);
    }
    return err;
  }
  if (cl_int err = c.use(m, kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  cl_int err = c.run([=](VendorCall &l) {
    return vendor_enqueue::UnmapMemObject(l.on(), l.mem(0), mapped_ptr);
  }, event);
  if (err == CL_SUCCESS) m->map_count.fetch_sub(1);
  return err;
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects, const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags, cl_uint n, const cl_event *events,
                                              cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (num_mem_objects == 0 || !mem_objects) return refuse(CL_INVALID_VALUE, "no memory objects (num_mem_objects is 0 or mem_objects NULL)");
  if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return refuse(CL_INVALID_VALUE, "flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)");
  Command c(q, CL_COMMAND_MIGRATE_MEM_OBJECTS);
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    cl_int err = (flags & CL_MIGRATE_MEM_OBJECT_HOST) && c.multi() ? c.use_host(mem_objects[i], kRead, kRead)
                                                                    : c.use(mem_objects[i], kRead);
    if (err != CL_SUCCESS) return err;
  }
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  if (c.multi()) {
    // The task moves the data where it is asked for; the marker orders the queue.
    return c.run([](VendorCall &l) {
      return vendor_enqueue::MarkerWithWaitList(l.on());
    }, event);
  }
  return c.run([=](VendorCall &l) {
    std::vector<cl_mem> vmems(l.mems.begin(), l.mems.end());
    return vendor_enqueue::MigrateMemObjects(l.on(), num_mem_objects, vmems.data(), flags);
  }, event);
}

namespace {

// The bytes of memory argument `index` a launch touches: the part of its
// indices along the dimension the kernel is split on (declared with
// clSetKernelSplitUNICL, or inferred), all of the object otherwise. The
// window of a 2-D image counts rows (the analysis reads a write's row
// coordinate); other images are whole.
Touched split_touched(const std::optional<KernelSplit> &split, size_t index, cl_uint dim, const size_t *offset,
                      const size_t *global, cl_mem m) {
  if (!split || !global || split->dim >= dim || (m->is_image() && !m->row_bytes())) return {};
  const SplitArg *arg = split->find(static_cast<cl_uint>(index));
  if (!arg) return {};
  const size_t unit = m->is_image() ? m->row_bytes() : 1, units = m->is_image() ? m->desc.image_height : m->size;
  auto part = split_bytes(*arg, offset ? offset[split->dim] : 0, global[split->dim], units);
  if (!part || part->size == 0) return {};  // an empty part: take the whole, which is always safe
  return {part->offset * unit, part->size * unit, false};
}

// A kernel launch takes one of four routes, each a function below:
// - divided: a kernel with a divide function, or one that declared how it
//   splits, on a scheduled queue: the granularity layer runs it, divided or
//   not (core/division.hpp);
// - direct: the common launch of a one-device context with no wait list,
//   no event and no trace, straight to the vendor;
// - one-device: a command of a one-device context (wait list, event, trace);
// - planned: a command of a multi-device context, whose arguments are made
//   coherent on the device it is placed on, and whose vendor kernel is
//   bound when it is issued.
// Each gets the call as made (KernelLaunch, core/division.hpp).

// The split UniCL infers for launch `l` of a kernel that declared none, if
// the kernel's analysis allows one at this launch (caller holds the
// kernel's mutex). A launch that may not be split says why once, with
// UNICL_LOG=2, per kernel and reason.
std::optional<KernelSplit> inferred_split(const KernelLaunch &l) {
  auto inferred = infer_split(l);
  if (!inferred) return std::nullopt;  // no analysis, or not yet
  if (!inferred->split && Runtime::get().log_level() >= kLogRefusals && l.kernel->split_refusal != inferred->reason) {
    l.kernel->split_refusal = inferred->reason;
    Runtime::get().log(kLogRefusals, "kernel %s runs whole: %s", l.kernel->name.c_str(), inferred->reason.c_str());
  }
  return inferred->split;
}

// Whether `l` goes to the granularity layer, and its launch there if so.
std::optional<DividedLaunch> divided_launch(const KernelLaunch &l) {
  if (!l.queue->scheduled || DivisionScope::current()) return std::nullopt;  // divide functions' pieces run plain
  // Launches UniCL can see are invalid take the plain path, which reports
  // their errors as usual.
  bool sized = l.dim >= 1 && l.dim <= 3 && l.global && std::all_of(l.global, l.global + l.dim, [](size_t g) { return g > 0; });
  if (!sized || !Runtime::get().granularity()) return std::nullopt;
  _cl_context &ctx = *l.queue->context;
  std::lock_guard lock(l.kernel->mutex);
  if (!std::all_of(l.kernel->args.begin(), l.kernel->args.end(), [](const ArgValue &a) { return a.set; }))
    return std::nullopt;
  DividedLaunch divided{l, l.kernel->divide, l.kernel->split};
  if (divided.divide.fn) return divided;
  if (!ctx.multi()) return std::nullopt;
  if (divided.split) return divided.split->dim < l.dim ? std::optional(divided) : std::nullopt;
  if (!ctx.auto_split) return std::nullopt;
  // A launch of one work-item, or of one work-group, cannot be cut: it
  // takes the plain route, a tenth of the divider's cost per launch
  // (bench-sched-overhead), without asking the analysis.
  size_t items = 1, groups = 1;
  for (cl_uint i = 0; i < l.dim; ++i) {
    items *= l.global[i];
    if (l.local && l.local[i]) groups *= (l.global[i] + l.local[i] - 1) / l.local[i];
  }
  if (items < 2 || (l.local && groups < 2)) return std::nullopt;
  divided.split = inferred_split(l);
  if (!divided.split) return std::nullopt;
  divided.groups_free = l.kernel->analysed()->work_group_use.empty();
  return divided;
}

// clpeak's kernel-latency pattern: none of a command's bookkeeping, which
// is all it would do.
bool direct_launch_fits(const KernelLaunch &l) {
  return l.num_events == 0 && !l.events && !l.event && !l.queue->scheduled && !l.queue->context->multi() && !Runtime::get().trace().on();
}

cl_int direct_launch(const KernelLaunch &l, cl_kernel vk) {
  return vendor_enqueue::NDRangeKernel({l.queue->vendor.get(), 0, nullptr, nullptr}, vk, l.dim, l.offset, l.global, l.local);
}

cl_int one_device_launch(const KernelLaunch &l, Command &c, cl_kernel vk) {
  if (cl_int err = c.wait_for(l.num_events, l.events); err != CL_SUCCESS) return err;
  if (Runtime::get().trace().on()) c.describe_launch(l.kernel->name, 0, {});
  return c.run([&](VendorCall &call) {
    return vendor_enqueue::NDRangeKernel(call.on(), vk, l.dim, l.offset, l.global, l.local);
  }, l.event);
}

cl_int planned_launch(const KernelLaunch &l, Command &c) {
  _cl_kernel *k = l.kernel;
  auto [args, split] = k->launch_state();
  // A piece of a launch the built-in divider cut touches what the launch's
  // split says (an inferred one is the launch's, not the kernel's).
  if (DivisionRecord *r = DivisionScope::current(); r && r->split) split = r->split;
  const std::vector<uint8_t> analysed = analysed_modes(*k);
  for (size_t i = 0; i < args.size(); ++i) {
    cl_mem m = args[i].mem;
    if (!m) continue;
    if (!live(m)) return refuse(CL_INVALID_KERNEL_ARGS, "a buffer argument is not a live memory object");
    if (cl_int err = c.use(m, arg_access(k->meta[i], m, analysed[i]), split_touched(split, i, l.dim, l.offset, l.global, m));
        err != CL_SUCCESS)
      return err;
  }
  if (cl_int err = c.wait_for(l.num_events, l.events); err != CL_SUCCESS) return err;
  std::vector<bool> runnable = k->runnable_slots();
  if (std::find(runnable.begin(), runnable.end(), true) == runnable.end())
    return refuse(CL_INVALID_PROGRAM_EXECUTABLE, "the program is built for no device of the context");
  bool pinned = false;
  if (size_t pin = PinnedSlot::current(); l.queue->scheduled && pin < runnable.size() && runnable[pin]) {
    for (size_t s = 0; s < runnable.size(); ++s) runnable[s] = s == pin;
    pinned = true;
  }
  Sizes o(l.offset, l.dim), g(l.global, l.dim), lw(l.local, l.dim);
  size_t items = 1;
  for (cl_uint i = 0; i < std::min<cl_uint>(l.dim, 3) && l.global; ++i) items *= l.global[i];
  c.describe_launch(k->name, items, std::move(runnable), pinned);
  return c.run([=, dim = l.dim, kernel = Ref<_cl_kernel>(k), args = std::move(args)](VendorCall &call) {
    cl_kernel vk = nullptr;
    if (cl_int err = vendor_kernel_with_args(kernel.get(), args, call.mems, call.slot, vk); err != CL_SUCCESS) return err;
    return vendor_enqueue::NDRangeKernel(call.on(), vk, dim, o.get(), g.get(), lw.get());
  }, l.event);
}

// The checks every route shares, then the route.
cl_int enqueue_kernel(const KernelLaunch &l) {
  if (!live(l.queue)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (!live(l.kernel)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  if (l.kernel->program->context.get() != l.queue->context.get())
    return refuse(CL_INVALID_CONTEXT, "the kernel and the queue belong to different contexts");
  if (!offset_fits(l.dim, l.offset, l.global))
    return refuse(CL_INVALID_GLOBAL_OFFSET, "global_work_offset + global_work_size overflows size_t");
  cl_kernel vk = l.queue->scheduled ? nullptr : l.kernel->per_slot[l.queue->slot].get();
  if (!l.queue->scheduled && !vk) return refuse(CL_INVALID_PROGRAM_EXECUTABLE, "the kernel's program is not built for the queue's device");
  if (l.queue->context->multi()) {
    if (l.dim < 1 || l.dim > 3) return refuse(CL_INVALID_WORK_DIMENSION, "work_dim is not 1, 2 or 3");
    const size_t slot = l.queue->scheduled ? _cl_context::npos : l.queue->slot;
    if (cl_int err = check_work_groups(*l.kernel, slot, l.dim, l.global, l.local); err != CL_SUCCESS) return err;
  }
  if (auto divided = divided_launch(l)) return Runtime::get().granularity()->run_divided(*divided);
  if (direct_launch_fits(l)) return direct_launch(l, vk);
  Command c(l.queue, l.type);
  return c.multi() ? planned_launch(l, c) : one_device_launch(l, c, vk);
}

}  // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint work_dim,
                                          const size_t *global_work_offset, const size_t *global_work_size,
                                          const size_t *local_work_size, cl_uint n, const cl_event *events,
                                          cl_event *event) {
  return enqueue_kernel({q, k, work_dim, global_work_offset, global_work_size, local_work_size, n, events, event,
                         CL_COMMAND_NDRANGE_KERNEL});
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *events, cl_event *event) {
  const size_t one = 1;
  return enqueue_kernel({q, k, 1, nullptr, &one, &one, n, events, event, CL_COMMAND_TASK});
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK *user_func)(void *), void *args,
                                         size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
                                         const void **args_mem_loc, cl_uint n, const cl_event *events,
                                         cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (!user_func || (args && cb_args == 0) || (!args && cb_args > 0)) return refuse(CL_INVALID_VALUE, "user_func is NULL, or args and cb_args disagree (NULL or 0)");
  if ((num_mem_objects > 0) != (mem_list != nullptr) || (num_mem_objects > 0 && !args_mem_loc))
    return refuse(CL_INVALID_VALUE, "num_mem_objects, mem_list and args_mem_loc disagree (0 or NULL)");
  Command c(q, CL_COMMAND_NATIVE_KERNEL);
  for (cl_uint i = 0; i < num_mem_objects; ++i)
    if (cl_int err = c.use(mem_list[i], kReadWrite); err != CL_SUCCESS) return err;
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  // The vendor copies `args` and patches memory handles at args_mem_loc:
  // those must hold the vendor's handles, in a copy of our own.
  std::vector<size_t> at(num_mem_objects);
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    at[i] = static_cast<const std::byte *>(args_mem_loc[i]) - static_cast<std::byte *>(args);
    if (!args || at[i] + sizeof(cl_mem) > cb_args) return refuse(CL_INVALID_VALUE, "an args_mem_loc entry points outside args");
  }
  return c.run([=, copy = copy_bytes(args, cb_args)](VendorCall &l) mutable {
    std::vector<cl_mem> vmems(l.mems.begin(), l.mems.end());
    std::vector<const void *> locs(num_mem_objects);
    for (cl_uint i = 0; i < num_mem_objects; ++i) {
      std::memcpy(copy.data() + at[i], &vmems[i], sizeof(cl_mem));
      locs[i] = copy.data() + at[i];
    }
    return vendor_enqueue::NativeKernel(l.on(), user_func, args ? copy.data() : nullptr, cb_args, num_mem_objects,
                                        vmems.empty() ? nullptr : vmems.data(), locs.empty() ? nullptr : locs.data());
  }, event);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_MARKER);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  if (n == 0) c.follow_all(false);
  return c.run([](VendorCall &l) {
    return vendor_enqueue::MarkerWithWaitList(l.on());
  }, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *events,
                                                cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  Command c(q, CL_COMMAND_BARRIER);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  c.follow_all(true);
  return c.run([](VendorCall &l) {
    return vendor_enqueue::BarrierWithWaitList(l.on());
  }, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *event) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (!event) return refuse(CL_INVALID_VALUE, "event is NULL");
  return api::clEnqueueMarkerWithWaitList(q, 0, nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) { return api::clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr); }

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *events) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (n == 0 || !events) return refuse(CL_INVALID_VALUE, "no events (num_events is 0 or event_list NULL)");
  for (cl_uint i = 0; i < n; ++i)
    if (!live(events[i])) return refuse(CL_INVALID_EVENT, "an event of the list is not a live event");
  return api::clEnqueueBarrierWithWaitList(q, n, events, nullptr);
}

}  // namespace unicl::api
