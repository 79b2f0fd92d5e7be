#include "memory/transfers.hpp"

#include <memory>

#include "core/event.hpp"
#include "core/runtime.hpp"
#include "memory/context_memory.hpp"

namespace unicl {
namespace {

// What a finished transfer took refines the model of its link (source and
// destination), both the context's planner's and the scheduling layer's.
struct TransferSample {
  std::shared_ptr<ContextMemory> memory;
  Location src, dst;
  std::string device;
  size_t bytes;
  void record(const Completion &done) const {
    cl_ulong start = 0, end = 0;
    if (!done.times(start, end)) return;
    double seconds = static_cast<double>(end - start) * 1e-9;
    {
      std::lock_guard lock(memory->mutex);
      memory->planner.record(src, dst, bytes, seconds);
    }
    if (auto *scheduling = Runtime::get().scheduling())
      src == memory->planner.host() ? scheduling->transfer_timed(kHostMemory, device, bytes, seconds)
                                    : scheduling->transfer_timed(device, kHostMemory, bytes, seconds);
  }
};

void time_transfer(const std::shared_ptr<Completion> &done, TransferSample sample) {
  // The completion keeps only a weak hold on itself: it must not outlive
  // its last user through its own callback.
  done->on_done([weak = std::weak_ptr<Completion>(done), sample = std::move(sample)](cl_int status) {
    if (auto d = weak.lock(); d && status == CL_COMPLETE) sample.record(*d);
  });
}

}  // namespace

cl_int transfer_range(_cl_mem *root, Location src, Location dst, ByteRange range, WaitList &outer) {
  Coherence &c = coherence_of(root);
  _cl_context &ctx = *root->context;
  bool to_host = dst == c.host();
  size_t slot = to_host ? src : dst;  // the device end carries the copy
  if (root->is_image()) range = {0, root->device_bytes()};
  cl_mem rep;
  if (cl_int err = replica(root, slot, rep, to_host ? nullptr : &outer); err != CL_SUCCESS) return err;
  // The copy follows the accesses of those bytes on both sides: on its own
  // device through the device's own ordering, elsewhere by not being
  // issued before they are done.
  std::vector<std::shared_ptr<Completion>> wait;
  for (auto &t : c.ranges.transfer_waits(src, dst, range)) {
    if (t->slot == slot) {
      wait.push_back(t->done);
    } else if (!t->done->done()) {
      outer.block_on(t->done);
      return kBlocked;
    }
  }
  HostCopy what{rep, root->is_image(), range.offset, range.length, {0, 0, 0},
                static_cast<std::byte *>(c.staging->ptr) + range.offset};
  if (what.image) root->full_region(what.region);
  DeviceEndpoint &device = *ctx.slots[slot].endpoint;
  std::shared_ptr<Completion> done;
  if (cl_int err = device.copy(to_host, what, wait, done); err != CL_SUCCESS) return err;
  c.ranges.copy(src, dst, range, std::make_shared<SlotAccess>(SlotAccess{done, slot}));
  c.note_access();
  ctx.bytes_moved.fetch_add(range.length, std::memory_order_relaxed);
  device.flush();
  time_transfer(done, {ctx.memory, src, dst, device.name(), range.length});
  Runtime::get().trace().record(done->vendor_event(), device.name(), to_host ? "to host" : "to device", "transfer");
  return CL_SUCCESS;
}

}  // namespace unicl
