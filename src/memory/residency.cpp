// Where buffers live: vendor replicas made on first use, the per-device
// memory accounting of multi-device contexts, and eviction to the host copy
// (host swap) when a device's limit is reached.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "core/event.hpp"
#include "core/runtime.hpp"
#include "memory/coherence.hpp"
#include "memory/context_memory.hpp"
#include "memory/transfers.hpp"

namespace unicl {
namespace {

// The access bits a device copy is made with (no host pointer: the host
// copy is UniCL's own).
constexpr cl_mem_flags kDeviceAccessFlags = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;

bool evictable(_cl_mem *m) {
  return m->type == CL_MEM_OBJECT_BUFFER && !m->parent && m->children.load() == 0 && m->map_count.load() == 0;
}

// One copy counted in `notice` (pending) arrives once the device has freed
// `rep`; at once if the device cannot tell.
void notice_when_freed(DeviceEndpoint &device, const std::shared_ptr<DestructionNotice> &notice, cl_mem rep) {
  if (device.on_freed(rep, [notice] { DestructionNotice::arrive(notice); }) != CL_SUCCESS)
    DestructionNotice::arrive(notice);
}

// The copy counted in the notice `owner` holds arrives there: the memory
// is gone (freed, or never made).
void owner_arrives(DeviceCopy::Owner &owner) {
  std::shared_ptr<DestructionNotice> notice;
  {
    std::lock_guard lock(owner.mutex);
    notice = std::move(owner.notice);
  }
  if (notice) DestructionNotice::arrive(std::move(notice));
}

// One copy counted in the notice `owner` holds when the vendor frees
// `rep` arrives then; at once if the device cannot tell (the copy is then
// never handed to another buffer).
void owner_notice_when_freed(DeviceEndpoint &device, const std::shared_ptr<DeviceCopy::Owner> &owner, cl_mem rep) {
  if (device.on_freed(rep, [owner] { owner_arrives(*owner); }) == CL_SUCCESS) return;
  {
    std::lock_guard lock(owner->mutex);
    owner->unwatched = true;
  }
  owner_arrives(*owner);
}

// The memory of a buffer evicted from a slot, and the accesses of its old
// bytes there that may not have ended yet (the write-back among them):
// another buffer of the same size may take it over, after those.
struct Evicted {
  std::shared_ptr<DeviceCopy> copy;
  size_t bytes;
  cl_mem_flags flags;
  std::vector<AccessToken> after;
};

// Gives up m's replica on `slot`; its data is elsewhere already. Work
// planned on it holds it until issued; the vendor frees it once its
// commands are done, unless `evicted` takes it for another buffer.
void drop_replica(_cl_mem *m, size_t slot, std::vector<Evicted> *evicted) {
  Coherence &c = coherence_of(m);
  if (evicted && m->replicas[slot] && m->replicas[slot]->owner && !m->replicas[slot]->refused()) {
    std::vector<AccessToken> after;
    for (auto &t : c.ranges.command_waits(slot, {0, m->device_bytes()}, true))
      if (!t->done->done()) after.push_back(t);
    evicted->push_back({m->replicas[slot], m->device_bytes(), m->flags & kDeviceAccessFlags, std::move(after)});
  }
  m->replicas[slot].reset();
  c.ranges.drop(slot);
  m->context->slots[slot].mem_used -= m->device_bytes();
}

// An access of device memory that has since changed hands, as the new
// owner's work follows it: for ordering only. Work that never reached the
// device touched nothing there, so its failure is not the new owner's: it
// counts as withdrawn (WaitList skips it).
class PreviousAccess final : public Completion {
 public:
  explicit PreviousAccess(std::shared_ptr<Completion> access) : access_(std::move(access)) {}
  cl_int status() const override { return access_->status(); }
  void on_done(std::function<void(cl_int)> fn) override { access_->on_done(std::move(fn)); }
  bool times(cl_ulong &, cl_ulong &) const override { return false; }
  cl_event vendor_event() const override { return access_->vendor_event(); }
  cl_int wait() override { return access_->wait(); }
  void when_issued(std::function<void()> fn) override { access_->when_issued(std::move(fn)); }
  bool withdrawn() const override { return access_->status() < 0; }
  void flush() override { access_->flush(); }

