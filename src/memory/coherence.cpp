// Which copy of a buffer's bytes a command may use, and what it must wait
// for: the rules of coherence.hpp.
#include "memory/coherence.hpp"

#include <algorithm>

#include "core/division.hpp"
#include "core/event.hpp"
#include "memory/context_memory.hpp"
#include "memory/transfers.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// Accesses recorded between two prunes of a buffer's history.
constexpr size_t kPruneEvery = 64;

// Adds what a command on `to_slot` waits for; the error of a transfer it
// needs that failed on its device (undone now: see SlotAccess).
cl_int add_waits(Coherence &c, const std::vector<AccessToken> &tokens, size_t to_slot, WaitList &wait) {
  for (auto &t : tokens) {
    if (cl_int err = undo_failed_transfer(c, t); err != CL_SUCCESS) return err;
    wait.add_from(t->done, t->slot, to_slot);
  }
  return CL_SUCCESS;
}


bool overlap(ByteRange a, ByteRange b) { return a.offset < b.end() && b.offset < a.end(); }

// The holders of `missing` whose bytes are still on their way to them (a
// transfer into them recorded, not done: validity counts them at once).
LocationSet still_arriving(const Coherence &c, std::span<const MissingRange> missing) {
  LocationSet out;
  for (const MissingRange &piece : missing)
    for (Location h : piece.holders) {
      if (out.contains(h)) continue;
      for (const AccessToken &t : c.ranges.command_waits(h, piece.range, false))
        if (t->transfer && !t->done->done()) {
          out.insert(h);
          break;
        }
    }
  return out;
}

// Makes `range` valid at `dst` (a slot or the host copy) along the routes
// the context's planner picks (the cheapest holder, through the host copy
// when there is no direct link). Pieces no copy holds are undefined (never
// written): any copy will do.
//
// A step that must wait for another device's work (kBlocked: the command
// is planned again once that is done) does not hold back the steps of
// other bytes: the pieces of a buffer spread over several devices then come
// to the host copy at once, each over its own link, instead of one after the
// other. A step out of a location whose bytes a blocked step was to bring
// waits with it.
cl_int make_valid(_cl_mem *root, Location dst, ByteRange range, WaitList &outer) {
  Coherence &c = coherence_of(root);
  if (c.ranges.validity().valid_at(dst, range)) return CL_SUCCESS;  // the common case: nothing to list
  auto missing = c.ranges.validity().missing(dst, range);
  const LocationSet arriving = still_arriving(c, missing);
  TransferPlan plan;
  {
    ContextMemory &memory = *root->context->memory;
    std::lock_guard lock(memory.mutex);
    plan = memory.planner.plan(dst, missing, arriving, host_clock_ns() * 1e-9);
  }
  for (auto &piece : plan.unplanned)
    if (piece.holders.empty()) c.ranges.mark_undefined(piece.range);
  std::vector<TransferStep> blocked;
  for (auto &step : plan.steps) {
    bool after_blocked = std::any_of(blocked.begin(), blocked.end(), [&](const TransferStep &b) {
      return b.dst == step.src && overlap(b.range, step.range);
    });
    cl_int err = after_blocked ? kBlocked : transfer_range(root, step.src, step.dst, step.range, outer);
    if (err == kBlocked) blocked.push_back(step);
    else if (err != CL_SUCCESS) return err;
  }
  return blocked.empty() ? CL_SUCCESS : kBlocked;
}

}  // namespace

Coherence::Coherence(size_t bytes, size_t slot_count, bool initially_valid_everywhere)
    : ranges(bytes, slot_count + 1,
             initially_valid_everywhere ? LocationSet::first(slot_count + 1) : LocationSet::only(slot_count)) {}

void Coherence::note_access() {
  if (++records_since_prune < kPruneEvery) return;
  records_since_prune = 0;
  ranges.prune([](const AccessToken &t) { return t->done->done(); });
}

ByteRange root_range(_cl_mem *m, size_t offset, size_t size) {
  // Rows of a 2-D image come as whole rows (a split launch's windows count
  // rows: split_touched), which is what transfer_range moves.
  if (m->is_image()) return m->row_bytes() && size != kWhole ? ByteRange{offset, size} : ByteRange{0, m->device_bytes()};
  size_t base = m->root() == m ? 0 : m->origin;
  return {base + offset, size == kWhole ? m->size - offset : size};
}

