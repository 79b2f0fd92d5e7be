// Correctness mode: kernels really run, on PoCL's first device, over the
// simulated buffers' own host memory. PoCL is loaded the way an ICD loader
// would (its .icd file) and called only through its objects' dispatch
// tables; libOpenCL is never linked.
#pragma once

#include <memory>
#include <vector>

#include "cl.hpp"
#include "objects.hpp"

namespace sim::pocl {

struct Launch {
  std::shared_ptr<Kernel> kernel;
  std::vector<Kernel::Arg> args;              // as set when the command was enqueued
  std::vector<std::shared_ptr<Memory>> buffers;  // per argument: the buffer, or null
  cl_uint dims = 1;
  size_t offset[3] = {0, 0, 0}, global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  bool has_offset = false, has_local = false;
};

// Runs the launch to completion (synchronously). CL_SUCCESS or a negative
// status for the command's event; problems are reported on stderr.
cl_int run(const Launch &launch);

}  // namespace sim::pocl
