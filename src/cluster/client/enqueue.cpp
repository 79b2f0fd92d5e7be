// The node client's commands on buffers and images, markers, barriers and
// migrations (enqueue.hpp says how every command travels), and what
// commands share: their bytes, and the checks of the objects they name.
#include "cluster/client/enqueue.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::cluster {

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

void BytesSent::open() {
  {
    std::lock_guard lock(mutex_);
    open_ = true;
  }
  opened_.notify_all();
}

void BytesSent::wait() {
  std::unique_lock lock(mutex_);
  opened_.wait(lock, [&] { return open_; });
}

std::shared_ptr<BytesSent> open_when_sent(BulkBytes &after) {
  if (!after.size) return nullptr;
  // Held by every part's send with the bytes' own keeper: the last part
  // sent drops it.
  struct Opener {
    std::shared_ptr<const void> bytes;
    std::shared_ptr<BytesSent> gate;
    ~Opener() { gate->open(); }
  };
  auto gate = std::make_shared<BytesSent>();
  after.keep = std::make_shared<Opener>(std::move(after.keep), gate);  // no temporary to open it early
  return gate;
}

std::optional<cl_int> post_untracked(RemoteQueue *q, Op op, CommandHeader &header, const Writer &args) {
  {
    std::lock_guard lock(q->mutex);
    if (q->waited) return std::nullopt;
    ++q->untracked;
  }
  header.event = 0;
  Writer w;
  write(w, header);
  w.raw(args.buffer().data(), args.size());
  return post(q->rank, op, w) ? CL_SUCCESS : cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the queue's node was lost");
}

cl_int wait_until_sent(RemoteEvent *e, const std::shared_ptr<BytesSent> &sent) {
  if (sent) {
    when_ended(e, [sent](cl_int) { sent->open(); });
    sent->wait();
  }
  // Ended before its bytes left: only a lost node ends it so early.
  std::lock_guard lock(e->mutex);
  return e->status == CL_DEVICE_NOT_AVAILABLE ? CL_DEVICE_NOT_AVAILABLE : CL_SUCCESS;
}

cl_int wait_until_ended(RemoteEvent *e) {
  const cl_event ended = handle(e);
  if (unicl::api::clWaitForEvents(1, &ended) == CL_SUCCESS) return CL_SUCCESS;
  // A lost node says so (CL_DEVICE_NOT_AVAILABLE), as the calls made to it
  // after the loss do; any other failure is the wait list's, for the spec.
  std::lock_guard lock(e->mutex);
  return e->status == CL_DEVICE_NOT_AVAILABLE ? CL_DEVICE_NOT_AVAILABLE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
}

// What a write on `q` after `wait` must see end at rank 0 before its bytes
// are read there, as a vendor reads a write's memory only when the write
// runs: the reads and maps of an in-order queue still in flight (they fill
// rank 0's memory when they end) and, in the wait list, those and user
// events not set yet (the application may fill the memory first). Each
// retained. Only those not ended yet: a read's event is set complete (its
// waiter wakes) before it leaves its queue's list, so the write that an
// application makes right after a blocking read found the read still
// listed, and its bytes waited for a second message (every 64 MiB write
// after a read took 24 ms instead of 14).
std::vector<RemoteEvent *> bytes_follow(RemoteQueue *q, cl_uint n, const cl_event *wait) {
  std::vector<RemoteEvent *> candidates;
  if (!(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    std::lock_guard lock(q->mutex);
    for (RemoteEvent *e : q->host_fills) retain(e), candidates.push_back(e);
  }
  for (cl_uint i = 0; i < n; ++i) {
    RemoteEvent *e = remote(wait[i]);
    if ((!e->queue || fills_host(e->type)) && std::find(candidates.begin(), candidates.end(), e) == candidates.end())
      retain(e), candidates.push_back(e);
  }
  std::vector<RemoteEvent *> out;
  for (RemoteEvent *e : candidates) {
    bool pending = false;
    {
      std::lock_guard lock(e->mutex);
      pending = e->status > CL_COMPLETE;
    }
    if (pending) out.push_back(e);
    else release(e);
  }
  return out;
}

// Sends the bytes of write `id` on node `rank` (kWriteBytes) once every
// event of `blockers` (retained; released here) has ended, or its failure
// if one failed. The ends are asked for now.
void send_bytes_later(int rank, uint64_t id, HostBytes bytes, std::vector<RemoteEvent *> blockers) {
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
    write(w, WriteBytes{later->id, later->status.load()});
    BulkBytes after;
    if (later->status == CL_SUCCESS) put_bytes(w, later->bytes, after);
    else write_payload(w, nullptr, 0);
    post(later->rank, Op::kWriteBytes, w, after.data, after.size, std::move(after.keep));
  };
  for (RemoteEvent *b : blockers) {
    if (b->queue) want_ends(b->queue);
    when_ended(b, arrived);
    release(b);
  }
}

