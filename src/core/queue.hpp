#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "core/context.hpp"
#include "core/division.hpp"
#include "core/task.hpp"

struct _cl_event;

struct _cl_command_queue : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Queue;
  // In queue.cpp: the members' destructors need the whole _cl_event.
  _cl_command_queue();
  ~_cl_command_queue();
  unicl::Ref<_cl_context> context;
  unicl::Ref<_cl_device_id> device;
  size_t slot = 0;
  unicl::VendorRef<cl_command_queue> vendor;  // null for scheduled queues of multi-device contexts
  // Scheduled queues (device-less, or all with UNICL_SCHEDULE_ALL=1) in
  // multi-device contexts: each command goes where the context's policy
  // places it, through a vendor queue per slot made on first use.
  bool scheduled = false;
  bool device_less = false;  // created without a device: CL_QUEUE_DEVICE is NULL
  std::mutex per_slot_mutex;  // guards per_slot (commands are issued outside the context lock)
  std::vector<unicl::VendorRef<cl_command_queue>> per_slot;
  // Makes this queue (its properties set) a queue of `ctx` for `device`
  // (null: device-less), which is `slot` of `ctx`, or the composite. A
  // multi-device context's device-less and composite queues are scheduled
  // (with UNICL_SCHEDULE_ALL every queue is: programs written for one
  // device then use all of the context's); others get their vendor queue.
  cl_int open(_cl_context *ctx, _cl_device_id *device, size_t slot);
  // The vendor queue commands on `slot` go to, made on first use.
  cl_int vendor_for(size_t slot, cl_command_queue &out);
  // Every vendor queue this queue has made.
  std::vector<cl_command_queue> vendor_queues();
  // Flushes every vendor queue this queue has made, each on its device's
  // worker, and returns at once: a vendor may run the queued commands
  // inside clFlush (oclgrind does, on the calling thread), and an
  // application's call must not wait for device work.
  void flush_off_caller();
  cl_command_queue_properties properties = 0;
  std::vector<cl_queue_properties> property_list;  // for CL_QUEUE_PROPERTIES_ARRAY
  bool profiling() const { return properties & CL_QUEUE_PROFILING_ENABLE; }
  bool in_order() const { return !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }

  // Scheduled queues: the out-of-order device-less queue the divide
  // functions of this queue's divided launches enqueue their pieces on
  // (granularity/), made on first use.
  std::mutex pieces_mutex;
  unicl::Ref<_cl_command_queue> pieces;

  // How a command of a multi-device context is ordered among this queue's
  // others: `follow_all` (out-of-order queues: barriers, markers without a
  // wait list) follows every earlier command; `barrier` also makes later
  // ones follow it.
  struct Ordering {
    bool follow_all = false;
    bool barrier = false;
  };
  // Multi-device contexts: makes `task` follow the earlier commands of this
  // queue it must, starts it, enters it as the queue's latest and releases
  // `lock` (the command is issued then, when planned at once). A command
  // whose plan or vendor call failed at once is taken back, as if its
  // enqueue had failed, and that error returned.
  cl_int submit(const std::shared_ptr<unicl::Task> &task, unicl::ContextLock &lock, Ordering ordering);
  // The commands that may not yet be submitted to their vendor queue
  // (clFinish waits for their submission; the vendor queues then hold all).
  std::vector<std::shared_ptr<unicl::Task>> unsubmitted();

  // In-order scheduled queues: what a divided launch without a wait list
  // follows. While the queue's last command is still the previous divided
  // launch's gate, and every piece of that chain is planned, the launch
  // joins the chain: its pieces follow the chain's `before` (which covers
  // everything the queue held before it) and the launch starts, as the
  // application sees it, at `previous` (the last launch's end). Else nulls,
  // and `idle` when every command of the queue completed (then the launch
  // follows nothing).
  struct DividedFollow {
    unicl::Ref<_cl_event> before, previous;
    bool idle = false;
  };
  DividedFollow divided_follow();
  // Notes `gate` as this queue's last divided launch, `before` and `after`
  // (nulls: it failed, or its pieces may not follow `before`) the events its
  // pieces followed and complete with; `record` is its, `joined` whether it
  // joined the chain of the launch before.
  void remember_division(_cl_event *gate, _cl_event *before, _cl_event *after,
                         std::shared_ptr<unicl::DivisionRecord> record, bool joined);
  // Whether this queue's last divided launch is not done: where its pieces
  // put their bytes is known only once they are placed. Caller holds the
  // context lock.
  bool divided_launch_running();

 private:
  // Follows `t` (an earlier command): on a device queue only while it is
  // not yet planned, since the device's issue order and the vendor queue
  // order the rest; on a scheduled queue until it completes, since the
  // next command may go to another device.
  bool must_follow(const std::shared_ptr<unicl::Task> &t);
  void enter(const std::shared_ptr<unicl::Task> &task, bool barrier);
  static bool all_planned(const std::vector<std::shared_ptr<unicl::DivisionRecord>> &chain);

  // Multi-device contexts, guarded by context->mutex: what later commands
  // of this queue must follow while it is not yet submitted (submitted
  // commands are ordered by the vendor queue itself).
  std::shared_ptr<unicl::Task> last_;                        // in-order: last command; else last barrier
  std::vector<std::shared_ptr<unicl::Task>> since_barrier_;  // out-of-order: commands after `last_`
  size_t prune_at_ = 32;  // since_barrier_'s size at which finished commands are dropped from it

  // In-order scheduled queues, context mutex: the last divided launch's
  // gate command and its events (DividedFollow), and the launches of its
  // chain so far.
  std::weak_ptr<unicl::Task> divided_gate_;
  unicl::Ref<_cl_event> divided_before_, divided_after_;
  std::vector<std::shared_ptr<unicl::DivisionRecord>> divided_chain_;
};
