// What the scheduling benchmarks (sched_overhead, real_mix, host_swap,
// sim_compare) share: UniCL contexts with a policy and a memory limit,
// device-less queues, a private performance-model cache, and CSV + PNG
// output through bench/plot.py.
#pragma once
#include "cl_env.hpp"

#include <CL/cl_ext_unicl.h>

#include <string>
#include <vector>

namespace bench {

inline const std::vector<std::string> kPolicies = {"heft", "eager", "ws", "random", "round-robin"};

// Points XDG_CACHE_HOME at a new empty folder, so UniCL's performance models
// start uncalibrated and the user's own are left alone; removes the folder
// when destroyed. Must exist before the first OpenCL call (UniCL reads its
// settings, the cache folder among them, once per process). With `keep` non-empty, that folder
// is used instead and kept.
class ModelCache {
 public:
  explicit ModelCache(const std::string &keep = "");
  ~ModelCache();
  ModelCache(const ModelCache &) = delete;
  ModelCache &operator=(const ModelCache &) = delete;
  const std::string &dir() const { return dir_; }

 private:
  std::string dir_;
  bool owned_ = false;
};

// A UniCL context of `devices` placing device-less commands with `policy`
// (empty: UniCL's default or UNICL_SCHEDULER), keeping at most `mem_limit`
// bytes per device (0: no limit of ours), with `more` properties (pairs).
cl::Context unicl_context(const std::vector<cl::Device> &devices, const std::string &policy, cl_ulong mem_limit = 0,
                          const std::vector<cl_context_properties> &more = {});
// clCreateCommandQueueWithProperties(ctx, NULL, ...): a device-less queue.
cl::CommandQueue device_less_queue(const cl::Context &ctx, cl_command_queue_properties props);
// The device that ran a finished command (CL_EVENT_DEVICE_UNICL).
cl_device_id ran_on(const cl::Event &e);

// Writes `rows` under `header` as CSV; throws when the file cannot be written.
void write_csv(const std::string &path, const std::vector<std::string> &header,
               const std::vector<std::vector<std::string>> &rows);
// Renders `csv` as `png` with bench/plot.py (`extra`: more plot.py options).
// Prints why and returns false when it could not (no python3, no matplotlib, script failed).
bool plot(const std::string &csv, const std::string &png, const std::string &title,
          const std::vector<std::string> &extra = {});
// The folder given after --out, created if missing.
std::string output_dir(const std::string &dir);

}  // namespace bench
