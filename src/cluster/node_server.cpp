#include "cluster/node_server.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "backend/vendor_status.hpp"
#include "cluster/idle_backoff.hpp"
#include "cluster/ping_pong.hpp"

namespace unicl::cluster {
namespace {

template <class H>
H as(uint64_t v) {
  return reinterpret_cast<H>(v);
}
// Keeps `r` in `objects` under its handle; returns the handle.
template <class H>
uint64_t keep(std::unordered_map<uint64_t, VendorRef<H>> &objects, VendorRef<H> r) {
  const auto handle = reinterpret_cast<uint64_t>(r.get());
  objects[handle] = std::move(r);
  return handle;
}

// An info answer of any size: asked for its size, then read.
template <class Query>
cl_int answer_of(Query &&query, Writer &out) {
  size_t n = 0;
  if (cl_int err = query(0, nullptr, &n); err != CL_SUCCESS) return err;
  std::vector<char> value(n);
  if (n)
    if (cl_int err = query(n, value.data(), nullptr); err != CL_SUCCESS) return err;
  out.bytes(value.data(), value.size());
  return CL_SUCCESS;
}

// Three sizes (an origin, a region) off the wire.
void get3(Reader &args, size_t (&v)[3]) {
  for (auto &x : v) x = args.get<uint64_t>();
}

// A copy between two memory objects' regions: source, destination, both
// origins and the region, in that order on the wire.
struct RegionCopy {
  cl_mem src, dst;
  size_t src_origin[3], dst_origin[3], region[3];
  explicit RegionCopy(Reader &args) : src(as<cl_mem>(args.get<uint64_t>())), dst(as<cl_mem>(args.get<uint64_t>())) {
    get3(args, src_origin);
    get3(args, dst_origin);
    get3(args, region);
  }
};

// The event of a command enqueued in parts (`parts`, the parts' events,
// released here): the one part's, or a marker after them all.
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

}  // namespace

void NodeServer::serve() {
  // Polled, pausing longer the longer nothing comes (idle_backoff.hpp): a
  // blocking MPI_Probe would spin, holding a core all the time the node is
  // idle. Vendor callbacks wake a sleeping loop at once; requests are seen
  // at its next poll: within 1 ms when long idle, within 200 us while it
  // awaits its commands' ends.
  IdleBackoff idle(std::chrono::microseconds(200), std::chrono::milliseconds(1));
  IdleBackoff awaiting(std::chrono::milliseconds(2), std::chrono::microseconds(200));
  IdleBackoff::tight_timers();
  for (bool serving = true; serving;) {
    if (send_reports()) awaiting.active();
    bool idle_now = false, peers = false;
    {
      std::lock_guard lock(reports_mutex_);
      peers = !peer_gates_.empty() || !peer_sends_.empty();
      idle_now = awaited_.empty() && reports_.empty() && !peers;
    }
    if (!idle_now) check_failed();
    MPI_Status status;
    if (peers) finish_peer_sends();
    int peer = 0;
    // Also when no copy is awaited: a cancelled copy's bytes are drained.
    MPI_Iprobe(MPI_ANY_SOURCE, kPeerTag, comm_, &peer, &status);
    if (peer) {
      receive_peer_bytes(status);
      idle.active(), awaiting.active();
      continue;
    }
    int arrived = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, comm_, &arrived, &status);
    if (!arrived) {
      // Copies between nodes progress only inside MPI calls: no sleep then.
      const auto pause = peers ? std::chrono::microseconds(0) : (idle_now ? idle : awaiting).pause();
      if (pause.count() == 0) {
        std::this_thread::yield();
      } else {
        std::unique_lock lock(reports_mutex_);
        reports_changed_.wait_for(lock, pause, [&] { return !reports_.empty(); });
      }
      continue;
    }
    idle.active(), awaiting.active();
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> message(static_cast<size_t>(bytes));
    MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kRequestTag, comm_, MPI_STATUS_IGNORE);
    Reader args(message);
    RequestHeader header{};
    if (message.size() >= sizeof header) std::memcpy(&header, message.data(), sizeof header);
    if (header.op == Op::kRawPingPong) {
      args.get<RequestHeader>();
      const auto size = args.get<uint64_t>(), count = args.get<uint64_t>();
      answer_ping_pong(comm_, status.MPI_SOURCE, size, count);
      continue;
    }
    Writer result;
    cl_int err = CL_SUCCESS;
    try {
      header = args.get<RequestHeader>();
      err = handle(header.op, args, result, status.MPI_SOURCE, serving);
    } catch (const Truncated &) {
      err = CL_INVALID_VALUE;
    }
    if (signal_after_ > 0 && ++handled_ == signal_after_) std::raise(signal_);  // tests' faults
    Writer reply;
    reply.put(ReplyHeader{header.call, err});
    std::vector<char> out = reply.take();
    out.insert(out.end(), result.buffer().begin(), result.buffer().end());
    MPI_Send(out.data(), static_cast<int>(out.size()), MPI_BYTE, status.MPI_SOURCE, kReplyTag, comm_);
  }
  // After the goodbye nothing more is sent: rank 0 no longer receives, and a
  // report too large to go out at once would wait for it forever, keeping
  // this node from MPI_Finalize and rank 0's MPI_Finalize waiting for it.
}


