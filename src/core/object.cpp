#include "core/object.hpp"

#include <array>
#include <functional>

#include "core/runtime.hpp"

namespace unicl {

void *CellPool::take() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) {
    // Cells are multiples of the strictest alignment any object needs.
    std::size_t stride = (cell_size_ + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                         alignof(std::max_align_t);
    blocks_.push_back(std::make_unique<std::byte[]>(stride * kCellsPerBlock));
    std::byte *base = blocks_.back().get();
    for (std::size_t i = kCellsPerBlock; i-- > 0;) free_.push_back(base + i * stride);
  }
  void *cell = free_.back();
  free_.pop_back();
  return cell;
}

void CellPool::give_back(void *cell) {
  std::lock_guard lock(mutex_);
  free_.push_back(cell);
}

bool CellPool::owns(const void *p) const {
  std::size_t stride = (cell_size_ + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                       alignof(std::max_align_t);
  auto *b = static_cast<const std::byte *>(p);
  std::lock_guard lock(mutex_);
  for (const auto &block : blocks_) {
    const std::byte *base = block.get();
    if (b >= base && b < base + stride * kCellsPerBlock)
      return static_cast<std::size_t>(b - base) % stride == 0;
  }
  return false;
}

CellPool &pool_for(Kind kind, std::size_t cell_size) {
  return Runtime::get().pool(kind, cell_size);
}

}  // namespace unicl
