// Rank 0's side of the conversation with the nodes: one communication
// thread makes every MPI call of UniCL's (so the application's threads never
// wait on the network, and an MPI without MPI_THREAD_MULTIPLE is called from
// one thread only); callers hand it requests and wait for their replies.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cluster/protocol/doorbell.hpp"
#include "cluster/protocol/messages.hpp"

namespace unicl::cluster {

class MpiLink {
 public:
  // Node processes this process starts itself (UNICL_NODES): `count` runs
  // of `program` on `hosts` (Open MPI's "host" list; empty: this host).
  struct Spawn {
    std::string program;
    int count = 0;
    std::string hosts;
  };
  // Joins the MPI job: initializes MPI unless the application did (then it
  // must have asked for MPI_THREAD_MULTIPLE, as UniCL calls MPI from a thread
  // of its own), and makes UniCL's own communicator, a duplicate of
  // MPI_COMM_WORLD (collective: every node makes it too). With `spawn`, the
  // nodes are started instead, and the communicator joins them (rank 0 this
  // process). Null, with the reason in `why`, when that fails.
  static std::unique_ptr<MpiLink> open(std::string &why, const Spawn *spawn = nullptr);
  // Stops the thread (finalizing MPI if this link initialized it); calls
  // made after it fail at once. The destructor closes too.
  void close() { stop_thread(); }
  ~MpiLink();
  MpiLink(const MpiLink &) = delete;
  MpiLink &operator=(const MpiLink &) = delete;

  // `fn` runs once before MPI is finalized: when the application finalizes
  // an MPI it initialized itself (from the MPI_COMM_SELF attribute that
  // MPI_Finalize deletes first), after which the link stops; otherwise it is
  // the owner's to call before destroying the link.
  void before_finalize(std::function<void()> fn) {
    std::lock_guard lock(mutex_);
    before_finalize_ = std::move(fn);
  }
  // Called by MPI_Finalize's attribute deletion (mpi_link.cpp).
  void application_finalizes();

  // Where this rank's doorbell rings (protocol/doorbell.hpp), for the nodes.
  DoorbellAt doorbell_at() const { return doorbell_->where(); }
  // Node `rank`'s doorbell, rung with a batch sent after a quiet while
  // (kRingAfterQuiet).
  void doorbell(int rank, Doorbell bell) {
    std::lock_guard lock(mutex_);
    doorbells_[rank] = std::move(bell);
  }

  // Runs `fn` on the communication thread, with UniCL's communicator, and
  // waits for it (bench-cluster's plain MPI baseline).
  void run_on_thread(std::function<void(void *comm)> fn);

  // Bulk bytes (writes' and reads', kDataTag) this rank sent or received
  // so far: what a copy between two nodes must not add to.
  uint64_t bulk_bytes() const { return bulk_bytes_.load(std::memory_order_relaxed); }

  // What crossed the link so far, counted at each MPI send and receive of
  // UniCL's own (not the plain MPI baselines of run_on_thread), and how
  // many calls waited for a node's reply: the measures of the protocol's
  // cost that do not depend on the machine's load. Requests are counted
  // apart from messages: a message carries a batch of them.
  struct Counts {
    uint64_t messages_sent = 0, bytes_sent = 0, messages_received = 0, bytes_received = 0, calls_waited = 0,
             requests_sent = 0;
  };
  Counts counts() const {
    return {sent_.messages.load(std::memory_order_relaxed), sent_.bytes.load(std::memory_order_relaxed),
            received_.messages.load(std::memory_order_relaxed), received_.bytes.load(std::memory_order_relaxed),
            calls_waited_.load(std::memory_order_relaxed), requests_sent_.load(std::memory_order_relaxed)};
  }

  int rank() const { return rank_; }
  int size() const { return size_; }

  using Bulk = BulkBytes;
  // Queues `op` with `args` for `rank`, not waiting for anything: the
  // communication thread sends every request queued for a rank meanwhile as
  // one message. False (nothing sent) when the node was lost or the link
  // closed.
  bool post(int rank, Op op, const Writer &args, Bulk bulk = {});
  // Queues `op` as post() does, with a call number, and waits for its reply
  // at most `timeout`: the node's status, or CL_DEVICE_NOT_AVAILABLE when
  // no reply came (the reply's payload in `reply`).
  cl_int call(int rank, Op op, const Writer &args, std::vector<char> &reply, std::chrono::milliseconds timeout,
              Bulk bulk = {});

  // The ends of node commands: `handler` receives each entry of a report
  // (protocol/messages.hpp, EventEnded) on the communication thread, which listens
  // for them while `expect_event` has announced more than have come.
  // `destination(id, size)` says where an entry's bytes go (null: handed to
  // `handler` instead; else `handler` gets none, they are in place).
  using EventHandler = std::function<void(const EventEnded &ended, const char *bytes, size_t size)>;
  using EventDestination = std::function<void *(uint64_t id, size_t size)>;
  void on_event(EventHandler handler, EventDestination destination) {
    std::lock_guard lock(mutex_);
    event_handler_ = std::move(handler);
    event_destination_ = std::move(destination);
  }
  // Node `rank`'s steady clock reads `ns` more than this rank's
  // (Session::measure_clock): the times of its reports are moved by it.
  void clock_offset(int rank, int64_t ns) {
    std::lock_guard lock(mutex_);
    clock_offsets_[rank] = ns;
  }
  void expect_event(int rank) {
    {
      std::lock_guard lock(mutex_);
      start_awaiting(rank);
      ++awaited_from_[rank];
    }
    changed_.notify_all();
  }

