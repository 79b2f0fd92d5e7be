// Each command's enqueue on this node, one handler per message: its
// arguments off the wire (in the order client/enqueue.cpp and
// client/launch.cpp write them), then its vendor call with `c.on`. A handler
// that fails sets c.err and still reads every argument, so that bytes
// following the request are taken off the wire; NodeServer::command then
// reports the end (finish_enqueue).
#include <cstring>

#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {
namespace {

// The host side of a buffer rectangle: packed from its start.
constexpr size_t kPackedOrigin[3] = {0, 0, 0};

}  // namespace

cl_mem NodeServer::memory_of(Enqueue &c, uint64_t id) {
  cl_int e = CL_SUCCESS;
  cl_mem m = objects_.find(objects_.memory, id, e, CL_INVALID_MEM_OBJECT);
  if (c.err == CL_SUCCESS) c.err = e;
  return m;
}

void NodeServer::enqueue_write_buffer(Enqueue &c, Reader &args) {
  const auto [buffer_id, offset] = read_message<BufferWrite>(args);
  cl_mem buffer = memory_of(c, buffer_id);
  const Payload p = read_payload(args);
  if (buffer) staged_bytes_.forget(buffer);
  if (p.later) {
    c.watch.keep_alive = staging(p.size);
    std::vector<cl_event> list;
    if (c.err != CL_SUCCESS) return;
    const VendorEnqueue held = hold_for_bytes(c.on, c.header.event, c.watch.keep_alive, list, c.err);
    if (c.err == CL_SUCCESS)
      c.err = vendor_enqueue::WriteBuffer(held, buffer, cl_bool(CL_FALSE), size_t(offset), p.size,
                                          static_cast<const void *>(c.watch.keep_alive->data()));
    if (c.err == CL_SUCCESS && offset == 0) {
      HeldWrite &w = held_writes_[c.header.event];
      w.whole = buffer, w.changes = staged_bytes_.changes(buffer);
    }
    return;
  }
  if (c.err == CL_SUCCESS && maps_at_once(c.queue, c.header.queue, c.wait, p.size) && !p.inline_bytes)
    if (auto status = write_mapped(c.queue, buffer, offset, p, &c.event, c.watch.before_ns)) {
      c.err = *status;
      return;
    }
  c.watch.keep_alive = staging(p.size);
  if (!p.inline_bytes) {
    c.err = write_arriving(c.on, buffer, offset, p.size, c.watch.keep_alive, c.err, c.header.event);
    return;
  }
  // Bytes inside the request: staged (the batch's message is let go once
  // served), then written.
  if (c.err != CL_SUCCESS) return;
  if (p.size == 0) {
    c.err = CL_INVALID_VALUE;
    return;
  }
  std::memcpy(c.watch.keep_alive->data(), p.inline_bytes, p.size);
  c.err = vendor_enqueue::WriteBuffer(c.on, buffer, cl_bool(CL_FALSE), size_t{offset}, p.size,
                                      static_cast<const void *>(c.watch.keep_alive->data()));
  // All of a buffer, staged: its bytes may serve later copies from it.
  if (c.err == CL_SUCCESS && offset == 0) staged_bytes_.keep(buffer, c.watch.keep_alive);
}

void NodeServer::enqueue_read_buffer(Enqueue &c, Reader &args) {
  cl_mem buffer = memory_of(c, args.get<uint64_t>());
  const ByteSpan span = read_message<ByteSpan>(args);
  if (c.err != CL_SUCCESS) return;
  if ((c.watch.mapped = read_mapped(c.on, buffer, span.offset, span.size))) return;
  c.watch.read = staging(span.size);
  c.err = vendor_enqueue::ReadBuffer(c.on, buffer, cl_bool(CL_FALSE), size_t{span.offset}, c.watch.read->size(),
                                     static_cast<void *>(c.watch.read->data()));
}

