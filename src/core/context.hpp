// A UniCL context spans devices of any vendors. Underneath, each device is
// a "slot" with its vendor context: one shared by every slot when all the
// devices come from one vendor platform of this machine (so that what the
// vendor shares between its devices, such as SVM, is valid on each), one
// per device otherwise. Either way UniCL, not the vendor, keeps its
// buffers coherent between devices, with a copy per device: vendors' own
// multi-device migration cannot be relied on and cannot cross vendors.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <mutex>
#include <optional>
#include <vector>

#include "backend/lock_rules.hpp"
#include "backend/endpoint.hpp"
#include "backend/issue_queue.hpp"
#include "backend/vendor_call_scope.hpp"
#include "core/device.hpp"
#include "core/kernel_turns.hpp"
#include "core/svm.hpp"

namespace unicl {
class ContextScheduler;
struct ContextMemory;
class Task;

// Commands placed on a device and waiting for its worker to plan them:
// the worker takes all that are waiting in one go, under one context lock,
// and issues them in one drain of the device's issue queue, rather than one
// wake-up, lock and drain per command.
struct WorkerBatch {
  std::mutex mutex;
  std::vector<std::shared_ptr<Task>> tasks;
  bool posted = false;  // a worker job that will take `tasks` is on its way
};
}  // namespace unicl

struct DeviceSlot {
  unicl::Ref<_cl_device_id> device;
  unicl::VendorRef<cl_context> vendor;
  // How the memory layer reaches the device: its copies' memory and the
  // transfers UniCL issues itself (backend/endpoint.hpp).
  std::unique_ptr<unicl::DeviceEndpoint> endpoint;
  // Bytes of replicas UniCL lets live on the device, and holds there now
  // (multi-device contexts; guarded by the context's memory_mutex).
  size_t mem_limit = SIZE_MAX;
  size_t mem_used = 0;
  // Vendor calls planned under the context lock for this device, issued
  // in order after it is released (backend/issue_queue.hpp).
  std::shared_ptr<unicl::IssueQueue> issue = std::make_shared<unicl::IssueQueue>();
  std::shared_ptr<unicl::WorkerBatch> worker_batch = std::make_shared<unicl::WorkerBatch>();
  // The last launch of each kernel issued here, where launches of one kernel
  // must not overlap (_cl_device_id::launches_overlap).
  std::shared_ptr<unicl::KernelTurns> turns = std::make_shared<unicl::KernelTurns>();
};