cl_int NodeServer::write_in_parts(const VendorEnqueue &on, cl_mem buffer, size_t offset, std::vector<char> &bytes,
                                  bool refuse, uint64_t &trip_ns) {
  // The bytes follow the request in parts (kChunk), straight into the
  // staging copy; each part goes on to the device while the next travels.
  // Every part is taken off the wire, even once the command is refused.
  cl_int err = refuse ? CL_INVALID_EVENT_WAIT_LIST : CL_SUCCESS;
  std::vector<cl_event> parts;
  receive_write_parts(bytes.data(), bytes.size(), trip_ns, [&](size_t at, size_t n) {
    if (err != CL_SUCCESS) return;
    cl_event part = nullptr;
    err = vendor_enqueue::WriteBuffer({on.queue, on.num_wait, on.wait, &part}, buffer, cl_bool(CL_FALSE),
                                      offset + at, n, static_cast<const void *>(bytes.data() + at));
    if (err == CL_SUCCESS) parts.push_back(part);
  });
  if (err == CL_SUCCESS) return join_parts(on.queue, parts, on.event);
  for (cl_event p : parts) VendorRef<cl_event>::adopt(p);  // released at once
  return err;
}

void NodeServer::receive_write_parts(char *into, size_t size, uint64_t &trip_ns,
                                     const std::function<void(size_t, size_t)> &after_part) {
  for_each_part(size, [&](size_t at, size_t n) {
    const auto start = std::chrono::steady_clock::now();
    MPI_Recv(into + at, static_cast<int>(n), MPI_BYTE, 0, kDataTag, comm_, MPI_STATUS_IGNORE);
    trip_ns += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    if (after_part) after_part(at, n);
  });
}

std::shared_ptr<std::vector<char>> NodeServer::staging(size_t size) {
  constexpr size_t kKept = size_t{1} << 30;  // at most this much kept for reuse
  std::unique_ptr<std::vector<char>> buffer;
  {
    std::lock_guard lock(pool_->mutex);
    auto &free = pool_->free;
    auto it = std::find_if(free.begin(), free.end(), [&](auto &b) { return b->size() == size; });
    if (it != free.end()) {
      buffer = std::move(*it);
      free.erase(it);
      pool_->bytes -= size;
    }
  }
  if (!buffer) buffer = std::make_unique<std::vector<char>>(size);
  // Back to the pool when the last user lets go (a vendor callback, maybe).
  std::weak_ptr<StagingPool> pool = pool_;
  return {buffer.release(), [pool](std::vector<char> *b) {
            std::unique_ptr<std::vector<char>> owned(b);
            auto p = pool.lock();
            if (!p) return;
            std::lock_guard lock(p->mutex);
            if (p->bytes + owned->size() > kKept) return;
            p->bytes += owned->size();
            p->free.push_back(std::move(owned));
          }};
}

bool NodeServer::send_reports() {
  std::deque<Report> out;
  {
    std::lock_guard lock(reports_mutex_);
    out.swap(reports_);
  }
  const bool any = !out.empty();
  for (auto &r : out) {
    if (r.peer_rank == rank_) {
      // A part of a copy within this node, read into its write's staging.
      PeerHeader h{};
      std::memcpy(&h, r.message.data(), sizeof h);
      auto gate = peer_gates_.find(h.id);
      if (gate != peer_gates_.end() && h.status >= 0 && h.offset + r.bytes_size <= gate->second.size) {
        // The part's bytes: read by the sender, or in the source's host
        // copy. Copied only when the receiving write takes them from
        // elsewhere (the mapped buffer).
        const PeerGate &g = gate->second;
        const char *from = r.bytes ? r.bytes->data() + r.bytes_offset
                           : g.source ? g.source->data() + g.source_from + h.offset
                                      : nullptr;
        if (from && g.into + h.offset != from) std::memcpy(g.into + h.offset, from, r.bytes_size);
      }
      if (gate != peer_gates_.end() && h.offset == 0) gate->second.write->before_ns = h.read_ns;
      open_gate(h.id, h.offset / kChunk, h.status < 0 ? h.status : CL_COMPLETE);
      events_.erase(r.read_id);
      continue;
    }
    if (r.peer_rank >= 0) {
      PeerSend &p = peer_sends_.emplace_back(
          PeerSend{{}, 0, std::move(r.message), std::move(r.bytes), r.read_id, std::move(r.mapped)});
      MPI_Isend(p.header.data(), static_cast<int>(p.header.size()), MPI_BYTE, r.peer_rank, kPeerTag, comm_,
                &p.requests[p.count++]);
      PeerHeader h{};
      std::memcpy(&h, p.header.data(), sizeof h);
      char *from = p.bytes ? p.bytes->data() : p.mapped ? p.mapped->data : nullptr;
      if (from && h.bytes)
        MPI_Isend(from + r.bytes_offset, static_cast<int>(r.bytes_size), MPI_BYTE, r.peer_rank, kPeerDataTag, comm_,
                  &p.requests[p.count++]);
      continue;
    }
    MPI_Send(r.message.data(), static_cast<int>(r.message.size()), MPI_BYTE, 0, kEventTag, comm_);
    // The read's bytes, as many as its message announces: mapped, or staged.
    EventEnded ended{};
    std::memcpy(&ended, r.message.data(), sizeof ended);
    const char *from = r.mapped ? r.mapped->data : r.bytes ? r.bytes->data() : nullptr;
    if (from)
      for_each_part(ended.bytes, [&](size_t at, size_t n) {
        MPI_Send(from + at, static_cast<int>(n), MPI_BYTE, 0, kDataTag, comm_);
      });
  }
  return any;
}

void NodeServer::finish_peer_sends() {
  for (auto it = peer_sends_.begin(); it != peer_sends_.end();) {
    int done = 0;
    MPI_Testall(it->count, it->requests, &done, MPI_STATUSES_IGNORE);
    if (!done) {
      ++it;
      continue;
    }
    events_.erase(it->read_id);
    it = peer_sends_.erase(it);
  }
}

