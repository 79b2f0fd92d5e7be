#include "cluster/client/mpi_link.hpp"
#include "cluster/client/paced_sends.hpp"

#include "cluster/protocol/hwloc_plugins.hpp"
#include "cluster/protocol/arrived.hpp"
#include "cluster/protocol/idle_backoff.hpp"

#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <utility>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace unicl::cluster {
namespace {

// libmpi reached through a library the ICD loader opened with RTLD_LOCAL:
// Open MPI's components, which it dlopens itself, then miss its symbols.
// Re-opening it with RTLD_GLOBAL makes them visible.
void make_mpi_symbols_global() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&MPI_Init_thread), &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

MPI_Comm &comm_of(const std::shared_ptr<void> &p) { return *static_cast<MPI_Comm *>(p.get()); }

// MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still
// works: the hook through which UniCL learns that the application finalizes
// an MPI it initialized itself.
int on_self_deleted(MPI_Comm, int, void *, void *link) {
  static_cast<MpiLink *>(link)->application_finalizes();
  return MPI_SUCCESS;
}

// hwloc_plugins.hpp says why MPI_Init must not meet hwloc's OpenCL plugin:
// run by MPI_Init on the MPI thread, it calls clGetPlatformIDs while the ICD
// loader is still initializing on the thread that waits here for MPI (seen
// under gdb: a deadlock). `unicl run` sets the variable before the program
// starts; a program started otherwise gets it here, the one change UniCL
// makes to its host's environment, only when missing, on the thread
// discovering the platforms, before the MPI thread exists.
void keep_hwloc_plugins_out() {
  std::string value = hwloc_blacklist_with_ours(std::getenv(kHwlocBlacklistVariable));
  if (!value.empty()) setenv(kHwlocBlacklistVariable, value.c_str(), 1);
}

}  // namespace

std::unique_ptr<MpiLink> MpiLink::open(std::string &why, const Spawn *spawn) {
  std::unique_ptr<MpiLink> link(new MpiLink);  // private constructor: make_unique cannot reach it
  if (spawn) link->spawn_ = *spawn;
  keep_hwloc_plugins_out();
  link->thread_ = std::thread([l = link.get()] { l->run(); });
  std::unique_lock lock(link->mutex_);
  link->changed_.wait(lock, [&] { return link->started_; });
  if (!link->failure_.empty()) {
    why = link->failure_;
    lock.unlock();
    link->thread_.join();
    link->thread_ = {};
    return nullptr;
  }
  return link;
}

MpiLink::~MpiLink() { stop_thread(); }

void MpiLink::stop_thread() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void MpiLink::application_finalizes() {
  std::function<void()> fn;
  {
    std::lock_guard lock(mutex_);
    fn = std::move(before_finalize_);
  }
  if (fn) fn();
  stop_thread();
}

bool MpiLink::queue_request(int rank, uint64_t call, Op op, const Writer &args, Bulk bulk) {
  Batch &batch = outbox_[rank];
  const bool was_empty = batch.requests.empty();
  requests_sent_.fetch_add(1, std::memory_order_relaxed);
  const RequestHeader header{call, op, static_cast<uint32_t>(args.size())};
  const auto *h = reinterpret_cast<const char *>(&header);
  batch.requests.insert(batch.requests.end(), h, h + sizeof header);
  batch.requests.insert(batch.requests.end(), args.buffer().begin(), args.buffer().end());
  if (bulk.size) batch.bulk.push_back(std::move(bulk));
  return was_empty;
}

std::vector<const Doorbell *> MpiLink::doorbells_to_ring(const std::map<int, Batch> &out) {
  std::vector<const Doorbell *> bells;
  const auto now = std::chrono::steady_clock::now();
  for (const auto &[rank, batch] : out) {
    auto bell = doorbells_.find(rank);
    if (contacts_[rank].sent_after_quiet(now) && bell != doorbells_.end() && bell->second.rings())
      bells.push_back(&bell->second);
  }
  return bells;
}

bool MpiLink::post(int rank, Op op, const Writer &args, Bulk bulk) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (stop_ || lost_ranks_.count(rank)) return false;
    wake = queue_request(rank, 0, op, args, std::move(bulk));
  }
  // A batch already queued was announced: the thread takes this request
  // with it.
  if (wake) changed_.notify_all();
  return true;
}

