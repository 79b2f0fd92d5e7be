// The node's commands: each names its queue, the events it waits for, its
// own event (rank 0's ids) and its objects; the node enqueues it on its
// vendor and reports its end (reports.cpp). A command that cannot be
// enqueued (an object whose creation failed here, an event it waits for
// that failed, a vendor's refusal) ends at once, failed with the error: rank
// 0 returned from its enqueue long ago, and learns it from the event.
#include <algorithm>

#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {
namespace {

// Three sizes (an origin, a region) off the wire.
void get3(Reader &args, size_t (&v)[3]) {
  for (auto &x : v) x = args.get<uint64_t>();
}


}  // namespace

cl_int join_parts(cl_command_queue queue, std::vector<cl_event> &parts, cl_event *event) {
  if (parts.size() == 1) {
    *event = parts.front();  // the caller's to keep
    parts.clear();
    return CL_SUCCESS;
  }
  cl_int err = vendor_enqueue::MarkerWithWaitList(
      {queue, static_cast<cl_uint>(parts.size()), parts.empty() ? nullptr : parts.data(), event});
  for (cl_event p : parts) VendorRef<cl_event>::adopt(p);  // the marker keeps what it needs
  parts.clear();
  return err;
}

std::vector<cl_event> NodeServer::wait_list(const std::vector<uint64_t> &ids, cl_int &err) const {
  std::vector<cl_event> out;
  for (uint64_t id : ids) {
    if (auto it = objects_.events.find(id); it != objects_.events.end()) {
      out.push_back(it->second.get());
      continue;
    }
    cl_int failed = CL_SUCCESS;
    if (objects_.failed(id, failed)) err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    // Otherwise it ended well and was reported: nothing to wait for.
  }
  return out;
}

cl_int NodeServer::set_args(cl_kernel kernel, const std::vector<std::pair<cl_uint, KernelArg>> &args) {
  for (auto &[index, a] : args) {
    cl_int err = CL_SUCCESS;
    switch (a.kind) {
      case ArgKind::kBytes: err = vendor_set_arg(kernel, index, a.bytes.size(), a.bytes.data()); break;
      case ArgKind::kMemory: {
        cl_mem m = objects_.find(objects_.memory, a.id, err, CL_INVALID_MEM_OBJECT);
        if (m) err = vendor_set_arg(kernel, index, sizeof m, &m);
        break;
      }
      case ArgKind::kNullMemory: {
        cl_mem none = nullptr;
        err = vendor_set_arg(kernel, index, sizeof none, &none);
        break;
      }
      case ArgKind::kLocal: err = vendor_set_arg(kernel, index, a.size, nullptr); break;
      case ArgKind::kSampler: {
        cl_sampler s = objects_.find(objects_.samplers, a.id, err, CL_INVALID_SAMPLER);
        if (s) err = vendor_set_arg(kernel, index, sizeof s, &s);
        break;
      }
    }
    if (err != CL_SUCCESS) return err;
  }
  return CL_SUCCESS;
}

void NodeServer::report_failed_enqueue(const CommandHeader &h, cl_int err) {
  objects_.fail(h.event, err);
  std::lock_guard lock(reports_mutex_);
  Report r;
  r.ended.id = h.event;
  r.ended.status = err;
  r.prompt = true;  // a failure is news nobody should wait for
  r.at = std::chrono::steady_clock::now();
  ends_.push_back(std::move(r));
}

VendorEnqueue NodeServer::hold_for_bytes(const VendorEnqueue &on, uint64_t id, std::shared_ptr<std::vector<char>> bytes,
                                         std::vector<cl_event> &list, cl_int &err) {
  auto gate = vendor_user_event(vendor_value<cl_context>(on.queue, CL_QUEUE_CONTEXT), err);
  if (err != CL_SUCCESS) return on;
  list.assign(on.wait, on.wait + on.num_wait);
  list.push_back(gate.get());
  held_writes_[id] = {std::move(gate), std::move(bytes)};
  return {on.queue, static_cast<cl_uint>(list.size()), list.data(), on.event};
}

void NodeServer::write_bytes(Reader &args) {
  const auto id = args.get<uint64_t>();
  const auto status = args.get<cl_int>();
  const Payload p = read_payload(args);
  auto it = held_writes_.find(id);
  // A write refused here still gets its bytes: taken off the wire, dropped.
  std::vector<char> dropped;
  const bool fits = it != held_writes_.end() && it->second.bytes->size() == p.size;
  char *into = fits ? it->second.bytes->data() : (dropped.resize(p.size), dropped.data());
  uint64_t trip_ns = 0;
  receive_payload(p, into, trip_ns);
  if (it == held_writes_.end()) return;
  const HeldWrite &w = it->second;
  if (fits && status >= 0 && w.whole && staged_bytes_.changes(w.whole) == w.changes) staged_bytes_.keep(w.whole, w.bytes);
  vendor_set_user_event_status(w.gate.get(), status < 0 ? status : fits ? CL_COMPLETE : CL_INVALID_VALUE);
  held_writes_.erase(it);
}

