// Commands of multi-device contexts as nodes of a task graph.
//
// A command that must follow something still pending on another device (a
// user event, a command not yet planned, a command running elsewhere, a
// transfer it needs) is not planned until that is done; the enqueue call
// returns at once and the command is planned later from the runtime's
// work queue or its device's worker. Dependencies on the same device are
// handed to the vendor as its own wait list. Nothing ever waits on the
// host, so a command held by an unset user event cannot block another
// enqueue.
//
// Two steps, so that no vendor call runs under the context lock: the task
// is *planned* under it (placed, its memory made valid, its accesses
// recorded with a PendingCompletion that later commands may already wait
// for), and its vendor call is *issued* after the lock is released,
// through its device's IssueQueue, in plan order.
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/exec_prediction.hpp"
#include "core/object.hpp"
#include "backend/completion.hpp"
#include "backend/vendor.hpp"
#include "backend/vendor_status.hpp"
#include "backend/issue_queue.hpp"
#include "core/wait_list.hpp"

struct _cl_context;
struct _cl_command_queue;
struct _cl_mem;

namespace unicl {


// A submit function's answer when a transfer it needs waits for a command
// on another device (WaitList::blocker() names it). Not an OpenCL code.
constexpr cl_int kBlocked = 1;

class Task : public std::enable_shared_from_this<Task>, public IssueStep {
 public:
  // The command's vendor call, issued on vendor queue `vq` of `slot` after
  // everything in `wait`; `deferred` is true when it runs later than the
  // enqueue call.
  using Issue = std::function<cl_int(size_t slot, cl_command_queue vq, WaitList &wait, bool deferred, cl_event *out)>;
  // Plans the command on `slot` (under the context lock): makes its
  // memory valid there, adds to `wait` what it must follow, records its
  // accesses as `done`'s, and hands back its vendor call in `issue`; or
  // returns kBlocked or an error, having recorded nothing of its own.
  using Plan = std::function<cl_int(size_t slot, WaitList &wait, const std::shared_ptr<Completion> &done, Issue &issue)>;
  using StatusCallback = std::function<void(cl_int)>;

  Task(_cl_command_queue *queue, Plan plan);
  ~Task();

  // What a scheduling policy looks at (commands of scheduled queues).
  struct Work {
    std::string kernel;  // empty for commands other than kernel launches
    size_t items = 0;    // work-items of a launch
    std::vector<std::pair<_cl_mem *, unsigned>> buffers;  // with their Access; alive while the task is queued
    std::vector<bool> runnable;  // per slot: the kernel exists there (empty: everywhere)
    bool pinned = false;         // a divider's piece, pinned to its one runnable slot (PinnedSlot)
  };
  Work work;
  cl_command_type type = 0;
  bool counted = false;  // the engine counts it in flight on its slot
  // The device a policy placed it on ahead of its start (Engine::placed), or
  // npos: its buffers count as on their way there.
  size_t heading_to = static_cast<size_t>(-1);
  // When it ran (device clock), read by the engine once it completed.
  struct Times {
    cl_ulong start = 0, end = 0;
    bool known = false;
  } times;
  double mean_exec = -1;  // the engine's cache of its mean predicted time
  // When the engine predicted it to end (seconds, its clock), set when it
  // started there: what a command placed ahead behind it waits for.
  double predicted_end = -1;
  // Its predicted run there (seconds), counted in its device's work in
  // flight until it completes.
  double predicted_run = 0;
  // The engine's cache of its predicted time per slot and the samples
  // behind it (NaN: not looked up yet): a placement asks for each several
  // times.
  mutable std::vector<ExecPrediction> exec_cache;
  // Commands enqueued later that wait for this one (edges of the graph,
  // for the policies' priorities); guarded by the context mutex.
  std::vector<std::weak_ptr<Task>> successors;
  void depend_on(std::shared_ptr<Task> task);
  // What a task may wait for besides another task (an application's user
  // event), seen through its status now and a way to be told once it
  // completes; the callables keep it alive. The task knows no event type:
  // events hold tasks, not the other way round.
  struct Awaited {
    std::function<cl_int()> status;
    std::function<void(std::function<void(cl_int)>)> on_complete;
  };
  void depend_on(Awaited awaited);

