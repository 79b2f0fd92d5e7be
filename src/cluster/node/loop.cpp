// The node's serving loop and transport: it takes rank 0's batches of
// requests and runs them in order, answers the few that wait, flushes the
// queues that got commands, and sends what vendor callbacks queued (ends of
// commands, parts of copies between nodes).
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>

#include "backend/vendor_objects.hpp"
#include "cluster/protocol/arrived.hpp"
#include "cluster/protocol/idle_backoff.hpp"
#include "cluster/node/server.hpp"
#include "cluster/protocol/ping_pong.hpp"
#include "cluster/protocol/steady_clock.hpp"

namespace unicl::cluster {

NodeServer::NodeServer(MPI_Comm comm, int rank, NodeDescription self, uint32_t protocol)
    : comm_(comm), rank_(rank), self_(std::move(self)), protocol_(protocol) {
  doorbell_ = std::make_unique<DoorbellListener>([this] {
    std::lock_guard lock(reports_mutex_);
    rung_ = true;
    reports_changed_.notify_one();
  });
  self_.doorbell = doorbell_->where();
}

void NodeServer::serve() {
  // Polled, pausing longer the longer nothing comes (idle_backoff.hpp): a
  // blocking MPI_Probe would spin, holding a core all the time the node is
  // idle. Vendor callbacks wake a sleeping loop at once, and so does rank 0
  // when it sends after a quiet while (its doorbell); requests it did not
  // ring for are seen at the next poll: within 1 ms when long idle, within
  // 200 us while it awaits its commands' ends.
  IdleBackoff idle(std::chrono::microseconds(200), std::chrono::milliseconds(1));
  IdleBackoff awaiting(kYieldAfterActivity, std::chrono::microseconds(200));
  IdleBackoff::tight_timers();
  for (bool serving = true; serving;) {
    auto wake = std::chrono::steady_clock::time_point::max();
    if (send_due(wake)) awaiting.active();
    bool idle_now = false, moving = false;
    {
      std::lock_guard lock(reports_mutex_);
      // Bytes on their way (copies between nodes, writes' parts) progress
      // only inside MPI calls: polled with short sleeps (kMovingPause).
      moving = !peer_gates_.empty() || !peer_sends_.empty() || !arrivals_.empty();
      idle_now = awaited_.empty() && ends_.empty() && !moving;
    }
    if (!idle_now) check_failed();
    if (moving) finish_peer_sends();
    // Requests first: a copy's request handled before its bytes lets them
    // go straight into place (a part that comes first is received aside, in
    // memory of its own, and copied later).
    if (receive_batch(serving) || receive_peer_part()) {
      idle.active(), awaiting.active();
      continue;
    }
    if (pause(moving ? kMovingPause : (idle_now ? idle : awaiting).pause(), wake)) idle.active(), awaiting.active();
  }
  // After the goodbye nothing more is sent: rank 0 no longer receives, and a
  // report too large to go out at once would wait for it forever, keeping
  // this node from MPI_Finalize and rank 0's MPI_Finalize waiting for it.
}

bool NodeServer::send_due(std::chrono::steady_clock::time_point &wake) {
  const bool bytes_in = take_arrivals();
  bool sent = send_peer_parts();
  sent = send_reports(wake) || sent;
  forget_reported();
  return sent || bytes_in;
}

bool NodeServer::receive_peer_part() {
  // Also when no copy is awaited: a part may come before its request.
  MPI_Status status;
  if (!arrived(comm_, MPI_ANY_SOURCE, kPeerTag, status)) return false;
  receive_peer_bytes(status);
  return true;
}

bool NodeServer::receive_batch(bool &serving) {
  MPI_Status status;
  if (!arrived(comm_, MPI_ANY_SOURCE, kRequestTag, status)) return false;
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  std::vector<char> message(static_cast<size_t>(bytes));
  MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kRequestTag, comm_, MPI_STATUS_IGNORE);
  if (status.MPI_SOURCE == 0) rank0_contact_.heard();
  serve_batch(message, status.MPI_SOURCE, serving);
  flush_queues();
  return true;
}

void NodeServer::sent_to_rank0() {
  if (rank0_contact_.sent_after_quiet()) rank0_bell_.ring();
}

bool NodeServer::pause(std::chrono::microseconds pause, std::chrono::steady_clock::time_point wake) {
  if (pause.count() == 0) {
    std::this_thread::yield();
    return false;  // a ring meanwhile ends the next sleep at once
  }
  // Not past the moment a held report is due.
  const auto now = std::chrono::steady_clock::now();
  if (wake != std::chrono::steady_clock::time_point::max())
    pause = std::min(pause, std::chrono::duration_cast<std::chrono::microseconds>(
                                std::max(wake - now, std::chrono::steady_clock::duration::zero())));
  std::unique_lock lock(reports_mutex_);
  reports_changed_.wait_for(lock, pause, [&] { return !peer_parts_.empty() || report_asked_ || rung_; });
  return std::exchange(rung_, false);
}