VendorEnqueue NodeServer::packed_write(const VendorEnqueue &on, uint64_t id, Reader &args, size_t packed,
                                       std::shared_ptr<std::vector<char>> &bytes, std::vector<cl_event> &list,
                                       cl_int &err) {
  const Payload p = read_payload(args);
  bytes = std::make_shared<std::vector<char>>(p.size);
  uint64_t trip_ns = 0;
  receive_payload(p, bytes->data(), trip_ns);  // taken off the wire whatever follows
  if (err != CL_SUCCESS) return on;
  if (p.size != packed) {
    err = CL_INVALID_VALUE;
    return on;
  }
  return p.later ? hold_for_bytes(on, id, bytes, list, err) : on;
}

cl_int NodeServer::write_in_parts(const VendorEnqueue &on, cl_mem buffer, size_t offset, const Payload &p,
                                  std::vector<char> &bytes, cl_int refuse, uint64_t &trip_ns) {
  // The bytes follow the request in parts (kChunk), straight into the
  // staging copy; each part goes on to the device while the next travels.
  // Every part is taken off the wire, even once the command is refused.
  cl_int err = refuse;
  std::vector<cl_event> parts;
  receive_payload(p, bytes.data(), trip_ns, [&](size_t at, size_t n) {
    if (err != CL_SUCCESS) return;
    cl_event part = nullptr;
    err = vendor_enqueue::WriteBuffer({on.queue, on.num_wait, on.wait, &part}, buffer, cl_bool(CL_FALSE),
                                      offset + at, n, static_cast<const void *>(bytes.data() + at));
    if (err == CL_SUCCESS) parts.push_back(part);
  });
  if (err == CL_SUCCESS && p.size == 0) return CL_INVALID_VALUE;
  if (err == CL_SUCCESS) return join_parts(on.queue, parts, on.event);
  for (cl_event part : parts) VendorRef<cl_event>::adopt(part);  // released at once
  return err;
}

