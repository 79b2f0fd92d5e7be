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

  // Multi-device contexts, guarded by context->mutex: what later commands
  // of this queue must follow while it is not yet submitted (submitted
  // commands are ordered by the vendor queue itself).
  std::shared_ptr<unicl::Task> last;                        // in-order: last command; else last barrier
  std::vector<std::shared_ptr<unicl::Task>> since_barrier;  // out-of-order: commands after `last`
  size_t prune_at = 32;  // since_barrier's size at which finished commands are dropped from it

  // Scheduled queues: the out-of-order device-less queue the divide
  // functions of this queue's divided launches enqueue their pieces on
  // (granularity/), made on first use.
  std::mutex pieces_mutex;
  unicl::Ref<_cl_command_queue> pieces;
  // In-order scheduled queues: the last divided launch's gate command, the
  // event its pieces followed (on `pieces`) and the one that completes with
  // them. A launch enqueued while that gate is still `last` has its pieces
  // follow the same `before`, and the earlier pieces only through the bytes
  // they share; it starts, as the application sees it, at that `after`.
  // Context mutex.
  std::weak_ptr<unicl::Task> divided_gate;
  unicl::Ref<_cl_event> divided_before, divided_after;
  // The launches of that chain so far: a launch joins only while all their
  // pieces are planned (their accesses recorded, which coherence orders the
  // new pieces after).
  std::vector<std::shared_ptr<unicl::DivisionRecord>> divided_chain;
};