cl_int acquire(_cl_mem *m, ByteRange range, size_t slot, Access access, bool overwrites, WaitList &wait) {
  UNICL_HOLDS(m->context->mutex, "acquire: caller holds the context lock");
  _cl_mem *root = m->root();
  Coherence &c = coherence_of(root);
  // A command that writes every byte of its range needs none of the old
  // ones; any other needs them valid here (a kernel that may write only
  // some bytes of a buffer must leave the rest as they were).
  if (!overwrites)
    if (cl_int err = make_valid(root, slot, range, wait); err != CL_SUCCESS) return err;
  return add_waits(c, c.ranges.command_waits(slot, range, access & kWrite), slot, wait);
}

AccessToken access_token(std::shared_ptr<Completion> done, size_t slot) {
  return std::make_shared<SlotAccess>(SlotAccess{std::move(done), slot});
}

void record(_cl_mem *m, ByteRange range, Access access, const AccessToken &token) {
  UNICL_HOLDS(m->context->mutex, "record: caller holds the context lock");
  Coherence &c = coherence_of(m->root());
  if (access & kWrite) c.ranges.write(token->slot, range, token);
  else c.ranges.read(token->slot, range, token);
  c.note_access();
}

cl_int acquire_host(_cl_mem *m, ByteRange range, Access access, size_t via_slot, WaitList &wait) {
  UNICL_HOLDS(m->context->mutex, "acquire_host: caller holds the context lock");
  _cl_mem *root = m->root();
  Coherence &c = coherence_of(root);
  if (cl_int err = make_valid(root, c.host(), range, wait); err != CL_SUCCESS) return err;
  return add_waits(c, c.ranges.command_waits(c.host(), range, access & kWrite), via_slot, wait);
}

void record_host(_cl_mem *m, ByteRange range, Access access, const AccessToken &token) {
  UNICL_HOLDS(m->context->mutex, "record_host: caller holds the context lock");
  Coherence &c = coherence_of(m->root());
  if (access & kWrite) c.ranges.write(c.host(), range, token);
  else c.ranges.read(c.host(), range, token);
  c.note_access();
}

bool read_in_parts(_cl_mem *m, ByteRange range) {
  _cl_mem *root = m->root();
  if (root->is_image() || root->vendor_shared) return false;
  Coherence &c = coherence_of(root);
  if (c.ranges.validity().valid_at(c.host(), range)) return true;
  for (Location l = 0; l < c.host(); ++l)
    if (c.ranges.validity().valid_at(l, range)) return false;
  return true;
}

std::vector<ReadSource> read_sources(_cl_mem *m, ByteRange range) {
  Coherence &c = coherence_of(m->root());
  std::vector<ReadSource> parts;
  auto add = [&parts](size_t slot, ByteRange r) {
    if (r.length == 0) return;
    if (!parts.empty() && parts.back().slot == slot && parts.back().range.end() == r.offset)
      parts.back().range.length += r.length;
    else
      parts.push_back({slot, r});
  };
  size_t at = range.offset;
  for (auto &piece : c.ranges.validity().missing(c.host(), range)) {
    add(c.host(), {at, piece.range.offset - at});
    size_t slot = 0;
    while (slot < c.host() && !piece.holders.contains(slot)) ++slot;
    add(slot, piece.range);  // slot == host when no device holds it
    at = piece.range.end();
  }
  add(c.host(), {at, range.end() - at});
  return parts;
}

size_t host_location(_cl_mem *m) { return coherence_of(m->root()).host(); }

void *host_copy(_cl_mem *m) {
  _cl_mem *root = m->root();
  return static_cast<std::byte *>(coherence_of(root).staging->ptr) + (m == root ? 0 : m->origin);
}

cl_int check_image_region(_cl_mem *m, const size_t *origin, const size_t *region) {
  if (!origin || !region) return refuse(CL_INVALID_VALUE, "origin or region is NULL");
  size_t dims[3];
  m->full_region(dims);
  for (int i = 0; i < 3; ++i)
    if (region[i] == 0 || origin[i] > dims[i] || region[i] > dims[i] - origin[i]) return refuse(CL_INVALID_VALUE, "the region is empty or not inside the memory object");
  return CL_SUCCESS;
}

}  // namespace unicl
