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
  // Independent launches that all read one buffer (matmul's B): a device
  // runs none before that buffer and the launch's own input reached it.
  // 0: the workload is not of that form.
  double shared_bytes = 0, launch_in_bytes = 0, launch_out_bytes = 0;
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

// For a workload of independent launches sharing one input (shared_bytes >
// 0), all alike: the shortest makespan any placement of its launches, each
// whole on one device, can reach on `copies` copies of machine `m` when
// each device first receives the shared input and its first launch's input
// (over the network at `network_bandwidth` bytes/s, then over its own link,
// as `m` models it) and the last output goes back the same way. Transfers
// of later inputs are taken to overlap compute, and rank 0's link as able
// to feed every node at once: still a bound no run can beat. 0 when the
// workload is not of that form.
double whole_launch_bound(const sim::Config &m, const Workload &w, int copies, double network_bandwidth);

}  // namespace bench
