// Whether one launch of an analysed kernel (access/kernel_access.hpp) may
// be cut into pieces of consecutive indices along a dimension d, run on
// different devices, and with which bytes of each buffer argument each
// index i along d touches:
//   [offset + i * stride, offset + i * stride + size)
// (the form clSetKernelSplitUNICL declares by hand). A launch may be split
// along d when what each piece writes no other piece reads or writes:
// every write through each argument lies in its index's window, the
// windows of two indices do not overlap (size <= |stride|), what a written
// argument is read at lies in the same index's write window, and no two
// arguments are one buffer where one is written. Reads the analysis could
// not bound take the whole argument, which is always safe. The highest
// dimension that qualifies is chosen (the slowest-moving one in row-major
// data, where an index's window is one contiguous run).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "access/kernel_access.hpp"

namespace unicl::access {

// A kernel argument as a launch sets it.
struct LaunchArg {
  std::span<const std::byte> value;  // the bytes given (scalars, structs)
  // Memory arguments: the buffer it lies in (its root, as an identity;
  // null for anything else) and its bytes there (a sub-buffer's).
  const void *buffer = nullptr;
  uint64_t origin = 0, size = 0;
};

// A launch's NDRange; `local` all zero when the application left the
// work-group size to the device.
struct LaunchShape {
  uint32_t dim = 1;
  uint64_t offset[3] = {0, 0, 0}, global[3] = {1, 1, 1}, local[3] = {0, 0, 0};
  bool local_given() const { return local[0] != 0; }
};

// The bytes index i along the split dimension touches of argument `arg`.
struct SplitWindow {
  uint32_t arg = 0;
  int64_t offset = 0, stride = 0;
  uint64_t size = 0;
};

struct LaunchSplit {
  uint32_t dim = 0;
  std::vector<SplitWindow> windows;  // arguments without one are touched whole
};

struct SplitVerdict {
  std::optional<LaunchSplit> split;
  std::string reason;  // why not, when there is no split
};

SplitVerdict split_at_launch(const KernelAccess &kernel, const LaunchShape &shape, std::span<const LaunchArg> args);

// The values of the launch's work-item functions and of the kernel's
// loops, for evaluating its expressions (access/expr.hpp).
LaunchBox launch_box(const KernelAccess &kernel, const LaunchShape &shape, std::span<const LaunchArg> args);

}  // namespace unicl::access
