// Coherence of memory objects across the slots of a multi-device context.
//
// Every root buffer has a copy per slot (a vendor replica, made on first
// use) and a host copy. Which copy holds valid bytes is tracked per byte
// range (byte_ranges.hpp), so commands on different devices that touch
// disjoint ranges of one buffer (sub-buffers, reads, writes, fills and
// copies at an offset) run at the same time, and making a range valid
// moves only the bytes missing there. Each range of each copy also
// remembers the vendor events that last wrote and read it: a transfer or a
// command is ordered after exactly the accesses of the bytes it touches.
//
// Transfers take the route the transfer planner picks
// (transfer_planner.hpp): through the host copy, or straight between two
// devices whose vendor library copies between its own contexts (the node
// client, node to node); each is timed for the link models and counted in
// the context's bytes moved. A 2-D image is kept by whole rows (its host
// copy packs them: row r is bytes [r, r + 1) * row_bytes()); other images
// whole, as one range.
//
// Everything here runs under the context lock and only plans: copies and
// transfers are posted to the slots' issue queues (backend/issue_queue.hpp)
// and recorded with pending completions, so later commands are ordered
// after them before they reach the vendor.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/mem_object.hpp"
#include "memory/byte_ranges.hpp"

namespace unicl {

class WaitList;

// A command's or a transfer's completion and the slot whose device ran it:
// what later commands and transfers are ordered after. Shared, so that one
// access is one token across all the ranges it touched (compared by
// identity).
struct SlotAccess {
  std::shared_ptr<Completion> done;
  size_t slot = 0;
  // Transfers: the bytes copied and where to. A transfer that fails on its
  // device is undone by the first command that finds it (which fails with
  // its error); later ones plan a new one.
  bool transfer = false;
  Location dst = 0;
  ByteRange range{};
  // A copy from a device whose own copy of those bytes was still on its
  // way, waiting for it where both run (transfers.cpp: transfer_waits).
  bool relayed = false;
  mutable bool failure_seen = false;  // guarded by the context lock
};
using AccessToken = std::shared_ptr<const SlotAccess>;

struct Coherence final : Residency {
  Coherence(size_t bytes, size_t slots, bool initially_valid_everywhere);
  RangeCoherence<AccessToken> ranges;
  std::shared_ptr<HostStaging> staging;
  size_t records_since_prune = 0;
  size_t host() const override { return ranges.validity().locations() - 1; }
  size_t valid_bytes(size_t location, size_t offset, size_t length) const override {
    return ranges.validity().valid_bytes(location, {offset, length});
  }
  // Forgets finished accesses now and then: amortized constant work per
  // recorded access, and fragmented histories merge again.
  void note_access();
};

// The coherence state of a root buffer of a multi-device context.
inline Coherence &coherence_of(_cl_mem *root) { return static_cast<Coherence &>(*root->coherence); }

// The bytes of `m` a command touches, in its root buffer: [offset, offset +
// size) of `m` itself (a sub-buffer starts at its origin in the root), or
// all of `m` when `size` is kWhole. Images are whole but for a range of
// whole rows of a 2-D image (_cl_mem::row_bytes).
constexpr size_t kWhole = ~size_t{0};
ByteRange root_range(_cl_mem *m, size_t offset = 0, size_t size = kWhole);

// The copy of `m` on `slot`, planned on first use (made by the slot's
// issue queue once the context lock is released). Caller holds the
// context lock. Planning one may evict other buffers' replicas from a
// full device: their data goes back to the host copy first, and `wait`
// (when given) receives the blocker if that write-back must wait for
// another device (kBlocked).
cl_int replica(_cl_mem *m, size_t slot, std::shared_ptr<DeviceCopy> &out, WaitList *wait = nullptr);
// Multi-device contexts: the host copy and coherence record of a new
// memory object, holding `initial` when given.
cl_int init_coherence(_cl_mem *m, const void *initial);
// Multi-device contexts: makes `m`'s copy on every device now, so that each
// vendor checks the object (an image's format and sizes) at its creation,
// as the specification wants errors; the first vendor error, if any.
cl_int make_every_copy(_cl_mem *m);
// Registers `rep`, a new copy of `m` on `slot`: the application's
// destructor callbacks wait until every copy is gone.
cl_int register_replica(_cl_mem *m, size_t slot, cl_mem rep);

// Parses UNICL_DEVICE_MEM_LIMIT ("512M", "pthread=1G,Oclgrind=64M", or a
// default followed by per-device entries) into the limits of `ctx`'s
// slots; false when malformed, or a limit is 0 or more than size_t holds.
// An empty `spec` changes nothing.
bool apply_mem_limits(_cl_context &ctx, const std::string &spec);

// Coherence for multi-slot contexts; caller holds ctx.mutex. `range` is in
// root coordinates (root_range()).
// Makes `range` of `slot`'s copy valid (issuing transfers) unless the
// command overwrites all of it, and adds to `wait` what a command accessing
// it with `access` must wait for.
cl_int acquire(_cl_mem *m, ByteRange range, size_t slot, Access access, bool overwrites, WaitList &wait);
// The token of a command's access, made once per command whatever the
// number of its memory objects: its completion `done`, run on `slot`.
AccessToken access_token(std::shared_ptr<Completion> done, size_t slot);
// Records the command of `token` (running on its slot) as the latest access.
void record(_cl_mem *m, ByteRange range, Access access, const AccessToken &token);
// The same for a command that touches the host copy (maps), ordered on the
// queue of `via_slot`.
cl_int acquire_host(_cl_mem *m, ByteRange range, Access access, size_t via_slot, WaitList &wait);
void record_host(_cl_mem *m, ByteRange range, Access access, const AccessToken &token);
void *host_copy(_cl_mem *m);
// Whether the application best reads `range` in parts (read_sources) rather
// than through one device: its bytes are valid in the host copy, or on no
// single device (spread by a divided launch: one device would first gather
// them all).
bool read_in_parts(_cl_mem *m, ByteRange range);
// Where each part of `range` (root coordinates) is read from: the host copy
// (slot == host) where it is valid there or nowhere (undefined bytes), else
// a device holding it. Neighbouring parts of one source come as one.
struct ReadSource {
  size_t slot;
  ByteRange range;
};
std::vector<ReadSource> read_sources(_cl_mem *m, ByteRange range);
// The host copy's location (the slot read_sources names it by).
size_t host_location(_cl_mem *m);
// Checks an (origin, region) against the image's size: vendors do not all
// do it, and some read or write out of bounds instead.
cl_int check_image_region(_cl_mem *image, const size_t *origin, const size_t *region);

}  // namespace unicl
