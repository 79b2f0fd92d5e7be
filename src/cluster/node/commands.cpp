// The node's commands: each names its queue, the events it waits for, its
// own event (rank 0's ids) and its objects; the node enqueues it on its
// vendor and reports its end (reports.cpp). A command that cannot be
// enqueued (an object whose creation failed here, an event it waits for
// that failed, a vendor's refusal) ends at once, failed with the error: rank
// 0 returned from its enqueue long ago, and learns it from the event.
#include <algorithm>

#include "backend/vendor_callback.hpp"
#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {

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

namespace {

// An event of another of this node's contexts in a command's wait list:
// rank 0 lists one of this node's devices' commands in another's
// (_cl_context::events_reach) so that the wait costs it no round trip.
// A vendor takes only its context's events: a user event of `context`
// stands in, set as `other` ends (kept by `held` until the command that
// lists it was enqueued). Null when there is nothing to wait for.
cl_event stand_in(cl_event other, cl_context context, std::vector<VendorRef<cl_event>> &held, cl_int &err) {
  const cl_int status = vendor_value<cl_int>(other, CL_EVENT_COMMAND_EXECUTION_STATUS, CL_QUEUED);
  if (status == CL_COMPLETE) return nullptr;
  if (status < 0) {
    err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return nullptr;
  }
  cl_int made = CL_SUCCESS;
  VendorRef<cl_event> gate = vendor_user_event(context, made);
  if (made != CL_SUCCESS) {
    err = made;
    return nullptr;
  }
  held.push_back(gate);
  const cl_int set = set_vendor_event_callback(other, CL_COMPLETE, [gate](cl_event, cl_int ended) {
    vendor_set_user_event_status(gate.get(), ended < 0 ? ended : CL_COMPLETE);
  });
  if (set != CL_SUCCESS) err = set;
  // Some vendors (oclgrind) never call a callback registered after the
  // status was reached: an end meanwhile is passed on here (a user event's
  // status is set once; the callback's second setting is refused).
  if (const cl_int now = vendor_value<cl_int>(other, CL_EVENT_COMMAND_EXECUTION_STATUS, CL_QUEUED); now <= CL_COMPLETE)
    vendor_set_user_event_status(gate.get(), now < 0 ? now : CL_COMPLETE);
  return gate.get();
}

}  // namespace