void NodeServer::receive_peer_bytes(const MPI_Status &status) {
  PeerHeader h{};
  MPI_Recv(&h, sizeof h, MPI_BYTE, status.MPI_SOURCE, kPeerTag, comm_, MPI_STATUS_IGNORE);
  auto it = peer_gates_.find(h.id);
  uint64_t travel_ns = 0;
  if (h.bytes) {
    // A cancelled copy's bytes are taken off the wire all the same.
    const bool expected = it != peer_gates_.end() && h.offset + h.bytes <= it->second.size;
    std::vector<char> drained;
    char *into = expected ? it->second.into + h.offset : (drained.resize(h.bytes), drained.data());
    const auto start = std::chrono::steady_clock::now();
    MPI_Recv(into, static_cast<int>(h.bytes), MPI_BYTE, status.MPI_SOURCE, kPeerDataTag, comm_, MPI_STATUS_IGNORE);
    travel_ns = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    if (!expected && it != peer_gates_.end()) h.status = CL_INVALID_VALUE;
  }
  if (it == peer_gates_.end()) return;
  // The first part's read and trip come before any write: the copy's time.
  if (h.offset == 0) it->second.write->before_ns = h.read_ns + travel_ns;
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

cl_int NodeServer::peer_receive(cl_command_queue queue, const std::vector<cl_event> &wait, uint64_t id,
                                Reader &args) {
  auto buffer = as<cl_mem>(args.get<uint64_t>());
  const size_t offset = args.get<uint64_t>();
  PeerGate entry;
  entry.size = args.get<uint64_t>();
  const size_t size = entry.size;
  // A source on this node: its host copy, if it has one, is where the bytes
  // come from.
  if (args.get<uint8_t>()) {
    auto source = as<cl_mem>(args.get<uint64_t>());
    entry.source_from = args.get<uint64_t>();
    entry.source = host_copies_.find(source, entry.source_from, size);
  }
  host_copies_.forget(buffer);
  // The bytes go straight into the buffer, mapped, when it can be mapped at
  // once (node_mapped.cpp); else the writes take them from the source's
  // host copy, or from staging memory.
  void *mapped = maps_at_once(queue, wait, size) ? map_for_write(queue, buffer, offset, size) : nullptr;
  if (mapped) {
    entry.into = static_cast<char *>(mapped);
  } else if (entry.source) {
    entry.into = entry.source->data() + entry.source_from;
  } else {
    entry.staging = staging(size);
    entry.into = entry.staging->data();
  }
  // An event per part holds its write (staged) or the unmap (mapped) until
  // its bytes come; the copy's event ends with the last write, or is the
  // unmap's.
  cl_context context = vendor_value<cl_context>(queue, CL_QUEUE_CONTEXT);
  std::vector<cl_event> writes, after = wait;
  cl_int err = CL_SUCCESS;
  for_each_part(size, [&](size_t at, size_t n) {
    if (err != CL_SUCCESS) return;
    auto gate = vendor_user_event(context, err);
    if (err != CL_SUCCESS) return;
    if (mapped) {
      after.push_back(gate.get());
    } else {
      std::vector<cl_event> part = wait;
      part.push_back(gate.get());
      cl_event write = nullptr;
      err = vendor_enqueue::WriteBuffer({queue, static_cast<cl_uint>(part.size()), part.data(), &write}, buffer,
                                        cl_bool(CL_FALSE), offset + at, n, static_cast<const void *>(entry.into + at));
      if (err == CL_SUCCESS) writes.push_back(write);
    }
    entry.gates.push_back(std::move(gate));
  });
  cl_event event = nullptr;
  if (mapped) {
    // Unmapped after every gate, or at once when a gate could not be made.
    const bool gated = err == CL_SUCCESS;
    const cl_int unmapped = vendor_enqueue::UnmapMemObject(
        {queue, gated ? static_cast<cl_uint>(after.size()) : 0u, gated && !after.empty() ? after.data() : nullptr,
         &event},
        buffer, mapped);
    if (err == CL_SUCCESS) err = unmapped;
    else if (unmapped == CL_SUCCESS) VendorRef<cl_event>::adopt(event);
  } else if (err == CL_SUCCESS) {
    err = join_parts(queue, writes, &event);
  }
  for (cl_event w : writes) VendorRef<cl_event>::adopt(w);  // those of a failed command
  if (err != CL_SUCCESS) {
    // Parts enqueued already end, failed, rather than wait forever.
    for (auto &g : entry.gates) vendor_set_user_event_status(g.get(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return err;
  }
  events_[id] = VendorRef<cl_event>::adopt(event);
  enqueued(queue, event);
  entry.closed = entry.gates.size();
  entry.write = report_when_done(id, event, nullptr, entry.staging ? entry.staging : entry.source, {});
  peer_gates_[id] = std::move(entry);
  return CL_SUCCESS;
}

cl_int NodeServer::peer_send(cl_command_queue queue, const std::vector<cl_event> &wait, uint64_t id, Reader &args) {
  auto buffer = as<cl_mem>(args.get<uint64_t>());
  const size_t offset = args.get<uint64_t>();
  const size_t size = args.get<uint64_t>();
  const int peer_rank = args.get<int32_t>();
  const uint64_t peer_id = args.get<uint64_t>();
  const VendorEnqueue after{queue, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), nullptr};
  // From a host copy (host_copies.hpp): no read. Once the wait list has
  // ended, each part goes from the copy, to the other node or into this
  // node's receiving write (whose parts take the copy's bytes).
  auto local = peer_rank == rank_ ? peer_gates_.find(peer_id) : peer_gates_.end();
  auto copy = peer_rank != rank_ ? host_copies_.find(buffer, offset, size)
              : local != peer_gates_.end() ? local->second.source
                                           : nullptr;
  // The record of part `at`: rank 0's id with the part's number above the
  // bits rank 0's ids use.
  auto part_key = [id](size_t at) { return id | (uint64_t{at / kChunk + 1} << 48); };
  // Every part goes once `ready` ends, from `bytes` (at `from`) or `mapping`.
  auto send_when = [&](const VendorRef<cl_event> &ready, HostCopies::Bytes bytes, size_t from,
                       const std::shared_ptr<Mapping> &mapping) {
    for_each_part(size, [&](size_t at, size_t n) {
      events_[part_key(at)] = ready;
      report_when_done(part_key(at), ready.get(), bytes, nullptr, {peer_rank, peer_id, at, n, from}, 0, mapping);
    });
  };
  if (copy) {
    cl_int err = CL_SUCCESS;
    auto ready = after_all(queue, wait, err);
    if (err != CL_SUCCESS) return err;
    send_when(ready, peer_rank != rank_ ? copy : nullptr, offset, nullptr);
    return CL_SUCCESS;
  }
  // To another node, from a device that shares this memory: one map, then
  // every part sent straight from the buffer (node_mapped.cpp). Each part's
  // record is the map's event under the part's key.
  if (peer_rank != rank_) {
    cl_event map = nullptr;
    VendorEnqueue on = after;
    on.event = &map;
    if (auto mapping = read_mapped(on, buffer, offset, size)) {
      enqueued(queue, map);
      send_when(VendorRef<cl_event>::adopt(map), nullptr, 0, mapping);
      return CL_SUCCESS;
    }
  }
  // A copy between two devices of this node: the reads go straight into
  // the receiving write's staging memory, and each part's end opens its
  // gate here (send_reports), with no trip through MPI.
  auto bytes = local != peer_gates_.end() && local->second.staging && local->second.size == size ? local->second.staging
                                                                                                 : staging(size);
  // A read per part: each part goes as soon as it is read.
  cl_int err = CL_SUCCESS;
  for_each_part(bytes->size(), [&](size_t at, size_t n) {
    if (err != CL_SUCCESS) return;  // rank 0 cancels what the receiver still waits for
    cl_event read = nullptr;
    VendorEnqueue on = after;
    on.event = &read;
    err = vendor_enqueue::ReadBuffer(on, buffer, cl_bool(CL_FALSE), offset + at, n,
                                     static_cast<void *>(bytes->data() + at));
    if (err != CL_SUCCESS) return;
    events_[part_key(at)] = VendorRef<cl_event>::adopt(read);
    enqueued(queue, read);
    report_when_done(part_key(at), read, bytes, nullptr, {peer_rank, peer_id, at, n});
  });
  return err;
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

void NodeServer::report(uint64_t id, Awaited &a, cl_int status) {
  if (a.reported.exchange(true)) return;
  cl_event event = a.event;
  if (a.to.rank >= 0) {
    // A read for another node: its bytes (or its failure) go there.
    PeerHeader h{a.to.id, status < 0 ? status : CL_SUCCESS, 0, a.to.offset, status < 0 ? 0 : a.to.size};
    cl_ulong start = 0, end = 0;
    if (status >= 0 && vendor_profiling_info(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS &&
        vendor_profiling_info(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS && end > start)
      h.read_ns = end - start;
    Writer w;
    w.put(h);
    std::lock_guard lock(reports_mutex_);
    Report r{w.take(), status < 0 ? nullptr : a.read, a.to.from + a.to.offset, a.to.size, a.to.rank, id};
    r.mapped = std::move(a.mapped);  // let go on the serving thread
    reports_.push_back(std::move(r));
    awaited_.erase(id);
    reports_changed_.notify_one();
    return;
  }
  const bool with_bytes = status >= 0 && ((a.read && !a.read->empty()) || a.mapped);
  const size_t size = !with_bytes ? 0 : a.mapped ? a.mapped->size : a.read->size();
  EventEnded ended{id, status < 0 ? status : CL_COMPLETE, 0, 0, 0, 0, size};
  auto time = [event](cl_profiling_info what) {
    cl_ulong t = 0;
    return vendor_profiling_info(event, what, sizeof t, &t, nullptr) == CL_SUCCESS ? t : 0;
  };
  if (status >= 0) {
    ended.queued = time(CL_PROFILING_COMMAND_QUEUED), ended.submit = time(CL_PROFILING_COMMAND_SUBMIT);
    ended.start = time(CL_PROFILING_COMMAND_START), ended.end = time(CL_PROFILING_COMMAND_END);
    // A write of another node's bytes lasts from that node's read on.
    // (queued <= submit <= start, as the spec orders them: moved back too)
    if (uint64_t before = a.before_ns.load(); before && ended.start > before) {
      ended.start -= before;
      ended.submit = std::min(ended.submit, ended.start);
      ended.queued = std::min(ended.queued, ended.submit);
    }
  }
  Writer w;
  w.put(ended);
  std::lock_guard lock(reports_mutex_);
  Report r{w.take(), with_bytes ? a.read : nullptr};
  r.mapped = std::move(a.mapped);  // unmapped once sent (or at once), on the serving thread
  reports_.push_back(std::move(r));
  awaited_.erase(id);
  reports_changed_.notify_one();
}

std::shared_ptr<NodeServer::Awaited> NodeServer::report_when_done(uint64_t id, cl_event event,
                                                                  std::shared_ptr<std::vector<char>> read,
                                                                  std::shared_ptr<std::vector<char>> keep_alive,
                                                                  PeerPart to, uint64_t before_ns,
                                                                  std::shared_ptr<Mapping> mapped) {
  auto a = std::make_shared<Awaited>();
  a->event = event, a->read = std::move(read), a->keep_alive = std::move(keep_alive);
  a->before_ns = before_ns, a->mapped = std::move(mapped);  // before the vendor can call back
  a->to = to;
  {
    std::lock_guard lock(reports_mutex_);
    awaited_[id] = a;
  }
  cl_int refused = when_vendor_status(event, CL_COMPLETE, [this, id, a](cl_int status) { report(id, *a, status); });
  if (refused != CL_SUCCESS) report(id, *a, refused);
  return a;
}

void NodeServer::check_failed() {
  auto now = std::chrono::steady_clock::now();
  if (now - last_check_ < std::chrono::milliseconds(5)) return;
  last_check_ = now;
  std::vector<std::pair<uint64_t, std::shared_ptr<Awaited>>> all;
  {
    std::lock_guard lock(reports_mutex_);
    all.assign(awaited_.begin(), awaited_.end());
  }
  for (auto &[id, a] : all)
    if (cl_int status = vendor_status(a->event); status < 0) report(id, *a, status);
}

cl_int NodeServer::handle(Op op, Reader &args, Writer &result, int from, bool &serving) {
  cl_int err = CL_SUCCESS;
  switch (op) {
    case Op::kHello: {
      const auto magic = args.get<uint32_t>(), version = args.get<uint32_t>();
      result.put(kMagic).put(protocol_);
      if (magic != kMagic || version != protocol_) {
        std::fprintf(stderr, "unicl-node (rank %d): rank %d speaks protocol %u, this node %u: not serving it\n", rank_,
                     from, version, protocol_);
        return CL_INVALID_VALUE;
      }
      write(result, self_);
      return CL_SUCCESS;
    }
    case Op::kBye:
      serving = false;
      return CL_SUCCESS;
    case Op::kPing: return CL_SUCCESS;
    case Op::kRawPingPongWith: {
      const auto peer = args.get<int32_t>();
      const auto size = args.get<uint64_t>();
      result.put(start_ping_pong(comm_, peer, size, args.get<uint64_t>()));
      return CL_SUCCESS;
    }
    case Op::kPeerCancel: {
      const auto id = args.get<uint64_t>();
      open_gate(id, static_cast<size_t>(-1), args.get<cl_int>());
      return CL_SUCCESS;
    }
    case Op::kCreateContext: {
      auto device = as<cl_device_id>(args.get<uint64_t>());
      const cl_context_properties props[] = {
          CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(vendor_value<cl_platform_id>(device, CL_DEVICE_PLATFORM)),
          0};
      auto c = vendor_context(props, device, nullptr, nullptr, err);
      if (err != CL_SUCCESS) return err;
      result.put(keep(contexts_, std::move(c)));
      return CL_SUCCESS;
    }
    case Op::kCreateQueue: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto device = as<cl_device_id>(args.get<uint64_t>());
      auto props = args.get<cl_command_queue_properties>();
      auto q = vendor_queue(context, device, props, err);
      if (err != CL_SUCCESS) return err;
      if (vendor_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE) unified_.insert(q.get());
      result.put(keep(queues_, std::move(q)));
      return CL_SUCCESS;
    }
    case Op::kCreateBuffer: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto flags = args.get<cl_mem_flags>();
      auto size = args.get<uint64_t>();
      auto initial = args.bytes();
      auto m = vendor_buffer(context, flags | (initial.empty() ? 0 : CL_MEM_COPY_HOST_PTR), size,
                             initial.empty() ? nullptr : initial.data(), err);
      if (err != CL_SUCCESS) return err;
      result.put(keep(memory_, std::move(m)));
      return CL_SUCCESS;
    }
    case Op::kCreateSubBuffer: {
      auto parent = as<cl_mem>(args.get<uint64_t>());
      auto flags = args.get<cl_mem_flags>();
      cl_buffer_region region{args.get<uint64_t>(), args.get<uint64_t>()};
      auto m = vendor_sub_buffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
      if (err != CL_SUCCESS) return err;
      host_copies_.shares_storage(parent);
      result.put(keep(memory_, std::move(m)));
      return CL_SUCCESS;
    }
    case Op::kCreateProgram: {
      auto context = as<cl_context>(args.get<uint64_t>());
      std::string source = args.text();
      const char *text = source.c_str();
      size_t length = source.size();
      auto p = vendor_program_with_source(context, 1, &text, &length, err);
      if (err != CL_SUCCESS) return err;
      result.put(keep(programs_, std::move(p)));
      return CL_SUCCESS;
    }
    case Op::kCreateProgramBinary: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto device = as<cl_device_id>(args.get<uint64_t>());
      auto binary = args.bytes();
      cl_int status = CL_SUCCESS;
      auto p = vendor_program_with_binary(context, device, binary.size(),
                                          reinterpret_cast<const unsigned char *>(binary.data()), status, err);
      result.put(status);
      if (err != CL_SUCCESS) return err;
      result.put(keep(programs_, std::move(p)));
      return CL_SUCCESS;
    }
    case Op::kBuildProgram: {
      auto program = as<cl_program>(args.get<uint64_t>());
      auto device = as<cl_device_id>(args.get<uint64_t>());
      std::string options = args.text();
      return vendor_build(program, device, options.c_str());
    }
    case Op::kCompileProgram: {
      auto program = as<cl_program>(args.get<uint64_t>());
      auto device = as<cl_device_id>(args.get<uint64_t>());
      std::string options = args.text();
      std::vector<cl_program> headers;
      std::vector<std::string> names;
      for (auto n = args.get<uint64_t>(); n > 0; --n) {
        headers.push_back(as<cl_program>(args.get<uint64_t>()));
        names.push_back(args.text());
      }
      std::vector<const char *> name_list;
      for (auto &n : names) name_list.push_back(n.c_str());
      return vendor_compile(program, device, options.c_str(), headers, name_list.empty() ? nullptr : name_list.data());
    }
    case Op::kLinkProgram: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto device = as<cl_device_id>(args.get<uint64_t>());
      std::string options = args.text();
      std::vector<cl_program> inputs;
      for (auto n = args.get<uint64_t>(); n > 0; --n) inputs.push_back(as<cl_program>(args.get<uint64_t>()));
      cl_int status = CL_SUCCESS;
      auto linked = vendor_link(context, device, options.c_str(), inputs, status);
      // A failed link may still give a program (its log says why).
      result.put(linked ? keep(programs_, std::move(linked)) : uint64_t{0}).put(status);
      return CL_SUCCESS;
    }
    case Op::kImageFormats: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto flags = args.get<cl_mem_flags>();
      auto type = args.get<cl_mem_object_type>();
      std::vector<cl_image_format> formats;
      if (cl_int e = vendor_image_formats(context, flags, type, formats); e != CL_SUCCESS) return e;
      result.bytes(formats.data(), formats.size() * sizeof(cl_image_format));
      return CL_SUCCESS;
    }
    case Op::kCreateImage: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto flags = args.get<cl_mem_flags>();
      auto format = args.get<cl_image_format>();
      cl_image_desc desc{};
      desc.image_type = args.get<cl_mem_object_type>();
      desc.image_width = args.get<uint64_t>(), desc.image_height = args.get<uint64_t>();
      desc.image_depth = args.get<uint64_t>(), desc.image_array_size = args.get<uint64_t>();
      desc.buffer = as<cl_mem>(args.get<uint64_t>());
      auto initial = args.bytes();  // packed: the default pitches
      auto image = vendor_image(context, flags | (initial.empty() ? 0 : CL_MEM_COPY_HOST_PTR), format, desc,
                                initial.empty() ? nullptr : initial.data(), err);
      if (err != CL_SUCCESS) return err;
      size_t element = 0;
      vendor_image_info(image.get(), CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr);
      result.put(keep(memory_, std::move(image))).put(uint64_t{element});
      return CL_SUCCESS;
    }
    case Op::kCreateKernel: {
      auto program = as<cl_program>(args.get<uint64_t>());
      std::string name = args.text();
      auto k = vendor_kernel(program, name.c_str(), err);
      if (err != CL_SUCCESS) return err;
      result.put(keep(kernels_, std::move(k)));
      return CL_SUCCESS;
    }
    case Op::kSetKernelArg: {
      auto kernel = as<cl_kernel>(args.get<uint64_t>());
      auto index = args.get<cl_uint>();
      switch (args.get<uint32_t>()) {
        case 0: {
          auto value = args.bytes();
          return vendor_set_arg(kernel, index, value.size(), value.data());
        }
        case 1: {
          auto m = as<cl_mem>(args.get<uint64_t>());
          return vendor_set_arg(kernel, index, sizeof m, m ? &m : nullptr);
        }
        case 3: {
          auto sampler = as<cl_sampler>(args.get<uint64_t>());
          return vendor_set_arg(kernel, index, sizeof sampler, &sampler);
        }
        default:
          return vendor_set_arg(kernel, index, args.get<uint64_t>(), nullptr);
      }
    }
    case Op::kRelease: {
      auto kind = args.get<ObjectKind>();
      auto h = args.get<uint64_t>();
      switch (kind) {
        case ObjectKind::kContext: contexts_.erase(h); break;
        case ObjectKind::kQueue:
          unified_.erase(as<cl_command_queue>(h)), last_on_queue_.erase(as<cl_command_queue>(h));
          queues_.erase(h);
          break;
        case ObjectKind::kMemory:
          host_copies_.released(as<cl_mem>(h));
          memory_.erase(h);
          break;
        case ObjectKind::kProgram: programs_.erase(h); break;
        case ObjectKind::kKernel: kernels_.erase(h); break;
        case ObjectKind::kEvent: events_.erase(h); break;
        case ObjectKind::kSampler: samplers_.erase(h); break;
        default: return CL_INVALID_VALUE;
      }
      return CL_SUCCESS;
    }
    case Op::kInfo: return info(args, result);
    case Op::kCreateUserEvent: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto id = args.get<uint64_t>();
      auto e = vendor_user_event(context, err);
      if (err == CL_SUCCESS) events_[id] = std::move(e);
      return err;
    }
    case Op::kSetUserEventStatus: {
      auto it = events_.find(args.get<uint64_t>());
      auto status = args.get<cl_int>();
      return it == events_.end() ? CL_INVALID_EVENT : vendor_set_user_event_status(it->second.get(), status);
    }
    case Op::kCreateSampler: {
      auto context = as<cl_context>(args.get<uint64_t>());
      auto normalized = args.get<cl_bool>();
      auto addressing = args.get<cl_addressing_mode>();
      auto filter = args.get<cl_filter_mode>();
      auto sampler = vendor_sampler(context, normalized, addressing, filter, err);
      if (err != CL_SUCCESS) return err;
      result.put(keep(samplers_, std::move(sampler)));
      return CL_SUCCESS;
    }
    case Op::kFlush: return vendor_flush(as<cl_command_queue>(args.get<uint64_t>()));
    case Op::kFinish: return vendor_finish(as<cl_command_queue>(args.get<uint64_t>()));
    default: return enqueue(op, args);
  }
}

