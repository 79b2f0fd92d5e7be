#include "core/kernel_split.hpp"

#include <algorithm>

namespace unicl {

const cl_kernel_split_arg_unicl *KernelSplit::find(cl_uint index) const {
  for (const auto &a : args)
    if (a.arg_index == index) return &a;
  return nullptr;
}

std::optional<SplitBytes> split_bytes(const cl_kernel_split_arg_unicl &arg, size_t first, size_t count,
                                      size_t buffer_size) {
  if (count == 0) return SplitBytes{0, 0};
  // Computed in 128 bits: offsets may be negative (halos), and a stride
  // times a global size may not fit in 64.
  using Wide = __int128;
  Wide lo = Wide(arg.offset) + Wide(first) * Wide(arg.stride);
  Wide hi = Wide(arg.offset) + Wide(first + count - 1) * Wide(arg.stride) + Wide(arg.size);
  if (first + count < first) return std::nullopt;
  lo = std::clamp<Wide>(lo, 0, Wide(buffer_size));
  hi = std::clamp<Wide>(hi, lo, Wide(buffer_size));
  return SplitBytes{static_cast<size_t>(lo), static_cast<size_t>(hi - lo)};
}

}  // namespace unicl
