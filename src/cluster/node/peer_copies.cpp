// Copies straight between two nodes (kPeerReceive on the receiver, kPeerSend
// on the sender; protocol/messages.hpp), or between two devices of this node.
//
// The receiver enqueues its write at once, each part (kChunk) held by a user
// event of its own (a gate) until that part's bytes are there. The sender
// reads each part once its wait list allows and sends it, with a PeerHeader,
// from the serving thread. Rank 0 posts both requests without waiting, the
// receiver's first, but the two nodes hear from different ranks: a part may
// reach the receiver before rank 0's request does, and is kept until then.
// A sender that cannot read sends each part's failure instead of its bytes.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "backend/vendor_status.hpp"
#include "cluster/node/server.hpp"
#include "cluster/protocol/steady_clock.hpp"

namespace unicl::cluster {
namespace {

size_t parts_of(size_t size) { return (size + kChunk - 1) / kChunk; }


}  // namespace

StagedBytes::Bytes NodeServer::copy_source(cl_mem buffer, size_t offset, size_t size) const {
  if (auto kept = staged_bytes_.find(buffer, offset, size)) return kept;
  auto serves = [&](const StagedBytes::Bytes &bytes, cl_mem whole, uint64_t changes) {
    return whole == buffer && changes == staged_bytes_.changes(buffer) && StagedBytes::holds(bytes, offset, size) &&
           staged_bytes_.may_keep(buffer, bytes->size());
  };
  for (const Arrival &a : arrivals_)
    if (a.last && serves(a.bytes, a.whole, a.changes)) return a.bytes;
  for (const auto &[id, w] : held_writes_)
    if (serves(w.bytes, w.whole, w.changes)) return w.bytes;
  return nullptr;
}

bool NodeServer::send_peer_parts() {
  std::deque<PeerReport> out;
  {
    std::lock_guard lock(reports_mutex_);
    out.swap(peer_parts_);
  }
  for (auto &r : out) {
    const PeerHeader &h = r.header;
    const char *from = r.bytes ? r.bytes->data() + r.bytes_offset : r.mapped ? r.mapped->data + r.bytes_offset : nullptr;
    if (r.peer_rank == rank_) {
      // A part of a copy within this node: read into its write's memory, or
      // in the source's staged copy.
      auto gate = peer_gates_.find(h.id);
      if (gate != peer_gates_.end() && h.status >= 0 && h.offset + h.bytes <= gate->second.size) {
        // Copied only when the receiving write takes them from elsewhere
        // (the mapped buffer).
        const PeerGate &g = gate->second;
        const char *bytes = from ? from : g.source ? g.source->data() + g.source_from + h.offset : nullptr;
        if (bytes && g.into + h.offset != bytes) std::memcpy(g.into + h.offset, bytes, h.bytes);
      }
      arrived_part(h, nullptr, 0, steady_ns());
      if (r.read_id) objects_.events.erase(r.read_id);
      continue;
    }
    PeerSend &p = peer_sends_.emplace_back(PeerSend{{}, 0, {}, std::move(r.bytes), r.read_id, std::move(r.mapped)});
    p.header.resize(sizeof h);
    std::memcpy(p.header.data(), &h, sizeof h);
    MPI_Isend(p.header.data(), static_cast<int>(p.header.size()), MPI_BYTE, r.peer_rank, kPeerTag, comm_,
              &p.requests[p.count++]);
    if (from && h.bytes)
      MPI_Isend(from, static_cast<int>(h.bytes), MPI_BYTE, r.peer_rank, kPeerDataTag, comm_, &p.requests[p.count++]);
  }
  return !out.empty();
}

void NodeServer::finish_peer_sends() {
  for (auto it = peer_sends_.begin(); it != peer_sends_.end();) {
    int done = 0;
    MPI_Testall(it->count, it->requests, &done, MPI_STATUSES_IGNORE);
    if (!done) {
      ++it;
      continue;
    }
    if (it->read_id) objects_.events.erase(it->read_id);
    it = peer_sends_.erase(it);
  }
}

void NodeServer::receive_peer_bytes(const MPI_Status &status) {
  PeerHeader h{};
  MPI_Recv(&h, sizeof h, MPI_BYTE, status.MPI_SOURCE, kPeerTag, comm_, MPI_STATUS_IGNORE);
  auto it = peer_gates_.find(h.id);
  const bool expected = it != peer_gates_.end() && h.offset + h.bytes <= it->second.size;
  // The bytes of a part not expected (yet): in staging memory, reused (a
  // fresh 4 MiB costs its page faults, milliseconds here).
  std::shared_ptr<std::vector<char>> elsewhere;
  uint64_t travel_ns = 0;
  if (h.bytes) {
    if (!expected) elsewhere = staging(h.bytes);
    char *into = expected ? it->second.into + h.offset : elsewhere->data();
    const auto start = std::chrono::steady_clock::now();
    MPI_Recv(into, static_cast<int>(h.bytes), MPI_BYTE, status.MPI_SOURCE, kPeerDataTag, comm_, MPI_STATUS_IGNORE);
    travel_ns = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  }
  if (it != peer_gates_.end()) {
    if (!expected) h.status = CL_INVALID_VALUE;
    arrived_part(h, nullptr, travel_ns, steady_ns());
    return;
  }
  if (auto refused = refused_copies_.find(h.id); refused != refused_copies_.end()) {
    // Its write was never enqueued: the part is dropped.
    if (--refused->second == 0) refused_copies_.erase(refused);
    return;
  }
  early_parts_[h.id].push_back({h, std::move(elsewhere), travel_ns, steady_ns()});
}

void NodeServer::arrived_part(PeerHeader h, const char *bytes, uint64_t travel_ns, uint64_t arrived_ns) {
  auto it = peer_gates_.find(h.id);
  if (it == peer_gates_.end()) return;
  if (bytes && h.status >= 0 && h.offset + h.bytes <= it->second.size)
    std::memcpy(it->second.into + h.offset, bytes, h.bytes);
  // The first part's read and trip come before any write: the copy's time.
  if (h.offset == 0 && it->second.write) it->second.write->began_ns = arrived_ns - travel_ns - h.read_ns;
  open_gate(h.id, h.offset / kChunk, h.status < 0 ? h.status : CL_COMPLETE);
}

void NodeServer::open_gate(uint64_t id, size_t part, cl_int status) {
  auto it = peer_gates_.find(id);
  if (it == peer_gates_.end()) return;
  PeerGate &g = it->second;
  for (size_t k = 0; k < g.gates.size(); ++k) {
    if ((part != static_cast<size_t>(-1) && k != part) || !g.gates[k]) continue;
    vendor_set_user_event_status(g.gates[k].get(), status);
    g.gates[k] = {};
    --g.closed;
  }
  if (g.closed == 0) peer_gates_.erase(it);
}

void NodeServer::refuse_copy(uint64_t id, size_t size) {
  size_t left = parts_of(size);
  if (auto early = early_parts_.find(id); early != early_parts_.end()) {
    left -= std::min(left, early->second.size());
    early_parts_.erase(early);
  }
  if (left) refused_copies_[id] = left;
}

cl_int NodeServer::peer_receive(const CommandHeader &h, cl_command_queue queue, const std::vector<cl_event> &wait,
                                cl_int err, Reader &args) {
  const uint64_t id = h.event;
  const PeerCopyIn copy = read_peer_copy_in(args);
  cl_mem buffer = objects_.find(objects_.memory, copy.buffer, err, CL_INVALID_MEM_OBJECT);
  const size_t offset = copy.offset, size = copy.size;
  PeerGate entry;
  entry.size = size;
  // A source on this node: its staged copy, if it has one, is where the bytes
  // come from.
  if (copy.source_here) {
    cl_int ignored = CL_SUCCESS;
    cl_mem source = objects_.find(objects_.memory, copy.source, ignored, CL_INVALID_MEM_OBJECT);
    entry.source_from = copy.source_offset;
    if (source) entry.source = copy_source(source, entry.source_from, size);
  }
  if (err != CL_SUCCESS || !buffer || !queue) {
    refuse_copy(id, size);
    return err != CL_SUCCESS ? err : CL_INVALID_MEM_OBJECT;
  }
  staged_bytes_.forget(buffer);
  // The bytes go straight into the buffer, mapped, when it can be mapped at
  // once (mapped.cpp); else the writes take them from the source's
  // staged copy, or from staging memory.
  void *mapped = maps_at_once(queue, h.queue, wait, size) ? map_for_write(queue, buffer, offset, size) : nullptr;
  if (mapped) {
    entry.into = static_cast<char *>(mapped);
  } else if (entry.source) {
    entry.into = entry.source->data() + entry.source_from;
  } else {
    entry.staging = staging(size);
    entry.into = entry.staging->data();
  }
  cl_event event = nullptr;
  if (err = gate_parts({queue, static_cast<cl_uint>(wait.size()), wait.data(), &event}, buffer, offset, mapped, entry);
      err != CL_SUCCESS) {
    // Parts enqueued already end, failed, rather than wait forever; the
    // parts that came or will come are dropped.
    for (auto &g : entry.gates) vendor_set_user_event_status(g.get(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    refuse_copy(id, size);
    return err;
  }
  await_parts(h, queue, event, std::move(entry));
  return CL_SUCCESS;
}

cl_int NodeServer::gate_parts(const VendorEnqueue &on, cl_mem buffer, size_t offset, void *mapped, PeerGate &entry) {
  // An event per part holds its write (staged) or the unmap (mapped) until
  // its bytes come; the copy's event ends with the last write, or is the
  // unmap's.
  cl_int err = CL_SUCCESS;
  cl_context context = vendor_value<cl_context>(on.queue, CL_QUEUE_CONTEXT);
  const std::vector<cl_event> wait(on.wait, on.wait + on.num_wait);
  std::vector<cl_event> writes, after = wait;
  for_each_part(entry.size, [&](size_t at, size_t n) {
    if (err != CL_SUCCESS) return;
    auto gate = vendor_user_event(context, err);
    if (err != CL_SUCCESS) return;
    if (mapped) {
      after.push_back(gate.get());
    } else {
      std::vector<cl_event> part = wait;
      part.push_back(gate.get());
      cl_event write = nullptr;
      err = vendor_enqueue::WriteBuffer({on.queue, static_cast<cl_uint>(part.size()), part.data(), &write}, buffer,
                                        cl_bool(CL_FALSE), offset + at, n, static_cast<const void *>(entry.into + at));
      if (err == CL_SUCCESS) writes.push_back(write);
    }
    entry.gates.push_back(std::move(gate));
  });
  if (mapped) {
    // Unmapped after every gate, or at once when a gate could not be made.
    const bool gated = err == CL_SUCCESS;
    const cl_int unmapped = vendor_enqueue::UnmapMemObject(
        {on.queue, gated ? static_cast<cl_uint>(after.size()) : 0u, gated && !after.empty() ? after.data() : nullptr,
         on.event},
        buffer, mapped);
    if (err == CL_SUCCESS) err = unmapped;
    else if (unmapped == CL_SUCCESS) VendorRef<cl_event>::adopt(*on.event);
  } else if (err == CL_SUCCESS) {
    err = join_parts(on.queue, writes, on.event);
  }
  for (cl_event w : writes) VendorRef<cl_event>::adopt(w);  // those of a failed command
  return err;
}

void NodeServer::await_parts(const CommandHeader &h, cl_command_queue queue, cl_event event, PeerGate entry) {
  const uint64_t id = h.event;
  objects_.events[id] = VendorRef<cl_event>::adopt(event);
  enqueued(queue, event);
  entry.closed = entry.gates.size();
  Watch watch;
  watch.queue = h.queue;
  watch.prompt = h.flags & kPrompt;
  watch.keep_alive = entry.staging ? entry.staging : entry.source;
  watch.follows = predecessors(h, queue);
  entry.write = report_when_done(id, event, std::move(watch));
  peer_gates_[id] = std::move(entry);
  // Parts that came before this request.
  if (auto early = early_parts_.find(id); early != early_parts_.end()) {
    auto parts = std::move(early->second);
    early_parts_.erase(early);
    for (auto &p : parts) arrived_part(p.header, p.bytes ? p.bytes->data() : nullptr, p.travel_ns, p.arrived_ns);
  }
}

void NodeServer::peer_send(cl_command_queue queue, const std::vector<cl_event> &wait, uint64_t id, cl_int err,
                           Reader &args) {
  const PeerCopyOut send = read_message<PeerCopyOut>(args);
  OutgoingCopy c;
  c.id = id;
  cl_mem buffer = objects_.find(objects_.memory, send.buffer, err, CL_INVALID_MEM_OBJECT);
  c.offset = send.offset, c.size = send.size, c.peer_rank = send.to_rank, c.peer_id = send.to_event;
  if (err != CL_SUCCESS || !queue || !buffer) return fail_parts(c, 0, err != CL_SUCCESS ? err : CL_INVALID_MEM_OBJECT);
  const VendorEnqueue after{queue, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), nullptr};
  // From a staged copy (staged_bytes.hpp): no read. Once the wait list has
  // ended, each part goes from the copy, to the other node or into this
  // node's receiving write (whose parts take the copy's bytes).
  auto local = c.peer_rank == rank_ ? peer_gates_.find(c.peer_id) : peer_gates_.end();
  auto copy = c.peer_rank != rank_ ? copy_source(buffer, c.offset, c.size)
              : local != peer_gates_.end() ? local->second.source
                                           : nullptr;
  if (copy) {
    auto ready = after_all(queue, wait, err);
    if (err != CL_SUCCESS) return fail_parts(c, 0, err);
    return send_parts_when(c, ready, c.peer_rank != rank_ ? copy : nullptr, c.offset, nullptr);
  }
  if (c.peer_rank != rank_ && send_mapped(c, after, buffer)) return;
  // A copy between two devices of this node: the reads go straight into
  // the receiving write's staging memory, and each part's end opens its
  // gate here (send_peer_parts), with no trip through MPI.
  auto bytes = local != peer_gates_.end() && local->second.staging && local->second.size == c.size
                   ? local->second.staging
                   : staging(c.size);
  read_parts(c, after, buffer, bytes);
}

void NodeServer::fail_parts(const OutgoingCopy &c, size_t first_failed, cl_int status) {
  std::lock_guard lock(reports_mutex_);
  for_each_part(c.size, [&](size_t at, size_t) {
    if (at < first_failed) return;
    PeerReport r;
    r.header = PeerHeader{c.peer_id, status, 0, at, 0};
    r.peer_rank = c.peer_rank;
    peer_parts_.push_back(std::move(r));
  });
}

void NodeServer::send_parts_when(const OutgoingCopy &c, const VendorRef<cl_event> &ready, StagedBytes::Bytes bytes,
                                 size_t from, const std::shared_ptr<Mapping> &mapping) {
  for_each_part(c.size, [&](size_t at, size_t n) {
    objects_.events[c.part_key(at)] = ready;
    Watch w;
    w.read = bytes, w.to = {c.peer_rank, c.peer_id, at, n, from}, w.mapped = mapping;
    report_when_done(c.part_key(at), ready.get(), std::move(w));
  });
}

bool NodeServer::send_mapped(const OutgoingCopy &c, const VendorEnqueue &after, cl_mem buffer) {
  // To another node, from a device that shares this memory: one map, then
  // every part sent straight from the buffer (mapped.cpp). Each part's
  // record is the map's event under the part's key.
  cl_event map = nullptr;
  VendorEnqueue on = after;
  on.event = &map;
  auto mapping = read_mapped(on, buffer, c.offset, c.size);
  if (!mapping) return false;
  enqueued(after.queue, map);
  send_parts_when(c, VendorRef<cl_event>::adopt(map), nullptr, 0, mapping);
  return true;
}

void NodeServer::read_parts(const OutgoingCopy &c, const VendorEnqueue &after, cl_mem buffer,
                            std::shared_ptr<std::vector<char>> bytes) {
  // A read per part: each part goes as soon as it is read.
  cl_int err = CL_SUCCESS;
  for_each_part(bytes->size(), [&](size_t at, size_t n) {
    if (err != CL_SUCCESS) return;
    cl_event read = nullptr;
    VendorEnqueue on = after;
    on.event = &read;
    err = vendor_enqueue::ReadBuffer(on, buffer, cl_bool(CL_FALSE), c.offset + at, n,
                                     static_cast<void *>(bytes->data() + at));
    if (err != CL_SUCCESS) return fail_parts(c, at, err);
    objects_.events[c.part_key(at)] = VendorRef<cl_event>::adopt(read);
    enqueued(after.queue, read);
    Watch w;
    w.read = bytes, w.to = {c.peer_rank, c.peer_id, at, n};
    report_when_done(c.part_key(at), read, std::move(w));
  });
}

VendorRef<cl_event> NodeServer::after_all(cl_command_queue queue, const std::vector<cl_event> &wait, cl_int &err) {
  auto done = vendor_user_event(vendor_value<cl_context>(queue, CL_QUEUE_CONTEXT), err);
  if (err != CL_SUCCESS) return {};
  struct Joined {
    std::atomic<size_t> left;
    std::atomic<cl_int> status{CL_COMPLETE};
    VendorRef<cl_event> event;
  };
  auto joined = std::make_shared<Joined>();
  joined->left = wait.size() + 1;
  joined->event = VendorRef<cl_event>::share(done.get());
  auto arrived = [joined](cl_int status) {
    cl_int none = CL_COMPLETE;
    if (status < 0) joined->status.compare_exchange_strong(none, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    if (--joined->left == 0) vendor_set_user_event_status(joined->event.get(), joined->status.load());
  };
  for (cl_event e : wait)
    if (when_vendor_status(e, CL_COMPLETE, arrived) != CL_SUCCESS) arrived(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  arrived(CL_COMPLETE);  // this call's own share: the event cannot end before every callback is set
  return done;
}

}  // namespace unicl::cluster