void NodeServer::enqueue_copy_buffer(Enqueue &c, Reader &args) {
  cl_mem src = memory_of(c, args.get<uint64_t>()), dst = memory_of(c, args.get<uint64_t>());
  const SpanCopy copy = read_message<SpanCopy>(args);
  if (c.err != CL_SUCCESS) return;
  staged_bytes_.forget(dst);
  c.err = vendor_enqueue::CopyBuffer(c.on, src, dst, size_t{copy.src_offset}, size_t{copy.dst_offset},
                                     size_t{copy.size});
}

void NodeServer::enqueue_fill_buffer(Enqueue &c, Reader &args) {
  cl_mem buffer = memory_of(c, args.get<uint64_t>());
  c.watch.keep_alive = std::make_shared<std::vector<char>>(args.bytes());
  const ByteSpan span = read_message<ByteSpan>(args);
  if (c.err != CL_SUCCESS) return;
  staged_bytes_.forget(buffer);
  c.err = vendor_enqueue::FillBuffer(c.on, buffer, static_cast<const void *>(c.watch.keep_alive->data()),
                                     c.watch.keep_alive->size(), size_t{span.offset}, size_t{span.size});
}

void NodeServer::enqueue_ndrange(Enqueue &c, Reader &args) {
  cl_int e = CL_SUCCESS;
  cl_kernel kernel = objects_.find(objects_.kernels, args.get<uint64_t>(), e, CL_INVALID_KERNEL);
  if (c.err == CL_SUCCESS) c.err = e;
  const auto changed = read_args(args);
  const LaunchShape shape = read_launch_shape(args);
  if (kernel && c.err == CL_SUCCESS) c.err = set_args(kernel, changed);
  if (c.err != CL_SUCCESS) return;
  size_t offset[3], global[3], local[3];
  for (int i = 0; i < 3; ++i) offset[i] = shape.offset[i], global[i] = shape.global[i], local[i] = shape.local[i];
  c.err = vendor_enqueue::NDRangeKernel(c.on, kernel, shape.dims,
                                        static_cast<const size_t *>(shape.has_offset ? offset : nullptr),
                                        static_cast<const size_t *>(global),
                                        static_cast<const size_t *>(shape.has_local ? local : nullptr));
}

void NodeServer::enqueue_write_buffer_rect(Enqueue &c, Reader &args) {
  cl_mem buffer = memory_of(c, args.get<uint64_t>());
  const BufferRect r = read_message<BufferRect>(args);
  if (buffer) staged_bytes_.forget(buffer);
  std::vector<cl_event> list;
  const VendorEnqueue held =
      packed_write(c.on, c.header.event, args, r.box.volume(), c.watch.keep_alive, list, c.err);
  if (c.err != CL_SUCCESS) return;
  const Size3 &region = r.box.region;
  c.err = vendor_enqueue::WriteBufferRect(held, buffer, cl_bool(CL_FALSE), r.box.origin.data(), kPackedOrigin,
                                          region.data(), size_t{r.row_pitch}, size_t{r.slice_pitch}, region[0],
                                          region[0] * region[1], static_cast<const void *>(c.watch.keep_alive->data()));
}

void NodeServer::enqueue_read_buffer_rect(Enqueue &c, Reader &args) {
  cl_mem buffer = memory_of(c, args.get<uint64_t>());
  const BufferRect r = read_message<BufferRect>(args);
  if (c.err != CL_SUCCESS) return;
  c.watch.read = std::make_shared<std::vector<char>>(r.box.volume());
  const Size3 &region = r.box.region;
  c.err = vendor_enqueue::ReadBufferRect(c.on, buffer, cl_bool(CL_FALSE), r.box.origin.data(), kPackedOrigin,
                                         region.data(), size_t{r.row_pitch}, size_t{r.slice_pitch}, region[0],
                                         region[0] * region[1], static_cast<void *>(c.watch.read->data()));
}

