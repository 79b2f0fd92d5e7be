// The split the kernel analysis infers for one launch: the kernel's
// analysis (core/program_analysis.hpp) evaluated with the arguments set
// and the NDRange of the launch (access/launch_split.hpp), in the terms of
// a declared split (core/kernel_split.hpp). A launch UniCL splits on its
// own runs as if the kernel had declared that split for it.
#pragma once
#include <optional>
#include <string>

#include "core/kernel_split.hpp"

namespace unicl {

struct KernelLaunch;

struct InferredSplit {
  std::optional<KernelSplit> split;
  std::string reason;  // why not, when there is no split
};

// Nullopt when the kernel has no analysis (yet); the caller holds the
// kernel's mutex (its arguments are read).
std::optional<InferredSplit> infer_split(const KernelLaunch &launch);

}  // namespace unicl