  // Plans now if every dependency allows, else defers. Caller holds the
  // context lock. Returns the error when planning now failed (the vendor's
  // own errors come when the command is issued, after the lock).
  cl_int start();
  // Moves the task on as far as its dependencies allow (caller holds the
  // context lock); `deferred` when running later than its enqueue call.
  // A deferred command flushes its vendor queue when issued.
  void advance(bool deferred);
  // advance(true) on the worker thread of the task's device, which then
  // issues and flushes: a vendor that runs commands inside clFlush holds
  // up only its own device. The task must be placed.
  void advance_on_worker();
  // What a policy calls once it placed the task (caller holds the context
  // lock): advance(false) during its enqueue call; later, on this thread
  // (issued when the lock is released) unless the device's vendor runs
  // commands inside clFlush, whose worker then takes it.
  void advance_placed(bool deferred);
  // Commands of scheduled queues: the engine decides the slot.
  bool scheduled() const { return scheduled_; }
  bool placed() const { return slot_ != kUnplaced; }
  void place(size_t slot) { slot_ = slot; }
  static constexpr size_t kUnplaced = ~size_t{0};

  // CL_QUEUED before it is planned, CL_SUBMITTED after, or a negative
  // error (when planning or issuing failed).
  cl_int state();
  // Execution status as the application sees it.
  cl_int status();
  size_t slot() const { return slot_; }
  // The vendor event; null until issued.
  cl_event vendor_event() const { return completion_ ? completion_->vendor_event() : nullptr; }
  // When the command is done, for what waits for it; only once state() is
  // not CL_QUEUED (pending until issued).
  const std::shared_ptr<PendingCompletion> &completion() const { return completion_; }
  // Runs fn(status) once the command reaches `type` (CL_SUBMITTED,
  // CL_RUNNING or CL_COMPLETE) or fails.
  void on_status(cl_int type, StatusCallback fn);
  // Blocks until the command completes; CL_SUCCESS or
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
  cl_int wait();
  // Blocks until the command is issued to its device or failed.
  void wait_submitted();
  // The commands it follows that have not completed yet (caller holds the
  // context lock): what a command placed ahead waits for.
  void unfinished_predecessors(std::vector<const Task *> &out) const;
  bool follows_unfinished() const;
  // Not planned yet, or planned and not complete.
  bool unfinished() const;

 private:
  struct Dep {
    std::shared_ptr<Task> task;
    Awaited awaited;  // when task is null
  };
  void retry();
  // kAhead: every dependency is a command planned on its device, some
  // not complete (only walked for with `ahead`).
  enum Readiness { kReady, kAhead, kWaiting, kFailed };
  Readiness walk_dependencies(WaitList *same_device, bool ahead = false);
  // Whether the engine may place it before what it waits for completes.
  bool may_go_ahead() const;
  // The one device where everything the task still waits for was issued,
  // if its buffers' bytes are all valid there once that has run;
  // kUnplaced otherwise (caller holds the context lock).
  size_t only_device_waited_for() const;
  // Planned (CL_SUBMITTED, with its pending completion) or failed.
  void settle(cl_int state, std::shared_ptr<PendingCompletion> planned);
  void when_settled(std::function<void()> fn);
  // Outside the lock, in plan order on its device: the vendor call, with
  // what planning left in the issue_ members.
  void issue_now() override;
  void issue();
  // On a device where launches of one kernel must not overlap
  // (_cl_device_id::launches_overlap), a launch runs after the one of its
  // kernel issued there before it, if that has not ended: the vendor orders
  // them (unless `vq`, the launch's vendor queue, already does); no data
  // passes between them.
  void take_turn(cl_command_queue vq);
  void mark_issued(cl_int error);

  Ref<_cl_context> context_;
  Ref<_cl_command_queue> queue_;  // dropped once settled: queues keep their last tasks
  // Written once, by the engine under the context mutex; read without it
  // by retry(), from vendor callbacks.
  std::atomic<size_t> slot_;
  bool scheduled_ = false, pushed_ = false;
  Plan plan_;
  std::vector<Dep> deps_;
  // What the issue step needs, from planning (under the context lock) to
  // its issue (after it, from the device's issue queue, which orders the
  // two and holds the task meanwhile).
  Issue issue_call_;
  Ref<_cl_command_queue> issue_queue_;
  WaitList issue_wait_;
  bool issue_deferred_ = false;

  std::mutex mutex_;
  std::condition_variable issued_cv_;
  std::atomic<cl_int> state_ = CL_QUEUED;  // written under mutex_, read without it
  bool issued_ = false;                     // guarded by mutex_
  // Set once, before state_ leaves CL_QUEUED.
  std::shared_ptr<PendingCompletion> completion_;
  std::vector<std::function<void()>> listeners_;
};

// when_vendor_status (backend/vendor_status.hpp) for the core: runs that a
// serialized vendor would make under its lock go to the work queue.
cl_int on_vendor_status(cl_event e, cl_int type, Task::StatusCallback fn);

}  // namespace unicl