cl_int object_error(RemoteMemory *m, RemoteQueue *q, bool image) {
  if (!live(q, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  if (!ours(m, q) || (m->type != CL_MEM_OBJECT_BUFFER) != image) return cluster::refuse(CL_INVALID_MEM_OBJECT, "the memory object is not a live one of command_queue's node, or is a buffer where an image is expected (or the reverse)");
  return m->context == q->context ? CL_SUCCESS
                                  : cluster::refuse(CL_INVALID_CONTEXT, "the memory object belongs to another context than command_queue");
}
bool host_layout(const size_t *origin, const size_t *region, size_t row, size_t slice, HostLayout &out) {
  for (int i = 0; i < 3; ++i) out.origin[i] = origin[i];
  out.row = row ? row : region[0];
  out.slice = slice ? slice : region[1] * out.row;
  return out.row >= region[0] && out.slice >= region[1] * out.row;
}
}  // namespace unicl::cluster

namespace unicl::api {
using namespace unicl::cluster;

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q_handle, cl_mem buffer_handle, cl_bool blocking,
                                        size_t offset,
                                        size_t size, const void *ptr, cl_uint num_wait, const cl_event *wait,
                                        cl_event *event) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(
      q, Op::kWriteBuffer, CL_COMMAND_WRITE_BUFFER, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(buffer, false); err != CL_SUCCESS) return err;
        if (!ptr) return cluster::refuse(CL_INVALID_VALUE, "ptr is NULL");
        if (cl_int err = range_error(buffer, offset, size); err != CL_SUCCESS) return err;
        write(w, BufferWrite{buffer->id, offset});
        return CL_SUCCESS;
      },
      {.write = {.size = size, .direct = ptr}});
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q_handle, cl_mem buffer_handle, cl_bool blocking,
                                       size_t offset, size_t size,
                                       void *ptr, cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(
      q, Op::kReadBuffer, CL_COMMAND_READ_BUFFER, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(buffer, true); err != CL_SUCCESS) return err;
        if (!ptr) return cluster::refuse(CL_INVALID_VALUE, "ptr is NULL");
        if (cl_int err = range_error(buffer, offset, size); err != CL_SUCCESS) return err;
        w.put(buffer->id);
        write(w, ByteSpan{offset, size});
        return CL_SUCCESS;
      },
      {.read_into = ptr, .read_size = size});
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q_handle, cl_mem src_handle, cl_mem dst_handle,
                                       size_t src_offset,
                                       size_t dst_offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event) {
  auto *q = remote(q_handle);
  auto *src = remote(src_handle);
  auto *dst = remote(dst_handle);
  for (RemoteMemory *m : {src, dst})
    if (cl_int err = object_error(m, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(q, Op::kCopyBuffer, CL_COMMAND_COPY_BUFFER, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = range_error(src, src_offset, size); err != CL_SUCCESS) return err;
    if (cl_int err = range_error(dst, dst_offset, size); err != CL_SUCCESS) return err;
    if (cl_int err = copy_overlap_error(src, src_offset, dst, dst_offset, size); err != CL_SUCCESS) return err;
    w.put(src->id).put(dst->id);
    write(w, SpanCopy{src_offset, dst_offset, size});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q_handle, cl_mem buffer_handle, const void *pattern,
                                       size_t pattern_size,
                                       size_t offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(q, Op::kFillBuffer, CL_COMMAND_FILL_BUFFER, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = fill_error(buffer, pattern, pattern_size, offset, size); err != CL_SUCCESS) return err;
    w.put(buffer->id).bytes(pattern, pattern_size);
    write(w, ByteSpan{offset, size});
    return CL_SUCCESS;
  });
}
cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q_handle, cl_uint num_wait, const cl_event *wait,
                                               cl_event *event) {
  auto *q = remote(q_handle);
  return enqueue(q, Op::kMarker, CL_COMMAND_MARKER, num_wait, wait, event, false, [](Writer &) { return CL_SUCCESS; });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q_handle, cl_uint num_wait, const cl_event *wait,
                                                cl_event *event) {
  auto *q = remote(q_handle);
  return enqueue(q, Op::kBarrier, CL_COMMAND_BARRIER, num_wait, wait, event, false,
                 [](Writer &) { return CL_SUCCESS; });
}
// ---- rectangles: the host side travels packed (rows of region[0] bytes) ----

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q_handle, cl_mem buffer_handle, cl_bool blocking,
                                            const size_t *buffer_origin, const size_t *host_origin,
                                            const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                                            cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
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
                     return cluster::refuse(CL_INVALID_VALUE, "ptr is NULL, or the host rectangle (origin, region, pitches) is not valid");
                   const std::array<size_t, 3> r{region[0], region[1], region[2]};
                   transfer.write.size = r[0] * r[1] * r[2];
                   transfer.write.pack = packs_rows(h, r, ptr);
                   w.put(buffer->id);
                   write(w, BufferRect{{size3(buffer_origin), size3(region)}, buffer_row_pitch, buffer_slice_pitch});
                   return CL_SUCCESS;
                 },
                 std::move(transfer));
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q_handle, cl_mem buffer_handle, cl_bool blocking,
                                           const size_t *buffer_origin, const size_t *host_origin,
                                           const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_wait,
                                           const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
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
        if (!ok) return cluster::refuse(CL_INVALID_VALUE, "ptr is NULL, or the host rectangle (origin, region, pitches) is not valid");
        w.put(buffer->id);
        write(w, BufferRect{{size3(buffer_origin), size3(region)}, buffer_row_pitch, buffer_slice_pitch});
        return CL_SUCCESS;
      },
      {.deliver = unpacks_rows(h, r, ptr)});
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q_handle, cl_mem src_handle, cl_mem dst_handle,
                                           const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *src = remote(src_handle);
  auto *dst = remote(dst_handle);
  for (RemoteMemory *m : {src, dst})
    if (cl_int err = object_error(m, q); err != CL_SUCCESS && err != CL_INVALID_COMMAND_QUEUE) return err;
  return enqueue(q, Op::kCopyBufferRect, CL_COMMAND_COPY_BUFFER_RECT, num_wait, wait, event, false, [&](Writer &w) {
    const Rect from{src_origin, region, src_row_pitch, src_slice_pitch}, to{dst_origin, region, dst_row_pitch,
                                                                          dst_slice_pitch};
    if (cl_int err = rect_error(src, from); err != CL_SUCCESS) return err;
    if (cl_int err = rect_error(dst, to); err != CL_SUCCESS) return err;
    // One buffer, one layout: the specification's own overlap check.
    if (src == dst && src_row_pitch != dst_row_pitch && src_slice_pitch != dst_slice_pitch) return cluster::refuse(CL_INVALID_VALUE, "a copy within one buffer with different row and slice pitches");
    if (cl_int err = rect_overlap_error(src, from, dst, to); err != CL_SUCCESS) return err;
    w.put(src->id).put(dst->id);
    write(w, BufferRectCopy{{size3(src_origin), size3(dst_origin), size3(region)},
                            src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch});
    return CL_SUCCESS;
  });
}
// ---- images: the host side travels packed (rows of region[0] pixels) ----

