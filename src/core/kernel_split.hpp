// What a kernel declared through clSetKernelSplitUNICL (cl_ext_unicl.h):
// along which dimension of its NDRange its work-items are independent, and
// which bytes of some buffer arguments each index along it touches. Launches
// use it to touch only their part of those buffers; dividers (granularity/)
// to cut a launch into pieces.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "backend/cl_headers.hpp"

namespace unicl {

struct KernelSplit {
  cl_uint dim = 0;
  std::vector<cl_kernel_split_arg_unicl> args;

  // The declaration of argument `index`, or null when it is shared.
  const cl_kernel_split_arg_unicl *find(cl_uint index) const;
};

// The bytes [offset, offset + size) of a buffer of `buffer_size` bytes that
// indices [first, first + count) of `arg` touch, clipped to the buffer;
// nullopt when the launch's range overflows (then the whole buffer is
// taken, which is always safe).
struct SplitBytes {
  size_t offset, size;
};
std::optional<SplitBytes> split_bytes(const cl_kernel_split_arg_unicl &arg, size_t first, size_t count,
                                      size_t buffer_size);

}  // namespace unicl