cl_int NodeServer::enqueue(Op op, Reader &args) {
  auto queue = as<cl_command_queue>(args.get<uint64_t>());
  std::vector<cl_event> wait;
  bool unknown_event = false;  // refused below, once a write's bytes are taken off the wire
  for (auto n = args.get<uint32_t>(); n > 0; --n) {
    auto it = events_.find(args.get<uint64_t>());
    if (it == events_.end()) unknown_event = true;
    else wait.push_back(it->second.get());
  }
  const uint64_t id = args.get<uint64_t>();
  if (unknown_event && op != Op::kWriteBuffer) return CL_INVALID_EVENT_WAIT_LIST;
  if (op == Op::kPeerReceive) return peer_receive(queue, wait, id, args);
  if (op == Op::kPeerSend) return peer_send(queue, wait, id, args);
  cl_int err = CL_SUCCESS;
  cl_event event = nullptr;
  const VendorEnqueue on{queue, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), &event};
  std::shared_ptr<std::vector<char>> read, keep;
  std::shared_ptr<Mapping> mapped;  // a read's bytes, in place of `read`
  uint64_t travel_ns = 0;  // a write's bytes' trip
  switch (op) {
    case Op::kWriteBuffer: {
      auto buffer = as<cl_mem>(args.get<uint64_t>());
      auto offset = args.get<uint64_t>();
      const size_t size = args.get<uint64_t>();
      host_copies_.forget(buffer);
      if (!unknown_event && maps_at_once(queue, wait, size))
        if (auto status = write_mapped(queue, buffer, offset, size, &event, travel_ns)) {
          err = *status;
          break;
        }
      keep = staging(size);
      err = write_in_parts(on, buffer, offset, *keep, unknown_event, travel_ns);
      // All of a buffer, staged: its bytes may serve later copies from it.
      if (err == CL_SUCCESS && offset == 0) host_copies_.keep(buffer, keep);
      break;
    }
    case Op::kReadBuffer: {
      auto buffer = as<cl_mem>(args.get<uint64_t>());
      auto offset = args.get<uint64_t>();
      const size_t size = args.get<uint64_t>();
      if ((mapped = read_mapped(on, buffer, offset, size))) break;
      read = staging(size);
      err = vendor_enqueue::ReadBuffer(on, buffer, cl_bool(CL_FALSE), size_t(offset), read->size(),
                                       static_cast<void *>(read->data()));
      break;
    }
    case Op::kCopyBuffer: {
      auto src = as<cl_mem>(args.get<uint64_t>());
      auto dst = as<cl_mem>(args.get<uint64_t>());
      size_t so = args.get<uint64_t>(), dof = args.get<uint64_t>(), size = args.get<uint64_t>();
      host_copies_.forget(dst);
      err = vendor_enqueue::CopyBuffer(on, src, dst, so, dof, size);
      break;
    }
    case Op::kFillBuffer: {
      auto buffer = as<cl_mem>(args.get<uint64_t>());
      keep = std::make_shared<std::vector<char>>(args.bytes());
      size_t offset = args.get<uint64_t>(), size = args.get<uint64_t>();
      host_copies_.forget(buffer);
      err = vendor_enqueue::FillBuffer(on, buffer, static_cast<const void *>(keep->data()), keep->size(), offset,
                                       size);
      break;
    }
    case Op::kNDRange: {
      auto kernel = as<cl_kernel>(args.get<uint64_t>());
      auto dims = args.get<cl_uint>();
      size_t offset[3], global[3], local[3];
      get3(args, offset);
      get3(args, global);
      get3(args, local);
      bool has_offset = args.get<uint8_t>(), has_local = args.get<uint8_t>();
      err = vendor_enqueue::NDRangeKernel(on, kernel, dims, static_cast<const size_t *>(has_offset ? offset : nullptr),
                                          static_cast<const size_t *>(global),
                                          static_cast<const size_t *>(has_local ? local : nullptr));
      break;
    }
    case Op::kWriteBufferRect:
    case Op::kReadBufferRect: {
      auto buffer = as<cl_mem>(args.get<uint64_t>());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      size_t row = args.get<uint64_t>(), slice = args.get<uint64_t>();
      const size_t host_origin[3] = {0, 0, 0};
      const size_t packed = region[0] * region[1] * region[2];
      if (op == Op::kWriteBufferRect) {
        host_copies_.forget(buffer);
        keep = std::make_shared<std::vector<char>>(args.bytes());
        if (keep->size() != packed) return CL_INVALID_VALUE;
        err = vendor_enqueue::WriteBufferRect(on, buffer, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                              host_origin, static_cast<const size_t *>(region), row, slice, region[0],
                                              region[0] * region[1], static_cast<const void *>(keep->data()));
      } else {
        read = std::make_shared<std::vector<char>>(packed);
        err = vendor_enqueue::ReadBufferRect(on, buffer, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                             host_origin, static_cast<const size_t *>(region), row, slice, region[0],
                                             region[0] * region[1], static_cast<void *>(read->data()));
      }
      break;
    }
    case Op::kCopyBufferRect: {
      const RegionCopy c(args);
      size_t srp = args.get<uint64_t>(), ssp = args.get<uint64_t>(), drp = args.get<uint64_t>(),
             dsp = args.get<uint64_t>();
      host_copies_.forget(c.dst);
      err = vendor_enqueue::CopyBufferRect(on, c.src, c.dst, static_cast<const size_t *>(c.src_origin),
                                           static_cast<const size_t *>(c.dst_origin),
                                           static_cast<const size_t *>(c.region), srp, ssp, drp, dsp);
      break;
    }
    case Op::kWriteImage:
    case Op::kReadImage: {
      auto image = as<cl_mem>(args.get<uint64_t>());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      size_t element = 0;
      vendor_image_info(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr);
      const size_t packed = element * region[0] * region[1] * region[2];
      if (op == Op::kWriteImage) {
        keep = std::make_shared<std::vector<char>>(args.bytes());
        if (keep->size() != packed) return CL_INVALID_VALUE;
        err = vendor_enqueue::WriteImage(on, image, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                         static_cast<const size_t *>(region), size_t{0}, size_t{0},
                                         static_cast<const void *>(keep->data()));
      } else {
        read = std::make_shared<std::vector<char>>(packed);
        err = vendor_enqueue::ReadImage(on, image, cl_bool(CL_FALSE), static_cast<const size_t *>(origin),
                                        static_cast<const size_t *>(region), size_t{0}, size_t{0},
                                        static_cast<void *>(read->data()));
      }
      break;
    }
    case Op::kCopyImage: {
      const RegionCopy c(args);
      err = vendor_enqueue::CopyImage(on, c.src, c.dst, static_cast<const size_t *>(c.src_origin),
                                      static_cast<const size_t *>(c.dst_origin), static_cast<const size_t *>(c.region));
      break;
    }
    case Op::kFillImage: {
      auto image = as<cl_mem>(args.get<uint64_t>());
      keep = std::make_shared<std::vector<char>>(args.bytes());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      err = vendor_enqueue::FillImage(on, image, static_cast<const void *>(keep->data()),
                                      static_cast<const size_t *>(origin), static_cast<const size_t *>(region));
      break;
    }
    case Op::kCopyImageToBuffer: {
      auto image = as<cl_mem>(args.get<uint64_t>());
      auto buffer = as<cl_mem>(args.get<uint64_t>());
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      size_t offset = args.get<uint64_t>();
      host_copies_.forget(buffer);
      err = vendor_enqueue::CopyImageToBuffer(on, image, buffer, static_cast<const size_t *>(origin),
                                              static_cast<const size_t *>(region), offset);
      break;
    }
    case Op::kCopyBufferToImage: {
      auto buffer = as<cl_mem>(args.get<uint64_t>());
      auto image = as<cl_mem>(args.get<uint64_t>());
      size_t offset = args.get<uint64_t>();
      size_t origin[3], region[3];
      get3(args, origin);
      get3(args, region);
      err = vendor_enqueue::CopyBufferToImage(on, buffer, image, offset, static_cast<const size_t *>(origin),
                                              static_cast<const size_t *>(region));
      break;
    }
    case Op::kMarker: err = vendor_enqueue::MarkerWithWaitList(on); break;
    case Op::kBarrier: err = vendor_enqueue::BarrierWithWaitList(on); break;
    default: return CL_INVALID_OPERATION;
  }
  if (err != CL_SUCCESS) return err;
  events_[id] = VendorRef<cl_event>::adopt(event);
  enqueued(queue, event);
  // A write's time, which rank 0 learns its link to this device from,
  // counts its bytes' whole trip: the device's clock may not show it (a
  // simulated device's writes follow each other on its own clock). Where
  // parts are written while the next ones travel, the overlap counts twice:
  // the link is taken a little slower than it is, not many times faster.
  report_when_done(id, event, read, keep, {}, travel_ns, std::move(mapped));
  return CL_SUCCESS;
}

