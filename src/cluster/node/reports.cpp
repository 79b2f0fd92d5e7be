// The ends of the node's commands and when rank 0 hears of them.
//
// A vendor callback records each end; the serving loop sends every end
// recorded so far in one report (kEventTag), with the bytes reads brought
// back. Not at once for every end: rank 0 marks the commands it will wait
// for (kPrompt: a blocking call, an event it handed out, a queue it waited
// for before), and asks for the others when it comes to wait for them
// (kReportNow). An end nobody awaits waits for the next report, at most
// kHold: a stream of launches then costs a report per many launches instead
// of one each, and what waits is still told at once.
#include <algorithm>
#include <utility>

#include "backend/vendor_info.hpp"
#include "backend/vendor_status.hpp"
#include "cluster/node/server.hpp"
#include "cluster/protocol/steady_clock.hpp"

namespace unicl::cluster {

std::shared_ptr<NodeServer::Awaited> NodeServer::report_when_done(uint64_t id, cl_event event, Watch w) {
  auto a = std::make_shared<Awaited>();
  a->event = event, a->queue = w.queue, a->read = std::move(w.read), a->keep_alive = std::move(w.keep_alive);
  a->mapped = std::move(w.mapped), a->to = w.to, a->before_ns = w.before_ns, a->prompt = w.prompt;
  {
    std::lock_guard lock(reports_mutex_);
    awaited_[id] = a;
    end_order_.await(id, w.follows);
  }
  const bool slow = slow_read_ends_ && a->to.rank < 0 && ((a->read && !a->read->empty()) || a->mapped);
  cl_int refused = when_vendor_status(event, CL_COMPLETE, [this, id, a, slow](cl_int status) {
    if (slow) return slow_read_ends_->post([this, id, a, status] { report(id, *a, status); });
    report(id, *a, status);
  });
  if (refused != CL_SUCCESS) report(id, *a, refused);
  return a;
}

void NodeServer::report(uint64_t id, Awaited &a, cl_int status) {
  if (a.reported.exchange(true)) return;
  cl_event event = a.event;
  if (a.to.rank >= 0) {
    // A read for another node: its bytes (or its failure) go there.
    PeerReport r;
    r.header = PeerHeader{a.to.id, status < 0 ? status : CL_SUCCESS, 0, a.to.offset, status < 0 ? 0 : a.to.size};
    cl_ulong start = 0, end = 0;
    if (status >= 0 &&
        vendor_profiling_info(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS &&
        vendor_profiling_info(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS && end > start)
      r.header.read_ns = end - start;
    if (status >= 0) r.bytes = a.read;
    r.bytes_offset = a.to.from + a.to.offset;
    r.peer_rank = a.to.rank;
    r.read_id = id;
    r.mapped = std::move(a.mapped);  // let go on the serving thread
    std::lock_guard lock(reports_mutex_);
    peer_parts_.push_back(std::move(r));
    awaited_.erase(id);
    auto ready = end_order_.ended(id);
    if (!ready.empty()) ready.erase(ready.begin());  // its own: it goes to the other node
    queue_ends(ready);
    reports_changed_.notify_one();
    return;
  }
  Report r;
  r.ended.id = id;
  r.ended.status = status < 0 ? status : CL_COMPLETE;
  const bool with_bytes = status >= 0 && ((a.read && !a.read->empty()) || a.mapped);
  r.ended.bytes = !with_bytes ? 0 : a.mapped ? a.mapped->size : a.read->size();
  auto time = [event](cl_profiling_info what) {
    cl_ulong t = 0;
    return vendor_profiling_info(event, what, sizeof t, &t, nullptr) == CL_SUCCESS ? t : 0;
  };
  if (status >= 0) {
    EventEnded &e = r.ended;
    e.queued = time(CL_PROFILING_COMMAND_QUEUED), e.submit = time(CL_PROFILING_COMMAND_SUBMIT);
    e.start = time(CL_PROFILING_COMMAND_START), e.end = time(CL_PROFILING_COMMAND_END);
    // A write of another node's bytes lasts from that node's read on.
    // (queued <= submit <= start, as the spec orders them: moved back too)
    if (uint64_t before = a.before_ns.load(); before && e.start > before) e.start_at(e.start - before);
  }
  // Onto this machine's steady clock: this runs as the command ends (its
  // vendor callback), so its END is now.
  if (status >= 0 && r.ended.end) {
    r.ended.shift_times(steady_ns() - r.ended.end);
    // A copy from another node (or device of this one) lasts from its first
    // part's read on: its event is a marker or unmap after the parts' writes,
    // which starts as the last of them ends.
    r.ended.start_at(a.began_ns.load());
  }
  if (with_bytes) r.bytes = a.read;
  r.mapped = std::move(a.mapped);  // unmapped once sent (or at once), on the serving thread
  r.prompt = a.prompt || status < 0;
  r.at = std::chrono::steady_clock::now();
  std::lock_guard lock(reports_mutex_);
  held_ends_.emplace(id, std::move(r));
  queue_ends(end_order_.ended(id));
}

void NodeServer::queue_ends(const std::vector<uint64_t> &ids) {
  for (uint64_t id : ids) {
    auto held = held_ends_.find(id);
    auto awaited = awaited_.find(id);
    if (held == held_ends_.end()) continue;
    Report &r = held->second;
    // Asked for (kReportNow) while it was held: it goes out with the next report.
    if (awaited != awaited_.end() && awaited->second->prompt) r.prompt = true;
    if (r.prompt) report_asked_ = true;
    ends_.push_back(std::move(r));
    held_ends_.erase(held);
    if (awaited != awaited_.end()) awaited_.erase(awaited);
  }
  if (!ids.empty()) reports_changed_.notify_one();
}

std::vector<uint64_t> NodeServer::predecessors(const CommandHeader &h, cl_command_queue queue, bool all_before,
                                               bool barrier) {
  auto it = queue_order_.find(queue);
  if (it == queue_order_.end()) return h.wait;
  QueueOrder &order = it->second;
  if (order.wants_pruning()) {
    std::lock_guard lock(reports_mutex_);
    order.prune([this](uint64_t id) { return !end_order_.awaited(id); });
  }
  return order.enqueued(h.event, h.wait, all_before, barrier);
}

void NodeServer::report_now(uint64_t queue) {
  std::lock_guard lock(reports_mutex_);
  for (auto &[id, a] : awaited_)
    if (queue == 0 || a->queue == queue) a->prompt = true;
  report_asked_ = true;
}

bool NodeServer::send_reports(std::chrono::steady_clock::time_point &wake) {
  std::deque<Report> out;
  {
    std::lock_guard lock(reports_mutex_);
    if (ends_.empty()) {
      report_asked_ = false;
      return false;
    }
    if (!report_asked_ && std::chrono::steady_clock::now() - ends_.front().at < kHold) {
      wake = ends_.front().at + kHold;
      return false;
    }
    out.swap(ends_);
    report_asked_ = false;
  }
  // The ends, with the bytes of small reads inline; larger bytes follow, in
  // the same order, mapped or staged.
  auto bytes_of = [](const Report &r) -> const char * {
    return r.mapped ? r.mapped->data : r.bytes ? r.bytes->data() : nullptr;
  };
  Writer w;
  w.put<uint32_t>(static_cast<uint32_t>(out.size()));
  for (auto &r : out) {
    write(w, r.ended);
    if (r.ended.bytes && inline_payload(r.ended.bytes)) w.raw(bytes_of(r), r.ended.bytes);
  }
  MPI_Send(w.buffer().data(), static_cast<int>(w.size()), MPI_BYTE, 0, kEventTag, comm_);
  sent_to_rank0();
  for (auto &r : out) {
    if (r.ended.bytes && !inline_payload(r.ended.bytes))
      for_each_part(r.ended.bytes, [&](size_t at, size_t n) {
        MPI_Send(bytes_of(r) + at, static_cast<int>(n), MPI_BYTE, 0, kDataTag, comm_);
      });
    reported_.push_back(r.ended);
  }
  return true;
}

void NodeServer::send_reports_meanwhile() {
  auto wake = std::chrono::steady_clock::time_point::max();
  send_reports(wake);
}

void NodeServer::forget_reported() {
  // Rank 0 knows the ends now: a later wait list naming the command waits
  // for nothing, or fails with it.
  for (const EventEnded &e : reported_) {
    objects_.events.erase(e.id);
    if (e.status < 0) objects_.fail(e.id, e.status);
  }
  reported_.clear();
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

}  // namespace unicl::cluster
