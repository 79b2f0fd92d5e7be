#include "core/object.hpp"

#include <array>
#include <functional>

#include "core/runtime.hpp"

namespace unicl {

void *SlotPool::take() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) {
    // Slots are multiples of the strictest alignment any object needs.
    std::size_t stride = (slot_size_ + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                         alignof(std::max_align_t);
    blocks_.push_back(std::make_unique<std::byte[]>(stride * kSlotsPerBlock));
    std::byte *base = blocks_.back().get();
    for (std::size_t i = kSlotsPerBlock; i-- > 0;) free_.push_back(base + i * stride);
  }
  void *slot = free_.back();
  free_.pop_back();
  return slot;
}

void SlotPool::give_back(void *slot) {
  std::lock_guard lock(mutex_);
  free_.push_back(slot);
}

bool SlotPool::owns(const void *p) const {
  std::size_t stride = (slot_size_ + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                       alignof(std::max_align_t);
  auto *b = static_cast<const std::byte *>(p);
  std::lock_guard lock(mutex_);
  for (const auto &block : blocks_) {
    const std::byte *base = block.get();
    if (b >= base && b < base + stride * kSlotsPerBlock)
      return static_cast<std::size_t>(b - base) % stride == 0;
  }
  return false;
}

SlotPool &pool_for(Kind kind, std::size_t slot_size) {
  return Runtime::get().pool(kind, slot_size);
}

}  // namespace unicl