cl_int NodeServer::info(Reader &args, Writer &result) {
  auto kind = args.get<ObjectKind>();
  auto h = args.get<uint64_t>();
  auto param = args.get<cl_uint>();
  auto second = args.get<uint64_t>();
  auto query = [&](auto &&fn) { return answer_of(fn, result); };
  switch (kind) {
    case ObjectKind::kContext:
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(as<cl_context>(h), param, n, v, r); });
    case ObjectKind::kQueue:
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(as<cl_command_queue>(h), param, n, v, r); });
    case ObjectKind::kMemory:
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(as<cl_mem>(h), param, n, v, r); });
    case ObjectKind::kProgram:
      if (param == CL_PROGRAM_BINARIES) {
        // An array of pointers to the caller's memory: the node answers the
        // one device's binary itself.
        auto program = as<cl_program>(h);
        size_t size = 0;
        if (cl_int err = vendor_info(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr); err != CL_SUCCESS)
          return err;
        std::vector<char> binary(size);
        unsigned char *where = reinterpret_cast<unsigned char *>(binary.data());
        if (cl_int err = vendor_info(program, CL_PROGRAM_BINARIES, sizeof where, &where, nullptr); err != CL_SUCCESS)
          return err;
        result.bytes(binary.data(), binary.size());
        return CL_SUCCESS;
      }
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(as<cl_program>(h), param, n, v, r); });
    case ObjectKind::kKernel:
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(as<cl_kernel>(h), param, n, v, r); });
    case ObjectKind::kEvent: {
      auto it = events_.find(h);
      if (it == events_.end()) return CL_INVALID_EVENT;
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(it->second.get(), param, n, v, r); });
    }
    case ObjectKind::kEventProfiling: {
      auto it = events_.find(h);
      if (it == events_.end()) return CL_INVALID_EVENT;
      return query([&](size_t n, void *v, size_t *r) { return vendor_profiling_info(it->second.get(), param, n, v, r); });
    }
    case ObjectKind::kProgramBuild:
      return query([&](size_t n, void *v, size_t *r) {
        return vendor_build_info(as<cl_program>(h), as<cl_device_id>(second), param, n, v, r);
      });
    case ObjectKind::kKernelWorkGroup:
      return query([&](size_t n, void *v, size_t *r) {
        return vendor_work_group_info(as<cl_kernel>(h), as<cl_device_id>(second), param, n, v, r);
      });
    case ObjectKind::kSampler:
      return query([&](size_t n, void *v, size_t *r) { return vendor_info(as<cl_sampler>(h), param, n, v, r); });
    case ObjectKind::kImage:
      return query([&](size_t n, void *v, size_t *r) { return vendor_image_info(as<cl_mem>(h), param, n, v, r); });
    case ObjectKind::kKernelArg:
      return query([&](size_t n, void *v, size_t *r) {
        return vendor_arg_info(as<cl_kernel>(h), static_cast<cl_uint>(second), param, n, v, r);
      });
  }
  return CL_INVALID_VALUE;
}

}  // namespace unicl::cluster