namespace {

// The application's layout of `region` of `image` at `ptr`: rows of
// `row` bytes apart, slices `slice` apart (0: packed, as the spec says).
HostLayout image_layout(RemoteMemory *image, const size_t *region, size_t row, size_t slice) {
  const size_t origin[3] = {0, 0, 0};
  const size_t bytes[3] = {region[0] * image->element, region[1], region[2]};
  HostLayout h{};
  host_layout(origin, bytes, row, slice, h);
  return h;
}

}  // namespace

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q_handle, cl_mem image_handle, cl_bool blocking,
                                       const size_t *origin,
                                       const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                       cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *image = remote(image_handle);
  if (live(q, ObjectKind::kQueue) && !is_image(image, q)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "image is not a live image of command_queue's node");
  Transfer transfer;
  return enqueue(
      q, Op::kWriteImage, CL_COMMAND_WRITE_IMAGE, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(image, false); err != CL_SUCCESS) return err;
        if (!ptr || !valid_region(origin, region)) return cluster::refuse(CL_INVALID_VALUE, "ptr is NULL, or origin or region is NULL or the region empty");
        const std::array<size_t, 3> bytes{region[0] * image->element, region[1], region[2]};
        HostLayout h = image_layout(image, region, row_pitch, slice_pitch);
        transfer.write.size = bytes[0] * bytes[1] * bytes[2];
        transfer.write.pack = packs_rows(h, bytes, ptr);
        w.put(image->id);
        write(w, Box{size3(origin), size3(region)});
        return CL_SUCCESS;
      },
      std::move(transfer));
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q_handle, cl_mem image_handle, cl_bool blocking,
                                      const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                                      cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *image = remote(image_handle);
  if (live(q, ObjectKind::kQueue) && !is_image(image, q)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "image is not a live image of command_queue's node");
  const bool ok = ptr && valid_region(origin, region);
  HostLayout h{};
  std::array<size_t, 3> bytes{};
  if (ok) h = image_layout(image, region, row_pitch, slice_pitch), bytes = {region[0] * image->element, region[1], region[2]};
  return enqueue(
      q, Op::kReadImage, CL_COMMAND_READ_IMAGE, num_wait, wait, event, blocking,
      [&](Writer &w) {
        if (cl_int err = host_access_error(image, true); err != CL_SUCCESS) return err;
        if (!ok) return cluster::refuse(CL_INVALID_VALUE, "ptr is NULL, or origin or region is NULL or the region empty");
        w.put(image->id);
        write(w, Box{size3(origin), size3(region)});
        return CL_SUCCESS;
      },
      {.deliver = unpacks_rows(h, bytes, ptr)});
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q_handle, cl_mem src_handle, cl_mem dst_handle,
                                      const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region, cl_uint num_wait,
                                      const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *src = remote(src_handle);
  auto *dst = remote(dst_handle);
  if (live(q, ObjectKind::kQueue) && (!is_image(src, q) || !is_image(dst, q))) return cluster::refuse(CL_INVALID_MEM_OBJECT, "the source or destination is not a live image of command_queue's node");
  return enqueue(q, Op::kCopyImage, CL_COMMAND_COPY_IMAGE, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = format_mismatch_error(src, dst); err != CL_SUCCESS) return err;
    if (!src_origin || !valid_region(dst_origin, region)) return cluster::refuse(CL_INVALID_VALUE, "an origin or region is NULL, or the region empty");
    w.put(src->id).put(dst->id);
    write(w, BoxCopy{size3(src_origin), size3(dst_origin), size3(region)});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q_handle, cl_mem image_handle, const void *color,
                                      const size_t *origin,
                                      const size_t *region, cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *image = remote(image_handle);
  if (live(q, ObjectKind::kQueue) && !is_image(image, q)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "image is not a live image of command_queue's node");
  return enqueue(q, Op::kFillImage, CL_COMMAND_FILL_IMAGE, num_wait, wait, event, false, [&](Writer &w) {
    if (!color || !valid_region(origin, region)) return cluster::refuse(CL_INVALID_VALUE, "fill_color is NULL, or origin or region is NULL or the region empty");
    w.put(image->id).bytes(color, 16);  // four 32-bit channels at most
    write(w, Box{size3(origin), size3(region)});
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q_handle, cl_mem image_handle, cl_mem buffer_handle,
                                              const size_t *origin,
                                              const size_t *region, size_t offset, cl_uint num_wait,
                                              const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *image = remote(image_handle);
  auto *buffer = remote(buffer_handle);
  if (live(q, ObjectKind::kQueue) && (!is_image(image, q) || !ours(buffer, q))) return cluster::refuse(CL_INVALID_MEM_OBJECT, "the image or the buffer is not a live one of command_queue's node");
  return enqueue(q, Op::kCopyImageToBuffer, CL_COMMAND_COPY_IMAGE_TO_BUFFER, num_wait, wait, event, false,
                 [&](Writer &w) {
                   if (!valid_region(origin, region)) return cluster::refuse(CL_INVALID_VALUE, "origin or region is NULL, or the region empty");
                   w.put(image->id).put(buffer->id);
                   write(w, Box{size3(origin), size3(region)});
                   w.put(uint64_t{offset});
                   return CL_SUCCESS;
                 });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q_handle, cl_mem buffer_handle, cl_mem image_handle,
                                              size_t offset,
                                              const size_t *origin, const size_t *region, cl_uint num_wait,
                                              const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
  auto *image = remote(image_handle);
  if (live(q, ObjectKind::kQueue) && (!is_image(image, q) || !ours(buffer, q))) return cluster::refuse(CL_INVALID_MEM_OBJECT, "the image or the buffer is not a live one of command_queue's node");
  return enqueue(q, Op::kCopyBufferToImage, CL_COMMAND_COPY_BUFFER_TO_IMAGE, num_wait, wait, event, false,
                 [&](Writer &w) {
                   if (!valid_region(origin, region)) return cluster::refuse(CL_INVALID_VALUE, "origin or region is NULL, or the region empty");
                   w.put(buffer->id).put(image->id).put(uint64_t{offset});
                   write(w, Box{size3(origin), size3(region)});
                   return CL_SUCCESS;
                 });
}
cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q_handle, cl_uint num_objects, const cl_mem *objects,
                                              cl_mem_migration_flags flags, cl_uint num_wait, const cl_event *wait,
                                              cl_event *event) {
  auto *q = remote(q_handle);
  if (!live(q, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  if (!num_objects || !objects) return cluster::refuse(CL_INVALID_VALUE, "no memory objects (num_mem_objects is 0 or mem_objects NULL)");
  if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return cluster::refuse(CL_INVALID_VALUE, "flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)");
  for (cl_uint i = 0; i < num_objects; ++i)
    if (!ours(remote(objects[i]), q)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "a memory object of the list is not a live one of command_queue's node");
  // The node's memory is the device's: there is nothing to move, only an order.
  return enqueue(q, Op::kMarker, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_wait, wait, event, false,
                 [](Writer &) { return CL_SUCCESS; });
}

}  // namespace unicl::api
