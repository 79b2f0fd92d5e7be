// Coherence of memory objects across the slots of a multi-device context:
// which copies (one per slot, plus the host copy) are valid, which vendor
// events last touched each, the transfers that make a copy valid before a
// command uses it, and the per-device accounting with eviction to the host
// copy when a device is full.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/mem_object.hpp"

namespace unicl {

class WaitList;

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

struct Coherence final : Residency {
  std::vector<bool> valid;  // one per slot, then host
  std::vector<CopyTrack> tracks;
  std::shared_ptr<HostStaging> staging;
  size_t host() const override { return valid.size() - 1; }
  bool valid_on(size_t location) const override { return valid[location]; }
};

// The coherence state of a root buffer of a multi-device context.
inline Coherence &coherence_of(_cl_mem *root) { return static_cast<Coherence &>(*root->coherence); }

// The vendor object standing for `m` on `slot`, made on first use. Caller
// holds context->mutex in multi-slot contexts. Making one may evict other
// buffers' replicas from a full device: their data goes back to the host
// copy first, and `wait` (when given) receives the blocker if that
// write-back must wait for another device (kBlocked).
cl_int replica(_cl_mem *m, size_t slot, cl_mem &out, WaitList *wait = nullptr);
// Multi-device contexts: the host copy and coherence record of a new
// memory object, holding `initial` when given.
cl_int init_coherence(_cl_mem *m, const void *initial);
// Registers a new vendor replica of `m`: the application's destructor
// callbacks wait until every replica is gone.
cl_int register_replica(_cl_mem *m, cl_mem rep);

// Parses UNICL_DEVICE_MEM_LIMIT ("512M", "pthread=1G,Oclgrind=64M", or a
// default followed by per-device entries) into the limits of `ctx`'s
// slots; false when malformed, or a limit is 0 or more than size_t holds.
// An empty `spec` changes nothing.
bool apply_mem_limits(_cl_context &ctx, const std::string &spec);

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
