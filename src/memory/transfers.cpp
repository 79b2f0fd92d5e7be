#include "memory/transfers.hpp"

#include <cstdio>
#include <memory>

#include "core/division.hpp"
#include "core/event.hpp"
#include "core/runtime.hpp"
#include "memory/context_memory.hpp"

namespace unicl {
namespace {

// What a transfer's sample needs to tell whether it had its link to itself.
struct LinkReservation {
  bool shared = false;       // its link's queue held other transfers when it joined
  std::uint64_t joined = 0;  // the queue's count of transfers once it joined (TransferPlanner::joined)
};

// What a finished transfer took refines the model of its link (source and
// destination), both the context's planner's and the scheduling layer's,
// when it had the link to itself: transfers sharing one (a buffer every
// device reads, sent to each node at once) each time their share, and on
// this machine such samples had the same 16 MiB taking from 12 to 196 ms,
// which then decided where commands went.
struct TransferSample {
  std::shared_ptr<ContextMemory> memory;
  Location src, dst;
  std::string from, to;  // device names, or kHostMemory
  size_t bytes;
  LinkReservation link;
  void record(const Completion &done) const {
    cl_ulong start = 0, end = 0;
    if (link.shared || !done.times(start, end)) return;
    double seconds = static_cast<double>(end - start) * 1e-9;
    {
      std::lock_guard lock(memory->mutex);
      if (memory->planner.joined(src, dst) != link.joined) return;  // others came while it ran
      memory->planner.record(src, dst, bytes, seconds);
    }
    if (auto *scheduling = Runtime::get().scheduling()) scheduling->transfer_timed(from, to, bytes, seconds);
  }
};

// Keeps the transfer's link busy in the planner's eyes until it ends, so
// that transfers planned meanwhile weigh the queue on that link.
LinkReservation reserve_link(_cl_context &ctx, Location src, Location dst, size_t bytes,
                             const std::shared_ptr<PendingCompletion> &done) {
  std::shared_ptr<ContextMemory> memory = ctx.memory;
  double seconds = 0;
  LinkReservation r;
  {
    std::lock_guard lock(memory->mutex);
    r.shared = memory->planner.backlog(src, dst) > 0;
    seconds = memory->planner.reserve(src, dst, bytes, host_clock_ns() * 1e-9);
    r.joined = memory->planner.joined(src, dst);
  }
  done->on_done([memory, src, dst, seconds](cl_int) {
    std::lock_guard lock(memory->mutex);
    memory->planner.unreserve(src, dst, seconds);
  });
  return r;
}

std::string location_name(const _cl_context &ctx, Location l) {
  return l < ctx.slots.size() ? ctx.slots[l].endpoint->name() : kHostMemory;
}

void time_transfer(const std::shared_ptr<Completion> &done, TransferSample sample) {
  // The completion keeps only a weak hold on itself: it must not outlive
  // its last user through its own callback.
  done->on_done([weak = std::weak_ptr<Completion>(done), sample = std::move(sample)](cl_int status) {
    if (auto d = weak.lock(); d && status == CL_COMPLETE) sample.record(*d);
  });
}

// A copy straight from another device's memory, for transfer_waits: that
// device's slot, whether it is a node's device (relays: below), whether
// the two are devices of one node, and (set by transfer_waits) whether the
// copy waits for a copy into the source.
struct FromDevice {
  size_t slot;
  bool may_relay = false;
  bool on_node = false;
  bool relays = false;
};

// What a transfer carried by `slot` waits for: the accesses of those bytes
// on both sides, on its own device through the device's own ordering (work
// planned there earlier is issued earlier), elsewhere by not being planned
// before they are done (kBlocked, the blocker in `outer`). A copy straight
// from another device (`from`), whose vendor call takes waits of both
// devices (DeviceEndpoint::copy_from), waits there itself for the commands
// of that device already issued (their vendor events exist): a kernel's
// output then goes on to another node's device as the kernel ends, the
// source's node waiting for it, not once this process has heard of its
// end (a round trip of reports, planning and requests per dependency).
// A copy into the source still under way is waited for that way too, so
// that a matrix every device reads goes on from the first device of a node
// to receive it as it lands, not once its end has been reported here and
// the copy planned again (bench-cluster-scaling's matmul: each of a node's
// devices planned from the first, blocked, and its kernels waited 6-10 ms
// for reports delayed behind the network's copies). Across nodes only from
// a copy that is not itself such a relay: copies from copies still coming
// chained deep there (a matrix reached the last nodes' devices through
// three others). Local devices are left to their completions: the saving
// is a callback, not a network round trip.
cl_int transfer_waits(Coherence &c, Location src, Location dst, ByteRange range, size_t slot, WaitList &outer,
                      std::vector<std::shared_ptr<Completion>> &wait, FromDevice *from = nullptr) {
  for (auto &t : c.ranges.transfer_waits(src, dst, range)) {
    // The source never got those bytes if a transfer into it failed.
    if (cl_int err = undo_failed_transfer(c, t); err != CL_SUCCESS) return err;
    const bool at_source = from && t->slot == from->slot && t->done->vendor_event();
    const bool relay = at_source && from->may_relay && t->transfer && t->dst == src && (from->on_node || !t->relayed);
    if (t->slot == slot || (at_source && !t->transfer) || relay) {
      wait.push_back(t->done);
      if (relay) from->relays = true;
    } else if (!t->done->done()) {
      outer.block_on(t->done, t->slot);
      return kBlocked;
    }
  }
  return CL_SUCCESS;
}

// Records a transfer of `range` from src to dst, carried by `slot`: for
// coherence, the planner's link queue and the bytes moved. Its completion,
// fulfilled once issued, and its sample for the link models.
struct PlannedTransfer {
  std::shared_ptr<PendingCompletion> done;
  TransferSample sample;
};
PlannedTransfer record_transfer(_cl_context &ctx, Coherence &c, Location src, Location dst, ByteRange range,
                                size_t slot, bool relayed = false) {
  auto done = std::make_shared<PendingCompletion>();
  const LinkReservation link = reserve_link(ctx, src, dst, range.length, done);
  c.ranges.copy(src, dst, range, std::make_shared<SlotAccess>(SlotAccess{done, slot, true, dst, range, relayed}));
  c.note_access();
  ctx.bytes_moved.fetch_add(range.length, std::memory_order_relaxed);
  return {done, {ctx.memory, src, dst, location_name(ctx, src), location_name(ctx, dst), range.length, link}};
}

// The error of work a transfer waited for that failed before it was issued
// (bytes it never brought), else CL_SUCCESS.
cl_int failed_wait(const std::vector<std::shared_ptr<Completion>> &wait) {
  for (auto &w : wait)
    if (cl_int s = failed_before_issue(*w); s != CL_SUCCESS) return s;
  return CL_SUCCESS;
}

// A transfer's slice in UNICL_TRACE: which way its bytes went and how many
// ("to device (16 MiB)"), so that a trace tells a buffer's moves apart.
std::string transfer_name(const std::string &way, size_t bytes) {
  char size[32];
  if (bytes >= (1u << 20))
    std::snprintf(size, sizeof size, "%.4g MiB", static_cast<double>(bytes) / (1u << 20));
  else
    std::snprintf(size, sizeof size, "%.4g KiB", static_cast<double>(bytes) / (1u << 10));
  return way + " (" + size + ")";
}

// A transfer just issued on `device` (of `flushed_by`): its planned
// completion follows it, it is flushed once this thread stops issuing (from
// UniCL's threads: this may be an application's, in its enqueue), timed and
// traced.
void issued_transfer(PlannedTransfer &t, const std::shared_ptr<Completion> &issued, const DeviceEndpoint &device,
                     _cl_device_id *flushed_by, const std::string &what) {
  t.done->fulfil(issued);
  IssueQueue::after_issuing([issued, flushed_by] { Runtime::get().flush_off_caller(flushed_by, issued); });
  time_transfer(issued, std::move(t.sample));
  Runtime::get().trace().record(issued->vendor_event(), device.name(), what, "transfer",
                                device.times_on_host_clock() ? Trace::Times::kHostClock : Trace::Times::kVendorClock);
}

// A copy from one device's memory straight into another's (DeviceEndpoint::
// copy_from), carried by the destination: its event is the destination's,
// so the commands there that need the bytes wait for it as for any copy of
// their own device. The source's accesses are another device's: the copy's
// own vendor call waits for the commands among them already issued
// (transfer_waits); the others must be done first, as for the second hop
// through host memory.
cl_int transfer_between_devices(_cl_mem *root, Location src, Location dst, ByteRange range, WaitList &outer) {
  Coherence &c = coherence_of(root);
  _cl_context &ctx = *root->context;
  std::shared_ptr<DeviceCopy> from, to;
  if (cl_int err = replica(root, src, from, &outer); err != CL_SUCCESS) return err;
  if (cl_int err = replica(root, dst, to, &outer); err != CL_SUCCESS) return err;
  std::vector<std::shared_ptr<Completion>> wait;
  FromDevice source{src, ctx.slots[src].device->node != 0, ctx.events_reach(src, dst)};
  if (cl_int err = transfer_waits(c, src, dst, range, dst, outer, wait, &source); err != CL_SUCCESS) return err;
  PlannedTransfer t = record_transfer(ctx, c, src, dst, range, dst, source.relays);
  ctx.slots[dst].issue->post([from, to, range, wait = std::move(wait), t = std::move(t), src, dst,
                              ctx = Ref<_cl_context>(&ctx)]() mutable {
    if (!from->get()) return t.done->fail(from->error.load());
    if (!to->get()) return t.done->fail(to->error.load());
    if (cl_int s = failed_wait(wait); s != CL_SUCCESS) return t.done->fail(s);
    DeviceEndpoint &source = *ctx->slots[src].endpoint, &device = *ctx->slots[dst].endpoint;
    std::shared_ptr<Completion> issued;
    if (cl_int err = device.copy_from(source, from->get(), to->get(), range.offset, range.length, wait, issued);
        err != CL_SUCCESS)
      return t.done->fail(err);
    issued_transfer(t, issued, device, ctx->slots[dst].device.get(), transfer_name("from " + source.name(), range.length));
  });
  return CL_SUCCESS;
}

}  // namespace

cl_int undo_failed_transfer(Coherence &c, const AccessToken &t) {
  if (!t->transfer || t->failure_seen) return CL_SUCCESS;
  cl_int s = t->done->status();
  if (s >= 0) return CL_SUCCESS;
  t->failure_seen = true;
  c.ranges.copy_failed(t->dst, t->range);
  return s;
}

cl_int transfer_range(_cl_mem *root, Location src, Location dst, ByteRange range, WaitList &outer) {
  UNICL_HOLDS(root->context->mutex, "transfer_range: caller holds the context lock");
  Coherence &c = coherence_of(root);
  _cl_context &ctx = *root->context;
  if (src != c.host() && dst != c.host()) {
    // Images, and devices with no direct route, go through host memory.
    if (!root->is_image() && ctx.slots[dst].endpoint->reaches_from(*ctx.slots[src].endpoint))
      return transfer_between_devices(root, src, dst, range, outer);
    if (cl_int err = transfer_range(root, src, c.host(), range, outer); err != CL_SUCCESS) return err;
    return transfer_range(root, c.host(), dst, range, outer);
  }
  bool to_host = dst == c.host();
  size_t slot = to_host ? src : dst;  // the device end carries the copy
  const size_t row = root->row_bytes();
  if (root->is_image() && (!row || range.offset % row || range.length % row)) range = {0, root->device_bytes()};
  std::shared_ptr<DeviceCopy> rep;
  if (cl_int err = replica(root, slot, rep, to_host ? nullptr : &outer); err != CL_SUCCESS) return err;
  std::vector<std::shared_ptr<Completion>> wait;
  if (cl_int err = transfer_waits(c, src, dst, range, slot, outer, wait); err != CL_SUCCESS) return err;
  PlannedTransfer t = record_transfer(ctx, c, src, dst, range, slot);
  HostCopy what{nullptr, root->is_image(), range.offset, range.length, {0, 0, 0}, {0, 0, 0},
                static_cast<std::byte *>(c.staging->ptr) + range.offset};
  if (what.image) root->full_region(what.region);
  if (what.image && row) {  // rows [offset, offset + length) / row
    what.origin[1] = range.offset / row;
    what.region[1] = range.length / row;
  }
  ctx.slots[slot].issue->post([what, rep, wait = std::move(wait), t = std::move(t), to_host, slot,
                               staging = c.staging, ctx = Ref<_cl_context>(&ctx)]() mutable {
    what.object = rep->get();
    if (!what.object) return t.done->fail(rep->error.load());
    if (cl_int s = failed_wait(wait); s != CL_SUCCESS) return t.done->fail(s);
    DeviceEndpoint &device = *ctx->slots[slot].endpoint;
    std::shared_ptr<Completion> issued;
    if (cl_int err = device.copy(to_host, what, wait, issued); err != CL_SUCCESS) return t.done->fail(err);
    issued_transfer(t, issued, device, ctx->slots[slot].device.get(),
                    transfer_name(to_host ? "to host" : "to device", what.length));
  });
  return CL_SUCCESS;
}

}  // namespace unicl
