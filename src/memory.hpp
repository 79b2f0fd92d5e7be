// Memory objects. In a context of one device a UniCL buffer is a thin
// wrapper of one vendor buffer. In a context of several devices it owns a
// replica per device (made on first use) plus a host copy, and a Coherence
// record says which copies are valid and which vendor events last touched
// each, so that a command on any device sees the right bytes.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "context.hpp"

namespace unicl {

class WaitList;

struct HostStaging {
  std::unique_ptr<std::byte, void (*)(void *)> owned{nullptr, nullptr};
  void *ptr = nullptr;  // `owned` or the application's CL_MEM_USE_HOST_PTR memory
};

struct SlotEvent {
  VendorRef<cl_event> event;
  size_t slot = 0;
};

// Per-copy history: the last command that wrote the copy and the commands
// that read it since. Needed to order transfers against the program's own
// commands on other devices.
struct CopyTrack {
  SlotEvent write;
  std::vector<SlotEvent> reads;
  size_t prune_at = 8;  // reads' size at which finished ones are dropped (doubles with what stays)
  // Adds a reader, first dropping finished readers when the list has
  // doubled since the last time: amortized constant work per command.
  void add_read(SlotEvent e);
  void clear_reads() {
    reads.clear();
    prune_at = 8;
  }
};

struct Coherence {
  std::vector<bool> valid;  // one per slot, then host
  std::vector<CopyTrack> tracks;
  std::shared_ptr<HostStaging> staging;
  size_t host() const { return valid.size() - 1; }
};

// Fires the application's destructor callbacks once every vendor replica is
// really gone (vendors free them only after their commands finish), then
// frees the host copy.
struct DestructionNotice {
  using Callback = void(CL_CALLBACK *)(cl_mem, void *);
  std::atomic<int> pending{1};
  cl_mem handle = nullptr;
  std::mutex mutex;
  std::vector<std::pair<Callback, void *>> callbacks;
  std::shared_ptr<HostStaging> staging;
  static void arrive(std::shared_ptr<DestructionNotice> self);
};

enum Access : unsigned { kRead = 1, kWrite = 2, kReadWrite = 3 };

}  // namespace unicl

struct _cl_mem : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Mem;
  _cl_mem() : ObjectHeader(kKind) {}
  ~_cl_mem();

  unicl::Ref<_cl_context> context;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  cl_mem_flags flags = 0;
  size_t size = 0;
  void *host_ptr = nullptr;
  unicl::Ref<_cl_mem> parent;  // sub-buffers and buffer-backed images
  size_t origin = 0;           // sub-buffer offset in parent
  cl_image_format format{};
  cl_image_desc desc{};
  size_t element_size = 0;
  std::vector<cl_mem_properties> property_list;
  bool properties_given = false;
  std::atomic<cl_uint> map_count{0};
  std::atomic<int> children{0};  // sub-buffers and images made from it
  uint64_t last_use = 0;         // context->use_clock of its last command (context->mutex)

  std::vector<unicl::VendorRef<cl_mem>> replicas;   // per slot; guarded by context->mutex
  std::shared_ptr<unicl::Coherence> coherence;       // root buffers in multi-slot contexts
  std::shared_ptr<unicl::DestructionNotice> notice;
  // Multi-slot contexts map the host copy; each live map and its access.
  std::vector<std::pair<void *, unsigned>> host_maps;  // guarded by context->mutex

  bool is_image() const { return type != CL_MEM_OBJECT_BUFFER && type != CL_MEM_OBJECT_PIPE; }
  _cl_mem *root() { return parent && type == CL_MEM_OBJECT_BUFFER ? parent->root() : this; }
  // The vendor object standing for this memory object on `slot`, made on
  // first use. Caller holds context->mutex in multi-slot contexts. Making
  // one may evict other buffers' replicas from a full device: their data
  // goes back to the host copy first, and `wait` (when given) receives the
  // blocker if that write-back must wait for another device (kBlocked).
  cl_int replica(size_t slot, cl_mem &out, unicl::WaitList *wait = nullptr);
  // Bytes a replica of this object occupies on a device.
  size_t device_bytes();
};

namespace unicl {

class WaitList;
// Parses UNICL_DEVICE_MEM_LIMIT ("512M", "pthread=1G,Oclgrind=64M", or a
// default followed by per-device entries) into the limits of `ctx`'s
// slots; false when malformed or a limit is 0.
bool apply_mem_limits(_cl_context &ctx, const char *spec);

// Coherence for multi-slot contexts; caller holds ctx.mutex.
// Makes `slot`'s copy of `m` valid (issuing transfers) and adds to `wait`
// what a command accessing it with `access` must wait for.
cl_int acquire(_cl_mem *m, size_t slot, Access access, class WaitList &wait);
// Records the command `event` (running on `slot`) as the latest access.
void record(_cl_mem *m, size_t slot, Access access, cl_event event);
// Makes the host copy valid; `wait` gets what must finish before it is.
cl_int acquire_host(_cl_mem *m, Access access, size_t via_slot, class WaitList &wait);
void record_host(_cl_mem *m, Access access, cl_event event, size_t event_slot);
void *host_copy(_cl_mem *m);
// Checks an (origin, region) against the image's size: vendors do not all
// do it, and some read or write out of bounds instead.
cl_int check_image_region(_cl_mem *image, const size_t *origin, const size_t *region);

}  // namespace unicl