void NodeServer::command(Op op, Reader &args) {
  const CommandHeader h = read_command_header(args);
  // Whatever fails below fails the command, but a command whose bytes follow
  // still takes them off the wire.
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = objects_.find(objects_.queues, h.queue, err, CL_INVALID_COMMAND_QUEUE);
  cl_int waited = CL_SUCCESS;
  std::vector<cl_event> wait = wait_list(h.wait, waited);
  if (err == CL_SUCCESS) err = waited;
  auto memory = [&](uint64_t id) {
    cl_int e = CL_SUCCESS;
    cl_mem m = objects_.find(objects_.memory, id, e, CL_INVALID_MEM_OBJECT);
    if (err == CL_SUCCESS) err = e;
    return m;
  };
  if (op == Op::kPeerReceive) {
    if (cl_int e = peer_receive(h, queue, wait, err, args); e != CL_SUCCESS) report_failed_enqueue(h, e);
    return;
  }
  if (op == Op::kPeerSend) {
    peer_send(queue, wait, h.event, err, args);
    return;
  }
  // Event 0: a command rank 0 does not follow (a launch, a copy, a fill, a
  // marker nobody can name): enqueued without an event, never reported.
  cl_event event = nullptr;
  const bool followed = h.event != 0;
  const VendorEnqueue on{queue, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(),
                         followed ? &event : nullptr};
  Watch watch;
  watch.queue = h.queue;
  watch.prompt = h.flags & kPrompt;
  switch (op) {
    case Op::kWriteBuffer: {
      cl_mem buffer = memory(args.get<uint64_t>());
      auto offset = args.get<uint64_t>();
      const Payload p = read_payload(args);
      if (buffer) staged_bytes_.forget(buffer);
      if (p.later) {
        watch.keep_alive = staging(p.size);
        std::vector<cl_event> list;
        if (err == CL_SUCCESS) {
          const VendorEnqueue held = hold_for_bytes(on, h.event, watch.keep_alive, list, err);
          if (err == CL_SUCCESS)
            err = vendor_enqueue::WriteBuffer(held, buffer, cl_bool(CL_FALSE), size_t(offset), p.size,
                                              static_cast<const void *>(watch.keep_alive->data()));
          if (err == CL_SUCCESS && offset == 0) {
            HeldWrite &w = held_writes_[h.event];
            w.whole = buffer, w.changes = staged_bytes_.changes(buffer);
          }
        }
        break;
      }
      if (err == CL_SUCCESS && maps_at_once(queue, wait, p.size) && !p.inline_bytes)
        if (auto status = write_mapped(queue, buffer, offset, p, &event, watch.before_ns)) {
          err = *status;
          break;
        }
      watch.keep_alive = staging(p.size);
      err = write_in_parts(on, buffer, offset, p, *watch.keep_alive, err, watch.before_ns);
      // All of a buffer, staged: its bytes may serve later copies from it.
      if (err == CL_SUCCESS && offset == 0) staged_bytes_.keep(buffer, watch.keep_alive);
      break;
    }
    case Op::kReadBuffer: {
      cl_mem buffer = memory(args.get<uint64_t>());
      auto offset = args.get<uint64_t>();
      const size_t size = args.get<uint64_t>();
      if (err != CL_SUCCESS) break;
      if ((watch.mapped = read_mapped(on, buffer, offset, size))) break;
      watch.read = staging(size);
      err = vendor_enqueue::ReadBuffer(on, buffer, cl_bool(CL_FALSE), size_t(offset), watch.read->size(),
                                       static_cast<void *>(watch.read->data()));
      break;
    }
    case Op::kCopyBuffer: {
      cl_mem src = memory(args.get<uint64_t>()), dst = memory(args.get<uint64_t>());
      size_t so = args.get<uint64_t>(), dof = args.get<uint64_t>(), size = args.get<uint64_t>();
      if (err != CL_SUCCESS) break;
      staged_bytes_.forget(dst);
      err = vendor_enqueue::CopyBuffer(on, src, dst, so, dof, size);
      break;
    }
    case Op::kFillBuffer: {
      cl_mem buffer = memory(args.get<uint64_t>());
      watch.keep_alive = std::make_shared<std::vector<char>>(args.bytes());
      size_t offset = args.get<uint64_t>(), size = args.get<uint64_t>();
      if (err != CL_SUCCESS) break;
      staged_bytes_.forget(buffer);
      err = vendor_enqueue::FillBuffer(on, buffer, static_cast<const void *>(watch.keep_alive->data()),
                                       watch.keep_alive->size(), offset, size);
      break;
    }
    case Op::kNDRange: {
      cl_int e = CL_SUCCESS;
      cl_kernel kernel = objects_.find(objects_.kernels, args.get<uint64_t>(), e, CL_INVALID_KERNEL);
      if (err == CL_SUCCESS) err = e;
      const auto changed = read_args(args);
      auto dims = args.get<cl_uint>();
      size_t offset[3], global[3], local[3];
      get3(args, offset);
      get3(args, global);
      get3(args, local);
      bool has_offset = args.get<uint8_t>(), has_local = args.get<uint8_t>();
      if (kernel && err == CL_SUCCESS) err = set_args(kernel, changed);
      if (err != CL_SUCCESS) break;
      err = vendor_enqueue::NDRangeKernel(on, kernel, dims, static_cast<const size_t *>(has_offset ? offset : nullptr),
                                          static_cast<const size_t *>(global),
                                          static_cast<const size_t *>(has_local ? local : nullptr));
      break;
    }
    case Op::kWriteBufferRect:
    case Op::kReadBufferRect: {
      cl_mem buffer = memory(args.get<uint64_t>());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      size_t row = args.get<uint64_t>(), slice = args.get<uint64_t>();
      const size_t host_origin[3] = {0, 0, 0};
      const size_t packed = region[0] * region[1] * region[2];
      if (op == Op::kWriteBufferRect) {
        if (buffer) staged_bytes_.forget(buffer);
        std::vector<cl_event> list;
        const VendorEnqueue held = packed_write(on, h.event, args, packed, watch.keep_alive, list, err);
        if (err != CL_SUCCESS) break;
        err = vendor_enqueue::WriteBufferRect(held, buffer, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                              host_origin, static_cast<const size_t *>(region), row, slice, region[0],
                                              region[0] * region[1], static_cast<const void *>(watch.keep_alive->data()));
      } else {
        if (err != CL_SUCCESS) break;
        watch.read = std::make_shared<std::vector<char>>(packed);
        err = vendor_enqueue::ReadBufferRect(on, buffer, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                             host_origin, static_cast<const size_t *>(region), row, slice, region[0],
                                             region[0] * region[1], static_cast<void *>(watch.read->data()));
      }
      break;
    }
    case Op::kCopyBufferRect: {
      cl_mem src = memory(args.get<uint64_t>()), dst = memory(args.get<uint64_t>());
      size_t src_origin[3], dst_origin[3], region[3];
      get3(args, src_origin);
      get3(args, dst_origin);
      get3(args, region);
      size_t srp = args.get<uint64_t>(), ssp = args.get<uint64_t>(), drp = args.get<uint64_t>(),
             dsp = args.get<uint64_t>();
      if (err != CL_SUCCESS) break;
      staged_bytes_.forget(dst);
      err = vendor_enqueue::CopyBufferRect(on, src, dst, static_cast<const size_t *>(src_origin),
                                           static_cast<const size_t *>(dst_origin),
                                           static_cast<const size_t *>(region), srp, ssp, drp, dsp);
      break;
    }
    case Op::kWriteImage:
    case Op::kReadImage: {
      cl_mem image = memory(args.get<uint64_t>());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      size_t element = 0;
      if (image) vendor_image_info(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr);
      const size_t packed = element * region[0] * region[1] * region[2];
      if (op == Op::kWriteImage) {
        std::vector<cl_event> list;
        const VendorEnqueue held = packed_write(on, h.event, args, packed, watch.keep_alive, list, err);
        if (err != CL_SUCCESS) break;
        err = vendor_enqueue::WriteImage(held, image, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                         static_cast<const size_t *>(region), size_t{0}, size_t{0},
                                         static_cast<const void *>(watch.keep_alive->data()));
      } else {
        if (err != CL_SUCCESS) break;
        watch.read = std::make_shared<std::vector<char>>(packed);
        err = vendor_enqueue::ReadImage(on, image, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                        static_cast<const size_t *>(region), size_t{0}, size_t{0},
                                        static_cast<void *>(watch.read->data()));
      }
      break;
    }
    case Op::kCopyImage: {
      cl_mem src = memory(args.get<uint64_t>()), dst = memory(args.get<uint64_t>());
      size_t src_origin[3], dst_origin[3], region[3];
      get3(args, src_origin);
      get3(args, dst_origin);
      get3(args, region);
      if (err != CL_SUCCESS) break;
      err = vendor_enqueue::CopyImage(on, src, dst, static_cast<const size_t *>(src_origin),
                                      static_cast<const size_t *>(dst_origin), static_cast<const size_t *>(region));
      break;
    }
    case Op::kFillImage: {
      cl_mem image = memory(args.get<uint64_t>());
      watch.keep_alive = std::make_shared<std::vector<char>>(args.bytes());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      if (err != CL_SUCCESS) break;
      err = vendor_enqueue::FillImage(on, image, static_cast<const void *>(watch.keep_alive->data()),
                                      static_cast<const size_t *>(origin), static_cast<const size_t *>(region));
      break;
    }
    case Op::kCopyImageToBuffer: {
      cl_mem image = memory(args.get<uint64_t>()), buffer = memory(args.get<uint64_t>());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      size_t offset = args.get<uint64_t>();
      if (err != CL_SUCCESS) break;
      staged_bytes_.forget(buffer);
      err = vendor_enqueue::CopyImageToBuffer(on, image, buffer, static_cast<const size_t *>(origin),
                                              static_cast<const size_t *>(region), offset);
      break;
    }
    case Op::kCopyBufferToImage: {
      cl_mem buffer = memory(args.get<uint64_t>()), image = memory(args.get<uint64_t>());
      size_t offset = args.get<uint64_t>();
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      if (err != CL_SUCCESS) break;
      err = vendor_enqueue::CopyBufferToImage(on, buffer, image, offset, static_cast<const size_t *>(origin),
                                              static_cast<const size_t *>(region));
      break;
    }
    case Op::kMarker:
      if (err == CL_SUCCESS) err = vendor_enqueue::MarkerWithWaitList(on);
      break;
    case Op::kBarrier:
      if (err == CL_SUCCESS) err = vendor_enqueue::BarrierWithWaitList(on);
      break;
    default: err = CL_INVALID_OPERATION; break;
  }
  if (!followed) {
    if (err == CL_SUCCESS) enqueued(queue, nullptr);
    return;
  }
  if (err != CL_SUCCESS) {
    // A write held for its bytes that could not be enqueued: they are
    // dropped when they come.
    if (auto held = held_writes_.find(h.event); held != held_writes_.end()) {
      vendor_set_user_event_status(held->second.gate.get(), err);
      held_writes_.erase(held);
    }
    report_failed_enqueue(h, err);
    return;
  }
  objects_.events[h.event] = VendorRef<cl_event>::adopt(event);
  enqueued(queue, event);
  // A write's time, which rank 0 learns its link to this device from,
  // counts its bytes' whole trip (watch.before_ns): the device's clock may
  // not show it (a simulated device's writes follow each other on its own
  // clock). Where parts are written while the next ones travel, the overlap
  // counts twice: the link is taken a little slower than it is, not many
  // times faster.
  report_when_done(h.event, event, std::move(watch));
}

}  // namespace unicl::cluster