struct _cl_context : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Context;
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  using Destructor = void(CL_CALLBACK *)(cl_context, void *);

  _cl_context();
  ~_cl_context();

  std::vector<DeviceSlot> slots;
  // The composite device the context was made of (UNICL_COMPOSITE): its
  // slots are the composite's members, and the application sees the
  // composite as the context's one device (devices(), slots_named()).
  unicl::Ref<_cl_device_id> composite;
  // What SVM the context offers (core/svm.hpp), and what it handed out.
  cl_device_svm_capabilities svm_capabilities = 0;
  unicl::SvmAllocations svm_allocations;
  std::vector<cl_context_properties> properties;  // as given, 0-terminated or empty
  Notify notify = nullptr;
  void *notify_data = nullptr;
  std::vector<std::pair<Destructor, void *>> destructors;
  std::string policy = "heft";  // the engine's policy for scheduled queues (CL_CONTEXT_SCHEDULER_UNICL)
  // How divided launches choose their factor (division.hpp): a strategy
  // name (empty: the granularity layer's default), or a fixed factor.
  std::string granularity;
  std::optional<cl_uint> divide_factor;
  // Launches of kernels that declared no split may be split when the
  // analysis of their source allows it (CL_CONTEXT_AUTO_SPLIT_UNICL,
  // UNICL_AUTO_SPLIT).
  bool auto_split = true;
  cl_ulong mem_limit = 0;          // CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, 0: the devices' memory
  std::unique_ptr<unicl::ContextScheduler> engine;  // multi-device contexts; uses `mutex`
  std::shared_ptr<unicl::ContextMemory> memory;     // multi-device contexts (src/memory)
  // Memory objects of a multi-device context that own device replicas,
  // for eviction, and the slots' accounting. Taken after `mutex` when both
  // are; alone by memory objects' destructors, which may run with `mutex`
  // held by the same thread.
  std::mutex memory_mutex;
  std::vector<_cl_mem *> memory_objects;
  uint64_t use_clock = 0;  // guarded by `mutex`: orders buffers by last use
  // Bytes UniCL copied between the copies of its buffers (host <-> device),
  // for CL_CONTEXT_BYTES_MOVED_UNICL.
  std::atomic<uint64_t> bytes_moved{0};
  // Guards lazy per-slot state and, in multi-slot contexts, the task graph
  // and the coherence state of every buffer (one lock per context keeps
  // lock order trivial). Taken through ContextLock: no vendor call runs
  // under it.
  unicl::CheckedMutex mutex;

  static constexpr size_t npos = ~size_t{0};
  size_t slot_of(cl_device_id d) const {
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i].device.get() == d) return i;
    return npos;
  }
  bool multi() const { return slots.size() > 1; }
  // Whether a command on slot `to` may list vendor events of slot `from`'s
  // commands in its wait list: two devices of one node, where the node
  // stands a user event of the waiting command's context in for the
  // other's (docs/cluster.md), so the wait costs no round trip to this
  // process. (Local devices are left to their completions: the saving is
  // a callback, not a network round trip.)
  bool events_reach(size_t from, size_t to) const {
    const size_t node = slots[from].device->node;
    return node != 0 && node == slots[to].device->node;
  }
  // The devices the application sees: the composite, else the slots' devices.
  std::vector<cl_device_id> devices() const {
    if (composite) return {composite.get()};
    std::vector<cl_device_id> out;
    for (auto &s : slots) out.push_back(s.device.get());
    return out;
  }
  // The slots a device the application names stands for: all of them for
  // the composite, else its own; none when it is not the context's.
  std::vector<size_t> slots_named(cl_device_id d) const {
    std::vector<size_t> out;
    if (composite && d == composite.get())
      for (size_t i = 0; i < slots.size(); ++i) out.push_back(i);
    else if (size_t s = slot_of(d); s != npos)
      out.push_back(s);
    return out;
  }
  // Every slot shares one vendor context (devices of one vendor platform of
  // this machine; api/context.cpp): what the vendor shares between its
  // devices, such as SVM, is valid on each.
  bool one_vendor_context() const {
    return !slots.empty() && std::all_of(slots.begin(), slots.end(),
                                         [&](const DeviceSlot &s) { return s.vendor.get() == slots[0].vendor.get(); });
  }
  cl_context vendor(size_t slot) const { return slots[slot].vendor.get(); }

  // Makes the slots of the devices the application named (duplicates
  // ignored; the composite stands for its members), each with a vendor
  // context (`interop`: the application's CL_CONTEXT_INTEROP_USER_SYNC,
  // -1 when not given), and the SVM they share. `notify` is set already.
  cl_int open_devices(const std::vector<cl_device_id> &named, cl_context_properties interop);
};

namespace unicl {

// The context lock, held as a scope in which this thread calls no vendor
// (backend/vendor_call_scope.hpp): what was planned for the devices
// meanwhile is issued once the lock is released.
class ContextLock {
 public:
  explicit ContextLock(_cl_context &ctx) : lock_(ctx.mutex) { VendorCallScope::enter(); }
  ~ContextLock() {
    if (lock_.owns_lock()) unlock();
  }
  ContextLock(const ContextLock &) = delete;
  ContextLock &operator=(const ContextLock &) = delete;
  // Releases the lock, then runs the vendor calls deferred under it.
  void unlock() {
    lock_.unlock();
    VendorCallScope::leave();
  }
  bool owns_lock() const { return lock_.owns_lock(); }

 private:
  std::unique_lock<CheckedMutex> lock_;
};

}  // namespace unicl