cl_int MpiLink::call(int rank, Op op, const Writer &args, std::vector<char> &reply, std::chrono::milliseconds timeout,
                     Bulk bulk) {
  auto pending = std::make_shared<Pending>();
  pending->rank = rank;
  uint64_t call = 0;
  {
    std::lock_guard lock(mutex_);
    if (stop_ || lost_ranks_.count(rank)) return CL_DEVICE_NOT_AVAILABLE;
    calls_waited_.fetch_add(1, std::memory_order_relaxed);
    start_awaiting(rank);
    call = next_call_++;
    queue_request(rank, call, op, args, std::move(bulk));
    pending_[call] = pending;
  }
  changed_.notify_all();
  std::unique_lock lock(mutex_);
  if (!wait_briefly_spinning(lock, changed_, [&] { return pending->done; }, kCallerSpin, timeout)) {
    pending_.erase(call);  // a reply that comes later is dropped
    return CL_DEVICE_NOT_AVAILABLE;
  }
  reply = std::move(pending->reply);
  return pending->status;
}

void MpiLink::run_on_thread(std::function<void(void *comm)> fn) {
  std::mutex done_mutex;
  std::condition_variable done_changed;
  bool done = false;
  {
    std::lock_guard lock(mutex_);
    if (stop_) return;
    on_thread_.push_back([&, fn] {
      fn(&comm_of(comm_));
      std::lock_guard l(done_mutex);
      done = true;
      done_changed.notify_all();
    });
  }
  changed_.notify_all();
  std::unique_lock lock(done_mutex);
  done_changed.wait(lock, [&] { return done; });
}

void MpiLink::check_liveness() {
  using namespace std::chrono;
  std::vector<int> now_lost;
  std::vector<std::shared_ptr<Pending>> failed;
  std::function<void(int)> handler;
  {
    std::lock_guard lock(mutex_);
    if (timeout_.count() == 0) return;
    const auto now = steady_clock::now();
    std::set<int> waited;  // ranks something is awaited from
    for (auto &[call, p] : pending_) waited.insert(p->rank);
    for (auto &[rank, n] : awaited_from_)
      if (n > 0) waited.insert(rank);
    for (int rank : waited) {
      if (lost_ranks_.count(rank)) continue;
      auto heard = last_heard_.try_emplace(rank, now).first->second;
      if (now - heard > timeout_) {
        lost_ranks_.insert(rank);
        now_lost.push_back(rank);
      } else if (now - heard > timeout_ / 4 && now - last_ping_[rank] > timeout_ / 4) {
        // Quiet for a while: ask (any answer counts as a sign of life).
        last_ping_[rank] = now;
        queue_request(rank, next_call_++, Op::kPing, Writer{}, {});
      }
    }
    for (int rank : now_lost) {
      for (auto it = pending_.begin(); it != pending_.end();) {
        if (it->second->rank != rank) {
          ++it;
          continue;
        }
        it->second->status = CL_DEVICE_NOT_AVAILABLE;
        it->second->done = true;
        failed.push_back(it->second);
        it = pending_.erase(it);
      }
      awaited_from_[rank] = 0;
    }
    handler = lost_handler_;
  }
  if (!failed.empty()) changed_.notify_all();
  for (int rank : now_lost)
    if (handler) handler(rank);
}

bool MpiLink::poll() {
  MPI_Comm comm = comm_of(comm_);
  bool any = false;
  for (;;) {
    MPI_Status status;
    // Any tag: a node's reply and its event messages are taken in the order
    // it sent them.
    if (!arrived(comm, MPI_ANY_SOURCE, MPI_ANY_TAG, status)) return any;
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> message(static_cast<size_t>(bytes));
    MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
    received_.add(message.size());
    any = true;
    {
      std::lock_guard lock(mutex_);
      last_heard_[status.MPI_SOURCE] = std::chrono::steady_clock::now();
    }
    contacts_[status.MPI_SOURCE].heard();
    if (status.MPI_TAG == kEventTag) {
      receive_report(status.MPI_SOURCE, message);
      continue;
    }
    if (status.MPI_TAG != kReplyTag) continue;
    if (message.size() < sizeof(ReplyHeader)) continue;  // not a reply of ours
    ReplyHeader header;
    std::memcpy(&header, message.data(), sizeof header);
    std::lock_guard lock(mutex_);
    auto it = pending_.find(header.call);
    if (it == pending_.end()) continue;  // its caller gave up waiting
    it->second->status = header.status;
    it->second->reply.assign(message.begin() + sizeof header, message.end());
    it->second->done = true;
    pending_.erase(it);
    changed_.notify_all();
  }
}

