// How a kernel launch splits along one dimension of its NDRange, and which
// bytes of some buffer arguments each index along it touches: what a
// kernel declared through clSetKernelSplitUNICL (cl_ext_unicl.h), or what
// the kernel analysis inferred for one launch (core/inferred_split.hpp).
// Launches use it to touch only their part of those buffers; dividers
// (granularity/) to cut a launch into pieces.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "backend/cl_headers.hpp"

namespace unicl {

// Index i along the split dimension touches bytes
// [offset + i * stride, offset + i * stride + size) of the argument. The
// stride may be negative (a kernel that fills its output backwards) or 0
// (every index reads the same bytes).
struct SplitArg {
  cl_uint arg_index = 0;
  cl_long offset = 0;
  cl_long stride = 0;
  size_t size = 0;
};

struct KernelSplit {
  cl_uint dim = 0;
  std::vector<SplitArg> args;

  // The declaration of argument `index`, or null when it is shared.
  const SplitArg *find(cl_uint index) const;
};

// The bytes [offset, offset + size) of a buffer of `buffer_size` bytes that
// indices [first, first + count) of `arg` touch, clipped to the buffer;
// nullopt when the launch's range overflows (then the whole buffer is
// taken, which is always safe).
struct SplitBytes {
  size_t offset, size;
};
std::optional<SplitBytes> split_bytes(const SplitArg &arg, size_t first, size_t count, size_t buffer_size);

}  // namespace unicl
