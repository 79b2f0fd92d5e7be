// Replicas and coherence of memory objects across the slots of a context.
#include "memory/coherence.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/event.hpp"
#include "core/image_format.hpp"
#include "core/runtime.hpp"

using namespace unicl;

namespace unicl {

void CopyTrack::add_read(SlotEvent e) {
  if (reads.size() >= prune_at) {
    std::erase_if(reads, [](const SlotEvent &r) {
      cl_int s = CL_QUEUED;
      cl_event v = r.event.get();
      return vd(v).clGetEventInfo(v, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS &&
             s <= CL_COMPLETE;
    });
    prune_at = std::max<size_t>(8, 2 * reads.size());
  }
  reads.push_back(std::move(e));
}

namespace {

void CL_CALLBACK replica_destroyed(cl_mem, void *data) {
  std::unique_ptr<std::shared_ptr<DestructionNotice>> notice(static_cast<std::shared_ptr<DestructionNotice> *>(data));
  DestructionNotice::arrive(*notice);
}

// What a finished transfer took goes into the link model of its device.
struct TransferSample {
  std::string device;
  size_t bytes;
  static void record(cl_event e, const std::string &device, size_t bytes) {
    cl_ulong start = 0, end = 0;
    if (vd(e).clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS &&
        vd(e).clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS &&
        end > start)
      if (auto *scheduling = Runtime::get().scheduling())
        scheduling->transfer_timed(device, bytes, static_cast<double>(end - start) * 1e-9);
  }
  static void CL_CALLBACK done(cl_event e, cl_int status, void *data) {
    std::unique_ptr<TransferSample> self(static_cast<TransferSample *>(data));
    if (status == CL_COMPLETE) record(e, self->device, self->bytes);
  }
};

void time_transfer(cl_event e, const std::string &device, size_t bytes) {
  // Vendors need not call back for a status already reached. A serialized
  // vendor completes nothing while its lock is held: the check and the
  // registration form one step.
  auto hold = hold_vendor(e);
  if (vendor_status(e) == CL_COMPLETE) {
    if (hold) hold.unlock();
    return TransferSample::record(e, device, bytes);
  }
  auto sample = std::make_unique<TransferSample>(TransferSample{device, bytes});
  if (vd(e).clSetEventCallback(e, CL_COMPLETE, TransferSample::done, sample.get()) == CL_SUCCESS) sample.release();
}

// Copies a whole replica to or from the host copy on `q`.
cl_int transfer(bool to_host, cl_command_queue q, _cl_mem *m, cl_mem rep, void *host, WaitList &wait, cl_event *ev) {
  const cl_icd_dispatch &d = vd(q);
  cl_int err;
  if (m->is_image()) {
    size_t origin[3] = {0, 0, 0}, region[3];
    m->full_region(region);
    err = to_host ? d.clEnqueueReadImage(q, rep, CL_FALSE, origin, region, 0, 0, host, wait.size(), wait.data(), ev)
                  : d.clEnqueueWriteImage(q, rep, CL_FALSE, origin, region, 0, 0, host, wait.size(), wait.data(), ev);
  } else {
    err = to_host ? d.clEnqueueReadBuffer(q, rep, CL_FALSE, 0, m->size, host, wait.size(), wait.data(), ev)
                  : d.clEnqueueWriteBuffer(q, rep, CL_FALSE, 0, m->size, host, wait.size(), wait.data(), ev);
  }
  if (err == CL_SUCCESS) {
    d.clFlush(q);
    cl_device_id dev = nullptr;
    d.clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
    for (auto &s : m->context->slots)
      if (s.device->vendor == dev) {
        time_transfer(*ev, s.device->name, m->device_bytes());
        Runtime::get().trace().record(*ev, s.device->name, to_host ? "to host" : "to device", "transfer");
      }
  }
  return err;
}

// A transfer cannot be issued yet: the command that needs it takes over
// the blocker and is submitted once it completes (see task.hpp).
cl_int pass_blocker(WaitList &transfer_wait, WaitList &command_wait) {
  command_wait.block_on(transfer_wait.blocker());
  return kBlocked;
}


// Reads the valid copy of `root` back into the host copy.
cl_int read_back(_cl_mem *root, WaitList &outer) {
  Coherence &c = coherence_of(root);
  _cl_context &ctx = *root->context;
  size_t src = 0;
  while (src < c.host() && !c.valid[src]) ++src;
  if (src == c.host()) {  // nothing valid anywhere: contents undefined, any copy will do
    std::fill(c.valid.begin(), c.valid.end(), true);
    return CL_SUCCESS;
  }
  cl_mem rep;
  cl_command_queue q;
  if (cl_int err = replica(root, src, rep); err != CL_SUCCESS) return err;
  if (cl_int err = ctx.transfer_queue(src, q); err != CL_SUCCESS) return err;
  WaitList wait;
  auto &host = c.tracks[c.host()];
  wait.add_from(c.tracks[src].write.event.get(), src, src);
  wait.add_from(host.write.event.get(), host.write.slot, src);
  for (auto &r : host.reads) wait.add_from(r.event.get(), r.slot, src);
  if (wait.blocked()) return pass_blocker(wait, outer);
  cl_event ev = nullptr;
  if (cl_int err = transfer(true, q, root, rep, c.staging->ptr, wait, &ev); err != CL_SUCCESS) return err;
  auto owned = VendorRef<cl_event>::adopt(ev);
  c.tracks[src].add_read({owned, src});
  host.write = {owned, src};
  host.clear_reads();
  c.valid[c.host()] = true;
  return CL_SUCCESS;
}

cl_int make_valid(_cl_mem *root, size_t slot, WaitList &outer) {
  Coherence &c = coherence_of(root);
  _cl_context &ctx = *root->context;
  if (!c.valid[c.host()])
    if (cl_int err = read_back(root, outer); err != CL_SUCCESS) return err;
  if (c.valid[slot]) return CL_SUCCESS;
  cl_mem rep;
  cl_command_queue q;
  if (cl_int err = replica(root, slot, rep, &outer); err != CL_SUCCESS) return err;
  if (cl_int err = ctx.transfer_queue(slot, q); err != CL_SUCCESS) return err;
  WaitList wait;
  auto &host = c.tracks[c.host()];
  auto &dst = c.tracks[slot];
  wait.add_from(host.write.event.get(), host.write.slot, slot);
  wait.add_from(dst.write.event.get(), slot, slot);
  for (auto &r : dst.reads) wait.add_from(r.event.get(), r.slot, slot);
  if (wait.blocked()) return pass_blocker(wait, outer);
  cl_event ev = nullptr;
  if (cl_int err = transfer(false, q, root, rep, c.staging->ptr, wait, &ev); err != CL_SUCCESS) return err;
  auto owned = VendorRef<cl_event>::adopt(ev);
  host.add_read({owned, slot});
  dst.write = {owned, slot};
  dst.clear_reads();
  c.valid[slot] = true;
  return CL_SUCCESS;
}

bool evictable(_cl_mem *m) {
  return m->type == CL_MEM_OBJECT_BUFFER && !m->parent && m->children.load() == 0 && m->map_count.load() == 0;
}

// Gives up m's replica on `slot`; its data is elsewhere already.
void drop_replica(_cl_mem *m, size_t slot) {
  Coherence &c = coherence_of(m);
  m->replicas[slot] = VendorRef<cl_mem>();  // the vendor frees it once its commands are done
  c.valid[slot] = false;
  c.tracks[slot] = CopyTrack();
  m->context->slots[slot].mem_used -= m->device_bytes();
}

// Makes `need` bytes fit under `slot`'s limit by evicting the least recently
// used replicas there, except those of the command being prepared (used at
// the current use_clock). A replica holding the only valid copy is first
// written back to the host copy. Caller holds ctx.mutex and memory_mutex.
cl_int make_room(_cl_context &ctx, size_t slot, size_t need, WaitList *wait) {
  DeviceSlot &s = ctx.slots[slot];
  if (need > s.mem_limit) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (s.mem_used + need <= s.mem_limit) return CL_SUCCESS;
  std::vector<_cl_mem *> candidates;
  for (_cl_mem *m : ctx.memory_objects)
    if (m->replicas[slot] && m->last_use < ctx.use_clock && evictable(m)) candidates.push_back(m);
  std::sort(candidates.begin(), candidates.end(), [](_cl_mem *a, _cl_mem *b) { return a->last_use < b->last_use; });
  bool blocked = false;
  for (_cl_mem *m : candidates) {
    if (s.mem_used + need <= s.mem_limit) break;
    Coherence &c = coherence_of(m);
    bool elsewhere = c.valid[c.host()];
    for (size_t d = 0; d < c.host(); ++d) elsewhere |= d != slot && c.valid[d];
    if (c.valid[slot] && !elsewhere) {
      WaitList write_back;
      cl_int err = read_back(m, write_back);
      if (err == kBlocked) {
        if (wait) wait->block_on(write_back.blocker());
        blocked = true;
        continue;
      }
      if (err != CL_SUCCESS) return err;
    }
    drop_replica(m, slot);
    Runtime::get().log(2, "evicted %zu bytes from %s (limit %zu)", m->device_bytes(), s.device->name.c_str(),
                       s.mem_limit);
  }
  if (s.mem_used + need <= s.mem_limit) return CL_SUCCESS;
  // Room will come when a write-back can go: the command waits for it.
  return blocked && wait ? kBlocked : CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

}  // namespace

bool apply_mem_limits(_cl_context &ctx, const char *spec) {
  if (!spec || !*spec) return true;
  auto parse_size = [](const std::string &text, size_t &out) {
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(v > 0)) return false;
    std::string unit(end);
    double scale = unit.empty() || unit == "B" ? 1 : unit == "K" || unit == "KB" ? 1024.0 :
                   unit == "M" || unit == "MB" ? 1048576.0 : unit == "G" || unit == "GB" ? 1073741824.0 : -1;
    if (scale < 0 || v * scale < 1) return false;
    out = static_cast<size_t>(v * scale);
    return true;
  };
  std::string list(spec);
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

cl_int acquire(_cl_mem *m, size_t slot, Access access, WaitList &wait) {
  _cl_mem *root = m->root();
  Coherence &c = coherence_of(root);
  if (!c.valid[slot])
    if (cl_int err = make_valid(root, slot, wait); err != CL_SUCCESS) return err;
  auto &t = c.tracks[slot];
  wait.add_from(t.write.event.get(), slot, slot);
  if (access & kWrite)
    for (auto &r : t.reads) wait.add_from(r.event.get(), slot, slot);
  return CL_SUCCESS;
}

void record(_cl_mem *m, size_t slot, Access access, cl_event event) {
  Coherence &c = coherence_of(m->root());
  auto &t = c.tracks[slot];
  if (access & kWrite) {
    t.write = {VendorRef<cl_event>::share(event), slot};
    t.clear_reads();
    std::fill(c.valid.begin(), c.valid.end(), false);
    c.valid[slot] = true;
  } else {
    t.add_read({VendorRef<cl_event>::share(event), slot});
  }
}

cl_int acquire_host(_cl_mem *m, Access access, size_t via_slot, WaitList &wait) {
  _cl_mem *root = m->root();
  Coherence &c = coherence_of(root);
  if (!c.valid[c.host()])
    if (cl_int err = read_back(root, wait); err != CL_SUCCESS) return err;
  auto &host = c.tracks[c.host()];
  wait.add_from(host.write.event.get(), host.write.slot, via_slot);
  if (access & kWrite)
    for (auto &r : host.reads) wait.add_from(r.event.get(), r.slot, via_slot);
  return CL_SUCCESS;
}

void record_host(_cl_mem *m, Access access, cl_event event, size_t event_slot) {
  Coherence &c = coherence_of(m->root());
  auto &host = c.tracks[c.host()];
  if (access & kWrite) {
    host.write = {VendorRef<cl_event>::share(event), event_slot};
    host.clear_reads();
    std::fill(c.valid.begin(), c.valid.end(), false);
    c.valid[c.host()] = true;
  } else {
    host.add_read({VendorRef<cl_event>::share(event), event_slot});
  }
}

void *host_copy(_cl_mem *m) {
  _cl_mem *root = m->root();
  return static_cast<std::byte *>(coherence_of(root).staging->ptr) + (m == root ? 0 : m->origin);
}

cl_int check_image_region(_cl_mem *m, const size_t *origin, const size_t *region) {
  if (!origin || !region) return CL_INVALID_VALUE;
  size_t dims[3];
  m->full_region(dims);
  for (int i = 0; i < 3; ++i)
    if (region[i] == 0 || origin[i] > dims[i] || region[i] > dims[i] - origin[i]) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int init_coherence(_cl_mem *m, const void *initial) {
  auto &ctx = *m->context;
  auto c = std::make_shared<Coherence>();
  c->valid.assign(ctx.slots.size() + 1, initial == nullptr);
  c->tracks.resize(ctx.slots.size() + 1);
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
  if (initial) c->valid[c->host()] = true;
  m->notice->staging = c->staging;
  m->coherence = std::move(c);
  if (!m->parent) {
    std::lock_guard lock(ctx.memory_mutex);
    ctx.memory_objects.push_back(m);
  }
  return CL_SUCCESS;
}

cl_int register_replica(_cl_mem *m, cl_mem rep) {
  auto data = std::make_unique<std::shared_ptr<DestructionNotice>>(m->notice);
  m->notice->pending.fetch_add(1);
  cl_int err = vd(rep).clSetMemObjectDestructorCallback(rep, replica_destroyed, data.get());
  if (err == CL_SUCCESS) data.release();
  else m->notice->pending.fetch_sub(1);
  return CL_SUCCESS;
}

}  // namespace unicl

namespace unicl {

cl_int replica(_cl_mem *m, size_t slot, cl_mem &out, WaitList *wait) {
  if (m->replicas[slot]) {
    out = m->replicas[slot].get();
    return CL_SUCCESS;
  }
  // Objects that own their storage count against the device's limit;
  // sub-buffers and images of a buffer live in their parent's.
  std::unique_lock lock(m->context->memory_mutex, std::defer_lock);
  if (m->coherence && !m->parent) {
    lock.lock();
    if (cl_int err = make_room(*m->context, slot, m->device_bytes(), wait); err != CL_SUCCESS) return err;
  }
  cl_context vctx = m->context->vendor(slot);
  // Replicas of a multi-device context hold no host pointer: the host copy
  // is UniCL's own, and transfers use plain reads and writes.
  cl_mem_flags vflags = m->flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
  cl_int err = CL_SUCCESS;
  cl_mem rep = nullptr;
  if (m->type == CL_MEM_OBJECT_BUFFER && m->parent) {
    cl_mem parent_rep;
    if ((err = replica(m->parent.get(), slot, parent_rep, wait)) != CL_SUCCESS) return err;
    cl_buffer_region region{m->origin, m->size};
    rep = vd(parent_rep).clCreateSubBuffer(parent_rep, vflags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  } else if (m->type == CL_MEM_OBJECT_BUFFER) {
    rep = vd(vctx).clCreateBuffer(vctx, vflags, m->size, nullptr, &err);
  } else {
    cl_image_desc d = m->desc;
    if (m->parent) {
      if ((err = replica(m->parent.get(), slot, d.buffer, wait)) != CL_SUCCESS) return err;
    }
    rep = vd(vctx).clCreateImage(vctx, vflags, &m->format, &d, nullptr, &err);
  }
  if (err != CL_SUCCESS) return err;
  m->replicas[slot] = VendorRef<cl_mem>::adopt(rep);
  if (lock.owns_lock()) m->context->slots[slot].mem_used += m->device_bytes();
  register_replica(m, rep);
  out = rep;
  return CL_SUCCESS;
}

}  // namespace unicl