void MpiLink::receive_report(int source, const std::vector<char> &message) {
  MPI_Comm comm = comm_of(comm_);
  EventHandler handler;
  EventDestination destination;
  int64_t offset = 0;
  {
    std::lock_guard lock(mutex_);
    handler = event_handler_;
    destination = event_destination_;
    if (auto it = clock_offsets_.find(source); it != clock_offsets_.end()) offset = it->second;
  }
  Reader r(message);
  try {
    for (auto n = r.get<uint32_t>(); n > 0; --n) {
      EventEnded ended = read_event_ended(r);
      ended.shift_times(-static_cast<uint64_t>(offset));  // the node's steady clock onto this rank's
      {
        std::lock_guard lock(mutex_);
        if (awaited_from_[source] > 0) --awaited_from_[source];
      }
      const char *bytes = nullptr;
      std::vector<char> received;
      if (ended.bytes && inline_payload(ended.bytes)) {
        bytes = r.raw(ended.bytes);
        if (void *into = destination ? destination(ended.id, ended.bytes) : nullptr) {
          std::memcpy(into, bytes, ended.bytes);
          bytes = nullptr;
        }
      } else if (ended.bytes) {
        // The bytes follow from the same node, in the report's order:
        // straight into their place when there is one.
        void *into = destination ? destination(ended.id, ended.bytes) : nullptr;
        if (!into) received.resize(ended.bytes), into = received.data();
        const auto start = std::chrono::steady_clock::now();
        for_each_part(ended.bytes, [&](size_t at, size_t part) {
          MPI_Recv(static_cast<char *>(into) + at, static_cast<int>(part), MPI_BYTE, source, kDataTag, comm,
                   MPI_STATUS_IGNORE);
          received_.add(part);
        });
        bulk_bytes_.fetch_add(ended.bytes, std::memory_order_relaxed);
        // The read's time, which UniCL learns its link from this device
        // from, ends when its bytes are here: their trip is added to the
        // node's end.
        if (ended.end > 0)
          ended.end += static_cast<cl_ulong>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
        bytes = received.empty() ? nullptr : received.data();
      }
      if (handler) handler(ended, bytes, bytes ? ended.bytes : 0);
    }
  } catch (const Truncated &) {
    std::fprintf(stderr, "UniCL cluster: a malformed report from rank %d; the rest of it is dropped\n", source);
  }
}

std::string MpiLink::start_nodes() {
  // A program that cannot run would make MPI_Comm_spawn wait forever.
  if (access(spawn_.program.c_str(), X_OK) != 0) return spawn_.program + " cannot be run";
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Info info;
  MPI_Info_create(&info);
  // More nodes than cores is what a test on one machine does.
  MPI_Info_set(info, "map_by", ":OVERSUBSCRIBE");
  if (!spawn_.hosts.empty()) MPI_Info_set(info, "host", spawn_.hosts.c_str());
  MPI_Comm nodes = MPI_COMM_NULL;
  std::vector<int> errors(static_cast<size_t>(spawn_.count));
  const int err = MPI_Comm_spawn(spawn_.program.c_str(), MPI_ARGV_NULL, spawn_.count, info, 0, MPI_COMM_SELF, &nodes,
                                 errors.data());
  MPI_Info_free(&info);
  if (err != MPI_SUCCESS) return "MPI_Comm_spawn of " + spawn_.program + " failed";
  // One communicator with the nodes, this process first.
  MPI_Intercomm_merge(nodes, 0, &comm_of(comm_));
  MPI_Comm_free(&nodes);
  return {};
}

