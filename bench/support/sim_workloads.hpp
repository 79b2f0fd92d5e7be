// The simulated workloads of bench-sim-compare and bench-cluster-scaling:
// kernels with signatures only (the simulator's timing mode runs nothing;
// bench/sim_machine.conf models them), each workload's launches (for the
// ideal bound) and how to enqueue one run of it.
#pragma once
#include <cl_env.hpp>

#include <config.hpp>  // the simulator's (tests/sim_icd)

#include <functional>
#include <string>
#include <vector>

namespace bench {

extern const char *kSimSource;

// The machine description, read by the simulator's own parser.
sim::Config read_machine(const std::string &path);

// One launch, for the bound: kernel name and work-items.
struct Launch {
  std::string kernel;
  double items;
};

using Events = std::vector<cl::Event>;
// One run of a workload, prepared: its buffers and kernels exist, and
// calling it enqueues every launch and returns their events.
using Prepared = std::function<Events(cl::CommandQueue &)>;

// A workload: its launches (for the bound, and the critical path in
// launches along its longest dependency chain) and how to prepare a run.
struct Workload {
  std::string name, description;
  std::vector<Launch> launches;
  std::vector<Launch> critical_path;
  double input_bytes = 0;  // what its buffers hold at the start (in host memory)
  std::function<Prepared(const cl::Context &, const cl::Program &)> prepare;
};

cl::Event launch(cl::CommandQueue &q, cl::Kernel &k, const cl::NDRange &global, const Events &after = {});

Workload sim_matmul();        // C = A x B, 2048 x 2048 floats, 64 row blocks (B shared)
Workload sim_blackscholes();  // 24 chunks x 4 rounds of 512 Ki options
Workload sim_cholesky();      // 10 x 10 tiles of 512 x 512 floats

// The ideal bound of `w` on machine `m`'s devices, `copies` times over
// (copies of the machine joined, e.g. one per node): each launch shared by
// all devices at their rates; and its total flops.
struct Bound {
  double seconds = 0, flops = 0;
};
Bound ideal_bound(const sim::Config &m, const Workload &w, int copies = 1);

}  // namespace bench
