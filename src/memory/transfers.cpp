#include "memory/transfers.hpp"

#include <memory>

#include "backend/profiling.hpp"
#include "backend/vendor_callback.hpp"
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
  void record(cl_event e) const {
    cl_ulong start = 0, end = 0;
    if (!profiling_times(e, start, end)) return;
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

void time_transfer(cl_event e, TransferSample sample) {
  // Vendors need not call back for a status already reached.
  if (vendor_status(e) == CL_COMPLETE) return sample.record(e);
  set_vendor_event_callback(e, CL_COMPLETE, [sample = std::move(sample)](cl_event done, cl_int status) {
    if (status == CL_COMPLETE) sample.record(done);
  });
}

// Copies `range` of replica `rep` to or from the host copy on `q`.
cl_int enqueue_copy(bool to_host, cl_command_queue q, _cl_mem *m, cl_mem rep, ByteRange range, WaitList &wait,
                    cl_event *ev) {
  const cl_icd_dispatch &d = vd(q);
  void *host = coherence_of(m).staging->ptr;
  if (m->is_image()) {  // images move whole
    size_t origin[3] = {0, 0, 0}, region[3];
    m->full_region(region);
    return to_host ? d.clEnqueueReadImage(q, rep, CL_FALSE, origin, region, 0, 0, host, wait.size(), wait.data(), ev)
                   : d.clEnqueueWriteImage(q, rep, CL_FALSE, origin, region, 0, 0, host, wait.size(), wait.data(), ev);
  }
  void *at = static_cast<std::byte *>(host) + range.offset;
  return to_host ? d.clEnqueueReadBuffer(q, rep, CL_FALSE, range.offset, range.length, at, wait.size(), wait.data(), ev)
                 : d.clEnqueueWriteBuffer(q, rep, CL_FALSE, range.offset, range.length, at, wait.size(), wait.data(),
                                          ev);
}

}  // namespace

cl_int transfer_range(_cl_mem *root, Location src, Location dst, ByteRange range, WaitList &outer) {
  Coherence &c = coherence_of(root);
  _cl_context &ctx = *root->context;
  bool to_host = dst == c.host();
  size_t slot = to_host ? src : dst;  // the device end: its transfer queue carries the copy
  if (root->is_image()) range = {0, root->device_bytes()};
  cl_mem rep;
  cl_command_queue q;
  if (cl_int err = replica(root, slot, rep, to_host ? nullptr : &outer); err != CL_SUCCESS) return err;
  if (cl_int err = ctx.transfer_queue(slot, q); err != CL_SUCCESS) return err;
  WaitList wait;
  for (auto &t : c.ranges.transfer_waits(src, dst, range)) wait.add_from(t->event.get(), t->slot, slot);
  if (wait.blocked()) {
    outer.block_on(wait.blocker());
    return kBlocked;
  }
  cl_event ev = nullptr;
  if (cl_int err = enqueue_copy(to_host, q, root, rep, range, wait, &ev); err != CL_SUCCESS) return err;
  auto token = std::make_shared<SlotEvent>();
  token->event = VendorRef<cl_event>::adopt(ev);
  token->slot = slot;
  c.ranges.copy(src, dst, range, token);
  c.note_access();
  ctx.bytes_moved.fetch_add(range.length, std::memory_order_relaxed);
  Runtime::get().execution().flush(q);
  const std::string &device = ctx.slots[slot].device->name;
  time_transfer(ev, {ctx.memory, src, dst, device, range.length});
  Runtime::get().trace().record(ev, device, to_host ? "to host" : "to device", "transfer");
  return CL_SUCCESS;
}

}  // namespace unicl