void MpiLink::run() {
  int ready = 0;
  MPI_Initialized(&ready);
  std::string failure;
  if (!ready) {
    make_mpi_symbols_global();
    int provided = 0;
    // This thread makes every MPI call: it needs no more than FUNNELED,
    // but asks for MULTIPLE so that later nodes' threads could share it.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
      failure = "MPI_Init_thread failed";
    else
      initialized_here_ = true;
  } else {
    int level = 0;
    MPI_Query_thread(&level);
    if (level < MPI_THREAD_MULTIPLE)
      failure = "the application initialized MPI without MPI_THREAD_MULTIPLE; UniCL calls MPI from a thread of its own";
  }
  if (failure.empty()) {
    comm_ = std::shared_ptr<void>(new MPI_Comm(MPI_COMM_NULL), [](void *p) { delete static_cast<MPI_Comm *>(p); });
    if (spawn_.count > 0) failure = start_nodes();
    else MPI_Comm_dup(MPI_COMM_WORLD, &comm_of(comm_));
  }
  if (failure.empty()) {
    MPI_Comm_set_errhandler(comm_of(comm_), MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_of(comm_), &rank_);
    MPI_Comm_size(comm_of(comm_), &size_);
    if (!initialized_here_) {
      int key = MPI_KEYVAL_INVALID;
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &on_self_deleted, &key, this);
      MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
    }
  }
  {
    std::lock_guard lock(mutex_);
    failure_ = failure;
    started_ = true;
  }
  changed_.notify_all();
  if (!failure.empty()) {
    if (initialized_here_) MPI_Finalize();
    return;
  }

  PacedSends sends(comm_of(comm_));
  // While something is awaited this thread polls; the pause between polls
  // grows while nothing comes (idle_backoff.hpp). Callers wake it at once.
  IdleBackoff backoff(kYieldAfterActivity, std::chrono::microseconds(200));
  IdleBackoff::tight_timers();
  for (;;) {
    std::map<int, Batch> out;
    std::deque<std::function<void()>> jobs;
    std::vector<const Doorbell *> to_ring;
    bool stopping = false, waiting = false;
    {
      std::unique_lock lock(mutex_);
      // Nothing to send, none in flight and no reply awaited: sleep until a
      // caller comes, unless one came lately (the next call of a loop of
      // them then finds the thread awake: waking it costs tens of us).
      if (backoff.pause().count() > 0)
        changed_.wait(lock, [&] {
          return stop_ || !outbox_.empty() || !pending_.empty() || !sends.idle() || events_awaited() ||
                 !on_thread_.empty();
        });
      // A node rang: its message is here, or about to be.
      if (std::exchange(rung_, false)) backoff.active();
      out.swap(outbox_);
      jobs.swap(on_thread_);
      stopping = stop_;
      waiting = !pending_.empty() || events_awaited();
      to_ring = doorbells_to_ring(out);
    }
    if (!out.empty() || !jobs.empty()) backoff.active();
    for (auto &[rank, batch] : out) {
      sent_.add(batch.requests.size());
      sends.request(rank, kRequestTag, std::move(batch.requests));
      for (Bulk &b : batch.bulk) {
        for_each_part(b.size, [&](size_t at, size_t n) {
          sent_.add(n);
          sends.bulk(rank, kDataTag, static_cast<const char *>(b.data) + at, n, b.keep);  // kept until sent
        });
        bulk_bytes_.fetch_add(b.size, std::memory_order_relaxed);
      }
    }
    // After the sends: the node, woken, finds the batch there.
    for (const Doorbell *bell : to_ring) bell->ring();
    for (auto &job : jobs) job();
    check_liveness();
    // A send that finished is news: what it brought is often answered
    // within microseconds (a write's end follows its last part).
    const bool sent = sends.progress();
    const bool progressed = poll() || sent;
    if (progressed) backoff.active();
    if (stopping && sends.idle()) break;
    if (stopping && !waiting) {
      // Sends to a node that no longer receives never complete: cancel them
      // rather than hang the application's exit.
      sends.cancel();
      break;
    }
    // Polling, as MPI itself does while it waits, but yielding or sleeping
    // so that the application and the vendors keep the cores they need.
    // Sends in flight progress only inside MPI calls: short sleeps then
    // (kMovingPause), whether or not a reply is awaited.
    if (progressed) continue;
    const auto pause = sends.idle() ? backoff.pause() : kMovingPause;
    if (pause.count() == 0) {
      std::this_thread::yield();
      continue;
    }
    if (!waiting && sends.idle()) continue;  // asleep above until a caller comes
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, pause, [&] { return stop_ || !outbox_.empty() || !on_thread_.empty() || rung_; });
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  bool any_lost = false;
  {
    std::lock_guard lock(mutex_);
    any_lost = !lost_ranks_.empty();
  }
  // MPI_Finalize waits for every rank, a stopped one too: with a node lost,
  // the job is ended instead (mpirun then kills what is left of it, and
  // reports the abort).
  if (!finalized && any_lost) {
    std::fprintf(stderr, "UniCL cluster: a node was lost; ending the MPI job (MPI_Abort) instead of finalizing\n");
    MPI_Abort(comm_of(comm_), 1);
  } else if (!finalized) {
    MPI_Comm_free(&comm_of(comm_));
    if (initialized_here_) MPI_Finalize();
  }
}

}  // namespace unicl::cluster
