#include "core/kernel_split.hpp"

#include <algorithm>

namespace unicl {

const SplitArg *KernelSplit::find(cl_uint index) const {
  for (auto &a : args)
    if (a.arg_index == index) return &a;
  return nullptr;
}

std::optional<SplitBytes> split_bytes(const SplitArg &arg, size_t first, size_t count, size_t buffer_size) {
  if (count == 0) return SplitBytes{0, 0};
  if (first + count < first) return std::nullopt;
  // Computed in 128 bits: offsets and strides may be negative, and a stride
  // times a global size may not fit in 64.
  using Wide = __int128;
  Wide at_first = Wide(arg.offset) + Wide(first) * Wide(arg.stride);
  Wide at_last = Wide(arg.offset) + Wide(first + count - 1) * Wide(arg.stride);
  Wide lo = std::min(at_first, at_last), hi = std::max(at_first, at_last) + Wide(arg.size);
  lo = std::clamp<Wide>(lo, 0, Wide(buffer_size));
  hi = std::clamp<Wide>(hi, lo, Wide(buffer_size));
  return SplitBytes{static_cast<size_t>(lo), static_cast<size_t>(hi - lo)};
}

}  // namespace unicl