void NodeServer::serve_batch(const std::vector<char> &message, int from, bool &serving) {
  Reader batch(message);
  while (serving && !batch.done()) {
    RequestHeader header;
    const char *args_at = nullptr;
    try {
      header = batch.get<RequestHeader>();
      args_at = batch.raw(header.size);
    } catch (const Truncated &) {
      std::fprintf(stderr, "unicl-node (rank %d): a malformed batch from rank %d; the rest is dropped\n", rank_, from);
      return;
    }
    Reader args(args_at, header.size);
    if (header.op == Op::kRawPingPong) {
      const auto p = read_message<PingPong>(args);
      answer_ping_pong(comm_, from, p.size, p.count);
      continue;
    }
    Writer result;
    cl_int err = CL_SUCCESS;
    try {
      err = handle(header.op, args, result, from, serving);
    } catch (const Truncated &) {
      err = CL_INVALID_VALUE;
    }
    if (signal_after_ > 0 && ++handled_ == signal_after_) std::raise(signal_);  // tests' faults
    if (header.call == 0) continue;  // posted: nobody waits for an answer
    Writer reply;
    reply.put(ReplyHeader{header.call, err});
    reply.raw(result.buffer().data(), result.size());
    MPI_Send(reply.buffer().data(), static_cast<int>(reply.size()), MPI_BYTE, from, kReplyTag, comm_);
    if (from == 0) sent_to_rank0();
  }
}

cl_int NodeServer::handle(Op op, Reader &args, Writer &result, int from, bool &serving) {
  switch (op) {
    case Op::kHello: {
      const auto hello = read_message<Hello>(args);
      write(result, Hello{kMagic, protocol_});
      if (hello.magic != kMagic || hello.version != protocol_) {
        std::fprintf(stderr, "unicl-node (rank %d): rank %d speaks protocol %u, this node %u: not serving it\n", rank_,
                     from, hello.version, protocol_);
        return CL_INVALID_VALUE;
      }
      rank0_bell_ = Doorbell(read_message<DoorbellAt>(args));
      write(result, self_);
      return CL_SUCCESS;
    }
    case Op::kBye:
      serving = false;
      return CL_SUCCESS;
    case Op::kPing:
      result.put(steady_ns());
      return CL_SUCCESS;
    case Op::kRawPingPongWith: {
      const auto p = read_message<PingPongWith>(args);
      result.put(start_ping_pong(comm_, p.peer, p.size, p.count));
      return CL_SUCCESS;
    }
    case Op::kPeerCancel: {
      const auto cancel = read_message<PeerCancel>(args);
      open_gate(cancel.id, static_cast<size_t>(-1), cancel.status);
      return CL_SUCCESS;
    }
    case Op::kRelease: {
      const auto r = read_message<Release>(args);
      release(r.kind, r.id);
      return CL_SUCCESS;
    }
    case Op::kReportNow: report_now(read_message<ReportNow>(args).queue); return CL_SUCCESS;
    case Op::kWriteBytes: write_bytes(args); return CL_SUCCESS;
    case Op::kInfo: return info(args, result);
    case Op::kBuildProgram: return build_program(args, result);
    case Op::kCompileProgram: return compile_program(args, result);
    case Op::kLinkProgram: return link_program(args, result);
    case Op::kCreateProgramBinary: return program_from_binary(args, result);
    case Op::kCreateContext: return create_context(args);
    case Op::kCreateQueue: return create_queue(args);
    case Op::kCreateBuffer: return create_buffer(args);
    case Op::kCreateSubBuffer: return create_sub_buffer(args);
    case Op::kCreateImage: return create_image(args);
    case Op::kCreateSampler: return create_sampler(args);
    case Op::kCreateProgram: return create_program(args);
    case Op::kCreateKernel: return create_kernel(args);
    case Op::kCreateUserEvent: return create_user_event(args);
    case Op::kSetUserEventStatus: return set_user_event_status(args);
    case Op::kSetKernelArgs: return set_kernel_args(args);
    case Op::kImageFormats: return image_formats(args, result);
    default: command(op, args); return CL_SUCCESS;
  }
}

NodeServer::Payload NodeServer::read_payload(Reader &args) {
  Payload p;
  p.size = args.get<uint64_t>();
  switch (args.get<PayloadAt>()) {
    case PayloadAt::kInline: p.inline_bytes = args.raw(p.size); break;
    case PayloadAt::kLater: p.later = true; break;
    case PayloadAt::kAfter: break;
    default: throw Truncated();  // not of this protocol
  }
  return p;
}

void NodeServer::receive_payload(const Payload &p, char *into, uint64_t &trip_ns) {
  if (p.later) return;  // kWriteBytes brings them
  if (p.inline_bytes) {
    if (p.size) std::memcpy(into, p.inline_bytes, p.size);
    return;
  }
  for_each_part(p.size, [&](size_t at, size_t n) {
    const auto start = std::chrono::steady_clock::now();
    MPI_Recv(into + at, static_cast<int>(n), MPI_BYTE, 0, kDataTag, comm_, MPI_STATUS_IGNORE);
    trip_ns += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    send_reports_meanwhile();
  });
}

void NodeServer::flush_queues() {
  for (cl_command_queue q : to_flush_) vendor_flush(q);
  to_flush_.clear();
}

}  // namespace unicl::cluster