 private:
  std::shared_ptr<Completion> access_;
};

// Hands the memory of an evicted buffer to `m` on `slot`: m's work there
// waits for the end of every access of the old bytes (recorded as reads
// of m's copy there, which a transfer into it and a command overwriting it
// wait for), and the old buffer's destruction notice stops waiting for the
// memory once they have ended. Saves the vendor a new allocation (and the
// system the zeroing of its fresh pages) on every miss of a host-swapped
// cycle. False when it cannot be handed on.
bool take_over(_cl_mem *m, size_t slot, Evicted &from) {
  auto &owner = *from.copy->owner;
  std::shared_ptr<DestructionNotice> old;
  {
    std::lock_guard lock(owner.mutex);
    if (owner.unwatched) return false;
    m->notice->pending.fetch_add(1);
    old = std::exchange(owner.notice, m->notice);
  }
  Coherence &c = coherence_of(m);
  for (auto &t : from.after)
    c.ranges.read(slot, {0, m->device_bytes()}, access_token(std::make_shared<PreviousAccess>(t->done), t->slot));
  c.note_access();
  if (old) {
    // Released once every old access has ended; outside the context lock
    // (application callbacks may run then).
    auto left = std::make_shared<std::atomic<size_t>>(from.after.size() + 1);
    auto one = [left, old](cl_int) {
      if (left->fetch_sub(1, std::memory_order_acq_rel) == 1)
        VendorCallScope::defer([old] { DestructionNotice::arrive(old); });
    };
    for (auto &t : from.after) t->done->on_done(one);
    one(CL_SUCCESS);
  }
  m->replicas[slot] = from.copy;
  Runtime::get().log(2, "gave the memory of an evicted buffer (%zu bytes) on %s to another",
                     m->device_bytes(), m->context->slots[slot].device->name.c_str());
  return true;
}

// Makes `need` bytes fit under `slot`'s limit by evicting replicas there in
// the slot's eviction order (eviction_order.hpp), except those of the
// command being prepared (used at the current use_clock). A replica holding
// the only valid copy of some bytes writes them back to the host copy
// first. Caller holds ctx.mutex and memory_mutex.
cl_int make_room(_cl_context &ctx, size_t slot, size_t need, WaitList *wait, std::vector<Evicted> *evicted) {
  UNICL_HOLDS(ctx.mutex, "make_room: caller holds the context lock");
  DeviceSlot &s = ctx.slots[slot];
  if (need > s.mem_limit) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (s.mem_used + need <= s.mem_limit) return CL_SUCCESS;
  std::vector<_cl_mem *> candidates;
  for (_cl_mem *m : ctx.memory_objects)
    if (m->replicas[slot] && m->last_use < ctx.use_clock && evictable(m)) candidates.push_back(m);
  EvictionOrder &order = ctx.memory->eviction[slot];
  if (order.most_recent_first())
    std::sort(candidates.begin(), candidates.end(), [](_cl_mem *a, _cl_mem *b) { return a->last_use > b->last_use; });
  else
    std::sort(candidates.begin(), candidates.end(), [](_cl_mem *a, _cl_mem *b) { return a->last_use < b->last_use; });
  bool blocked = false;
  for (_cl_mem *m : candidates) {
    if (s.mem_used + need <= s.mem_limit) break;
    Coherence &c = coherence_of(m);
    // Bytes whose only valid copy is here go back to the host copy first.
    bool written_back = true;
    for (ByteRange r : c.ranges.validity().sole_ranges(slot)) {
      WaitList write_back;
      cl_int err = transfer_range(m, slot, c.host(), r, write_back);
      if (err == kBlocked) {
        if (wait) wait->block_on(write_back.blocker(), write_back.blocker_slot());
        written_back = false;
        break;
      }
      if (err != CL_SUCCESS) return err;
    }
    if (!written_back) {
      blocked = true;
      continue;
    }
    drop_replica(m, slot, evicted);
    order.evicted(m);
    Runtime::get().log(2, "evicted %zu bytes from %s (limit %zu)", m->device_bytes(), s.device->name.c_str(),
                       s.mem_limit);
  }
  if (s.mem_used + need <= s.mem_limit) return CL_SUCCESS;
  // Room will come when a write-back can go: the command waits for it.
  return blocked && wait ? kBlocked : CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

}  // namespace

bool apply_mem_limits(_cl_context &ctx, const std::string &spec) {
  if (spec.empty()) return true;
  auto parse_size = [](const std::string &text, size_t &out) {
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(v > 0)) return false;
    std::string unit(end);
    double scale = unit.empty() || unit == "B" ? 1 : unit == "K" || unit == "KB" ? 1024.0 :
                   unit == "M" || unit == "MB" ? 1048576.0 : unit == "G" || unit == "GB" ? 1073741824.0 : -1;
    const double bytes = v * scale;
    // The cast below is defined only for values size_t holds: infinities
    // ("inf", "1e400") and sizes past it are refused. As a double SIZE_MAX
    // rounds up (to 2^64 on 64-bit hosts), hence the strict comparison.
    if (scale < 0 || !(bytes >= 1) || !(bytes < static_cast<double>(SIZE_MAX))) return false;
    out = static_cast<size_t>(bytes);
    return true;
  };
  const std::string &list = spec;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    size_t bytes = 0;
    if (!parse_size(eq == std::string::npos ? item : item.substr(eq + 1), bytes)) return false;
    for (auto &s : ctx.slots)
      if (eq == std::string::npos || s.device->name.find(item.substr(0, eq)) != std::string::npos)
        s.mem_limit = std::min(s.mem_limit, bytes);
  }
  return true;
}

