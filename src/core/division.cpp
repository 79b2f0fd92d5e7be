#include "core/division.hpp"

#include <chrono>

namespace unicl {
namespace {

// Per thread: the divided launch whose divide function this thread runs.
thread_local DivisionRecord *innermost = nullptr;
// Per thread: the slot launches are pinned to, or PinnedSlot::kNone.
thread_local size_t pinned = PinnedSlot::kNone;

}  // namespace

cl_ulong host_clock_ns() {
  return static_cast<cl_ulong>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

DivisionScope::DivisionScope(DivisionRecord &record) : previous_(innermost) { innermost = &record; }

DivisionScope::~DivisionScope() { innermost = previous_; }

DivisionRecord *DivisionScope::current() { return innermost; }

PinnedSlot::PinnedSlot(size_t slot) : previous_(pinned) { pinned = slot; }

PinnedSlot::~PinnedSlot() { pinned = previous_; }

size_t PinnedSlot::current() { return pinned; }

}  // namespace unicl