void NodeServer::enqueue_copy_buffer_rect(Enqueue &c, Reader &args) {
  cl_mem src = memory_of(c, args.get<uint64_t>()), dst = memory_of(c, args.get<uint64_t>());
  const BufferRectCopy r = read_message<BufferRectCopy>(args);
  if (c.err != CL_SUCCESS) return;
  staged_bytes_.forget(dst);
  c.err = vendor_enqueue::CopyBufferRect(c.on, src, dst, r.boxes.src_origin.data(), r.boxes.dst_origin.data(),
                                         r.boxes.region.data(), size_t{r.src_row}, size_t{r.src_slice},
                                         size_t{r.dst_row}, size_t{r.dst_slice});
}

namespace {

// The packed bytes of an image's box.
size_t packed_image_bytes(cl_mem image, const Box &box) {
  size_t element = 0;
  if (image) vendor_image_info(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr);
  return element * box.volume();
}

}  // namespace

void NodeServer::enqueue_write_image(Enqueue &c, Reader &args) {
  cl_mem image = memory_of(c, args.get<uint64_t>());
  const Box box = read_message<Box>(args);
  std::vector<cl_event> list;
  const VendorEnqueue held =
      packed_write(c.on, c.header.event, args, packed_image_bytes(image, box), c.watch.keep_alive, list, c.err);
  if (c.err != CL_SUCCESS) return;
  c.err = vendor_enqueue::WriteImage(held, image, cl_bool(CL_FALSE), box.origin.data(), box.region.data(), size_t{0},
                                     size_t{0}, static_cast<const void *>(c.watch.keep_alive->data()));
}

void NodeServer::enqueue_read_image(Enqueue &c, Reader &args) {
  cl_mem image = memory_of(c, args.get<uint64_t>());
  const Box box = read_message<Box>(args);
  if (c.err != CL_SUCCESS) return;
  c.watch.read = std::make_shared<std::vector<char>>(packed_image_bytes(image, box));
  c.err = vendor_enqueue::ReadImage(c.on, image, cl_bool(CL_FALSE), box.origin.data(), box.region.data(), size_t{0},
                                    size_t{0}, static_cast<void *>(c.watch.read->data()));
}

void NodeServer::enqueue_copy_image(Enqueue &c, Reader &args) {
  cl_mem src = memory_of(c, args.get<uint64_t>()), dst = memory_of(c, args.get<uint64_t>());
  const BoxCopy r = read_message<BoxCopy>(args);
  if (c.err != CL_SUCCESS) return;
  c.err = vendor_enqueue::CopyImage(c.on, src, dst, r.src_origin.data(), r.dst_origin.data(), r.region.data());
}

void NodeServer::enqueue_fill_image(Enqueue &c, Reader &args) {
  cl_mem image = memory_of(c, args.get<uint64_t>());
  c.watch.keep_alive = std::make_shared<std::vector<char>>(args.bytes());
  const Box box = read_message<Box>(args);
  if (c.err != CL_SUCCESS) return;
  c.err = vendor_enqueue::FillImage(c.on, image, static_cast<const void *>(c.watch.keep_alive->data()),
                                    box.origin.data(), box.region.data());
}

void NodeServer::enqueue_copy_image_to_buffer(Enqueue &c, Reader &args) {
  cl_mem image = memory_of(c, args.get<uint64_t>()), buffer = memory_of(c, args.get<uint64_t>());
  const Box box = read_message<Box>(args);
  size_t offset = args.get<uint64_t>();
  if (c.err != CL_SUCCESS) return;
  staged_bytes_.forget(buffer);
  c.err = vendor_enqueue::CopyImageToBuffer(c.on, image, buffer, box.origin.data(), box.region.data(), offset);
}

void NodeServer::enqueue_copy_buffer_to_image(Enqueue &c, Reader &args) {
  cl_mem buffer = memory_of(c, args.get<uint64_t>()), image = memory_of(c, args.get<uint64_t>());
  size_t offset = args.get<uint64_t>();
  const Box box = read_message<Box>(args);
  if (c.err != CL_SUCCESS) return;
  c.err = vendor_enqueue::CopyBufferToImage(c.on, buffer, image, offset, box.origin.data(), box.region.data());
}

}  // namespace unicl::cluster