cl_int replica(_cl_mem *m, size_t slot, std::shared_ptr<DeviceCopy> &out, WaitList *wait) {
  UNICL_HOLDS(m->context->mutex, "replica: caller holds the context lock");
  _cl_context &ctx = *m->context;
  // Objects that own their storage count against the device's limit;
  // sub-buffers and images of a buffer live in their parent's.
  bool owns_storage = m->coherence && !m->parent;
  if (m->replicas[slot] && !m->replicas[slot]->refused()) {
    out = m->replicas[slot];
    return CL_SUCCESS;
  }
  std::unique_lock lock(ctx.memory_mutex, std::defer_lock);
  if (owns_storage) lock.lock();
  if (m->replicas[slot]) {
    // The vendor refused to make it: plan it again.
    m->replicas[slot].reset();
    if (owns_storage) ctx.slots[slot].mem_used -= m->device_bytes();
  }
  std::vector<Evicted> evicted;
  if (owns_storage) {
    if (cl_int err = make_room(ctx, slot, m->device_bytes(), wait, &evicted); err != CL_SUCCESS) return err;
    ctx.memory->eviction[slot].missed(m);
  }
  // A plain buffer takes over the memory of an evicted one of its size and
  // access, if there is one.
  if (owns_storage && m->type == CL_MEM_OBJECT_BUFFER)
    for (auto &e : evicted)
      if (e.copy && e.bytes == m->device_bytes() && e.flags == (m->flags & kDeviceAccessFlags) &&
          take_over(m, slot, e)) {
        ctx.slots[slot].mem_used += m->device_bytes();
        out = m->replicas[slot];
        return CL_SUCCESS;
      }
  evicted.clear();  // the others' memory goes back to the vendor (after their work)
  std::shared_ptr<DeviceCopy> parent;
  if (m->parent)
    if (cl_int err = replica(m->parent.get(), slot, parent, wait); err != CL_SUCCESS) return err;
  auto copy = std::make_shared<DeviceCopy>();
  copy->owner = std::make_shared<DeviceCopy::Owner>();
  copy->owner->notice = m->notice;
  m->replicas[slot] = copy;
  if (owns_storage) ctx.slots[slot].mem_used += m->device_bytes();
  // The application's destructor callbacks wait for this copy too, from
  // now: work planned on it may outlive the memory object.
  m->notice->pending.fetch_add(1);
  // Made by the device's issue queue, outside the context lock.
  ctx.slots[slot].issue->post([copy, parent, ctx = Ref<_cl_context>(&ctx), slot, owner = copy->owner,
                               type = m->type, flags = m->flags, size = m->size, origin = m->origin,
                               format = m->format, desc = m->desc] {
    DeviceEndpoint &device = *ctx->slots[slot].endpoint;
    // Replicas of a multi-device context hold no host pointer: the host
    // copy is UniCL's own, and transfers use plain reads and writes.
    cl_mem_flags vflags = flags & kDeviceAccessFlags;
    cl_int err = CL_SUCCESS;
    VendorRef<cl_mem> made;
    if (parent && !parent->get()) {
      err = parent->error.load();
    } else if (type == CL_MEM_OBJECT_BUFFER && parent) {
      err = device.create_sub_buffer(parent->get(), vflags, origin, size, made);
    } else if (type == CL_MEM_OBJECT_BUFFER) {
      err = device.create_buffer(vflags, size, made);
    } else {
      cl_image_desc d = desc;
      if (parent) d.buffer = parent->get();
      err = device.create_image(vflags, format, d, made);
    }
    if (err != CL_SUCCESS) {
      copy->error.store(err, std::memory_order_release);
      owner_arrives(*owner);
      return;
    }
    // An image of a buffer lives in the buffer's memory, whose own copy is
    // watched: its notice needs no vendor callback, which some vendors
    // never call for it (oclgrind frees a 1-D image of a buffer without).
    if (type != CL_MEM_OBJECT_BUFFER && parent) owner_arrives(*owner);
    else owner_notice_when_freed(device, owner, made.get());
    copy->handle = std::move(made);
  });
  out = std::move(copy);
  return CL_SUCCESS;
}