  // Liveness. A node that something is awaited from (a reply, an event's
  // end) and that says nothing for `timeout`, pinged meanwhile, is lost:
  // `lost(rank)` runs once, on the communication thread, after the calls
  // waiting for it failed with CL_DEVICE_NOT_AVAILABLE; calls to it fail so
  // from then on.
  void watch(std::chrono::milliseconds timeout, std::function<void(int rank)> lost) {
    std::lock_guard lock(mutex_);
    timeout_ = timeout;
    lost_handler_ = std::move(lost);
  }
  bool lost(int rank) {
    std::lock_guard lock(mutex_);
    return lost_ranks_.count(rank) > 0;
  }

 private:
  MpiLink() = default;
  struct Pending {
    int rank = 0;
    bool done = false;
    cl_int status = CL_SUCCESS;
    std::vector<char> reply;
  };
  // The requests queued for one rank, and the bulk bytes after them.
  struct Batch {
    std::vector<char> requests;
    std::vector<Bulk> bulk;
  };
  // Appends a request to `rank`'s batch (mutex_ held); true if the batch was
  // empty (the thread must be woken).
  bool queue_request(int rank, uint64_t call, Op op, const Writer &args, Bulk bulk);
  // Receives the entries of one report from `source` (the message of
  // kEventTag), and the bytes that follow it.
  void receive_report(int source, const std::vector<char> &message);
  void run();              // the communication thread
  std::string start_nodes();  // spawn_: the nodes and the communicator with them; why not
  bool poll();             // receives what has arrived (replies, events); true if anything did

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;  // outbox, replies, started, stop
  bool started_ = false, stop_ = false;
  std::string failure_;    // set by the thread when joining the job failed
  bool initialized_here_ = false;
  std::function<void()> before_finalize_;
  EventHandler event_handler_;
  EventDestination event_destination_;
  // Liveness (mutex_): what is awaited from each rank, when it last spoke,
  // when it was last pinged.
  void check_liveness();
  // Before something new is awaited from `rank` (mutex_ held): a node that
  // was awaited for nothing has been silent for a reason, so its silence
  // counts from now.
  void start_awaiting(int rank) {
    const bool calls = std::any_of(pending_.begin(), pending_.end(), [&](auto &p) { return p.second->rank == rank; });
    if (awaited_from_[rank] == 0 && !calls) last_heard_[rank] = std::chrono::steady_clock::now();
  }
  // Event messages still to come (mutex_).
  bool events_awaited() const {
    return std::any_of(awaited_from_.begin(), awaited_from_.end(), [](auto &a) { return a.second > 0; });
  }
  std::map<int, size_t> awaited_from_;  // event messages still to come, per rank
  std::map<int, int64_t> clock_offsets_;  // clock_offset()'s, per rank
  std::map<int, std::chrono::steady_clock::time_point> last_heard_, last_ping_;
  std::map<int, Doorbell> doorbells_;  // by node rank; none erased while the thread runs
  // When the thread last sent to or heard from each node (its own).
  std::map<int, Contact> contacts_;
  // The doorbells of `out`'s nodes that may sleep (mutex_ held), whose
  // batches the thread sends now.
  std::vector<const Doorbell *> doorbells_to_ring(const std::map<int, Batch> &out);
  std::set<int> lost_ranks_;
  std::chrono::milliseconds timeout_{0};
  std::function<void(int)> lost_handler_;
  std::deque<std::function<void()>> on_thread_;  // run_on_thread's, in order
  void stop_thread();
  int rank_ = -1, size_ = 0;
  Spawn spawn_;  // count 0: none
  std::atomic<uint64_t> bulk_bytes_{0}, requests_sent_{0};
  struct Tally {
    std::atomic<uint64_t> messages{0}, bytes{0};
    void add(size_t n) {
      messages.fetch_add(1, std::memory_order_relaxed);
      bytes.fetch_add(n, std::memory_order_relaxed);
    }
  };
  Tally sent_, received_;
  std::atomic<uint64_t> calls_waited_{0};
  uint64_t next_call_ = 1;
  std::map<int, Batch> outbox_;
  std::map<uint64_t, std::shared_ptr<Pending>> pending_;
  // The MPI communicator, as an opaque handle (mpi.h stays in the .cpp).
  std::shared_ptr<void> comm_;
  // Rung by a node that sends an end after a quiet while: wakes the thread
  // (rung_, under mutex_). Last: its thread is gone before what it touches.
  bool rung_ = false;
  std::unique_ptr<DoorbellListener> doorbell_ = std::make_unique<DoorbellListener>([this] {
    std::lock_guard lock(mutex_);
    rung_ = true;
    changed_.notify_all();
  });
};

}  // namespace unicl::cluster