std::vector<cl_event> NodeServer::wait_list(const std::vector<uint64_t> &ids, cl_command_queue queue,
                                            std::vector<VendorRef<cl_event>> &held, cl_int &err) const {
  std::vector<cl_event> out;
  cl_context context = nullptr;  // the queue's, asked for once one is needed
  for (uint64_t id : ids) {
    if (auto it = objects_.events.find(id); it != objects_.events.end()) {
      cl_event e = it->second.get();
      if (queue && !context) context = vendor_value<cl_context>(queue, CL_QUEUE_CONTEXT);
      if (context && vendor_value<cl_context>(e, CL_EVENT_CONTEXT) != context) e = stand_in(e, context, held, err);
      if (e) out.push_back(e);
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
  const auto [id, status] = read_message<WriteBytes>(args);
  const Payload p = read_payload(args);
  auto it = held_writes_.find(id);
  // A write refused here still gets its bytes: taken off the wire, dropped.
  std::vector<char> dropped;
  const bool fits = it != held_writes_.end() && it->second.bytes->size() == p.size;
  char *into = fits ? it->second.bytes->data() : (dropped.resize(p.size), dropped.data());
  receive_payload(p, into);
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
  receive_payload(p, bytes->data());  // taken off the wire whatever follows
  if (err != CL_SUCCESS) return on;
  if (p.size != packed) {
    err = CL_INVALID_VALUE;
    return on;
  }
  return p.later ? hold_for_bytes(on, id, bytes, list, err) : on;
}

void NodeServer::command(Op op, Reader &args) {
  const CommandHeader h = read_command_header(args);
  Enqueue c{h};
  c.queue = objects_.find(objects_.queues, h.queue, c.err, CL_INVALID_COMMAND_QUEUE);
  cl_int waited = CL_SUCCESS;
  c.wait = wait_list(h.wait, c.queue, c.stand_ins, waited);
  if (c.err == CL_SUCCESS) c.err = waited;
  if (op == Op::kPeerReceive) {
    if (cl_int e = peer_receive(h, c.queue, c.wait, c.err, args); e != CL_SUCCESS) report_failed_enqueue(h, e);
    return;
  }
  if (op == Op::kPeerSend) return peer_send(c.queue, c.wait, h.event, c.err, args);
  // Event 0: a command rank 0 does not follow (a launch, a copy, a fill, a
  // marker nobody can name): enqueued without an event, never reported.
  c.on = {c.queue, static_cast<cl_uint>(c.wait.size()), c.wait.empty() ? nullptr : c.wait.data(),
          h.event != 0 ? &c.event : nullptr};
  c.watch.queue = h.queue;
  c.watch.prompt = h.flags & kPrompt;
  switch (op) {
    case Op::kWriteBuffer: enqueue_write_buffer(c, args); break;
    case Op::kReadBuffer: enqueue_read_buffer(c, args); break;
    case Op::kCopyBuffer: enqueue_copy_buffer(c, args); break;
    case Op::kFillBuffer: enqueue_fill_buffer(c, args); break;
    case Op::kNDRange: enqueue_ndrange(c, args); break;
    case Op::kWriteBufferRect: enqueue_write_buffer_rect(c, args); break;
    case Op::kReadBufferRect: enqueue_read_buffer_rect(c, args); break;
    case Op::kCopyBufferRect: enqueue_copy_buffer_rect(c, args); break;
    case Op::kWriteImage: enqueue_write_image(c, args); break;
    case Op::kReadImage: enqueue_read_image(c, args); break;
    case Op::kCopyImage: enqueue_copy_image(c, args); break;
    case Op::kFillImage: enqueue_fill_image(c, args); break;
    case Op::kCopyImageToBuffer: enqueue_copy_image_to_buffer(c, args); break;
    case Op::kCopyBufferToImage: enqueue_copy_buffer_to_image(c, args); break;
    case Op::kMarker:
      c.all_before = c.wait.empty();  // the vendor's marker then waits for every command before it
      if (c.err == CL_SUCCESS) c.err = vendor_enqueue::MarkerWithWaitList(c.on);
      break;
    case Op::kBarrier:
      c.all_before = c.wait.empty(), c.barrier = true;
      if (c.err == CL_SUCCESS) c.err = vendor_enqueue::BarrierWithWaitList(c.on);
      break;
    default: c.err = CL_INVALID_OPERATION; break;
  }
  finish_enqueue(c);
}

void NodeServer::finish_enqueue(Enqueue &c) {
  const CommandHeader &h = c.header;
  if (h.event == 0) {
    if (c.err != CL_SUCCESS) return;
    enqueued(c.queue, nullptr);
    // Of the commands nobody names, only a barrier changes what later ones
    // follow (queue_order.hpp): a stream of launches skips this.
    if (c.barrier) predecessors(h, c.queue, c.all_before, c.barrier);
    return;
  }
  if (c.err != CL_SUCCESS) {
    // A write held for its bytes that could not be enqueued: they are
    // dropped when they come.
    if (auto held = held_writes_.find(h.event); held != held_writes_.end()) {
      vendor_set_user_event_status(held->second.gate.get(), c.err);
      held_writes_.erase(held);
    }
    report_failed_enqueue(h, c.err);
    return;
  }
  objects_.events[h.event] = VendorRef<cl_event>::adopt(c.event);
  enqueued(c.queue, c.event);
  // A write's time, which rank 0 learns its link to this device from,
  // counts its bytes' whole trip (watch.before_ns): the device's clock may
  // not show it (a simulated device's writes follow each other on its own
  // clock). Where parts are written while the next ones travel, the overlap
  // counts twice: the link is taken a little slower than it is, not many
  // times faster.
  c.watch.follows = predecessors(h, c.queue, c.all_before, c.barrier);
  arriving_for(h.event, report_when_done(h.event, c.event, std::move(c.watch)));
}

}  // namespace unicl::cluster