cl_int make_every_copy(_cl_mem *m) {
  {
    ContextLock lock(*m->context);
    for (size_t s = 0; s < m->context->slots.size(); ++s) {
      std::shared_ptr<DeviceCopy> copy;
      if (cl_int err = replica(m, s, copy); err != CL_SUCCESS) return err;
    }
  }  // made here, once the lock is released
  for (auto &copy : m->replicas)
    if (cl_int err = copy->error.load(); err != CL_SUCCESS) return err;
  return CL_SUCCESS;
}

cl_int init_coherence(_cl_mem *m, const void *initial) {
  auto &ctx = *m->context;
  if (m->parent && m->type == CL_MEM_OBJECT_BUFFER) {
    // A sub-buffer is a range of its root: the root's copies and host copy.
    m->notice->staging = coherence_of(m->root()).staging;
    return CL_SUCCESS;
  }
  // Without initial data the contents are undefined: any copy is as valid
  // as another, so none needs moving before the first write.
  auto c = std::make_shared<Coherence>(m->device_bytes(), ctx.slots.size(), initial == nullptr);
  c->staging = std::make_shared<HostStaging>();
  if (m->flags & CL_MEM_USE_HOST_PTR) {
    c->staging->ptr = m->host_ptr;
  } else {
    size_t n = (m->device_bytes() + 4095) / 4096 * 4096;
    c->staging->owned = {static_cast<std::byte *>(std::aligned_alloc(4096, n)), std::free};
    if (!c->staging->owned) return CL_OUT_OF_HOST_MEMORY;
    c->staging->ptr = c->staging->owned.get();
    if (initial) std::memcpy(c->staging->ptr, initial, m->device_bytes());
  }
  m->notice->staging = c->staging;
  m->coherence = std::move(c);
  if (!m->parent) {
    std::lock_guard lock(ctx.memory_mutex);
    ctx.memory_objects.push_back(m);
  }
  return CL_SUCCESS;
}

cl_int register_replica(_cl_mem *m, size_t slot, cl_mem rep) {
  m->notice->pending.fetch_add(1);
  notice_when_freed(*m->context->slots[slot].endpoint, m->notice, rep);
  return CL_SUCCESS;
}

}  // namespace unicl
