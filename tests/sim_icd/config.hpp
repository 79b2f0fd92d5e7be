// The simulated machine, as described by the file UNICL_SIM_CONFIG names
// (format: README.md).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cl.hpp"

namespace sim {

struct DeviceConfig {
  std::string name;
  cl_device_type type = CL_DEVICE_TYPE_GPU;
  double gflops = 100;
  std::uint64_t memory_bytes = 1024ull << 20;
  double bandwidth = 10e9;  // bytes per second
  double latency = 10e-6;   // seconds
  cl_uint units = 8;
  bool copy_engine = false;  // transfers run beside kernels (a GPU's DMA engine) instead of between them
};

// flops(n) = sum of coeff * n^exp; n is the number of work-items.
struct CostExpr {
  std::vector<std::pair<double, double>> terms;  // (coeff, exp)
  double operator()(double n) const;
};

struct KernelModel {
  std::string name;  // "*" matches every kernel not listed by name
  CostExpr flops;
  double cpu = 1, gpu = 1, accelerator = 1;  // efficiency factors on the device's gflops
  double efficiency(cl_device_type type) const;
};

struct Config {
  bool correctness = false;  // kernels really run (on PoCL) instead of only taking time
  // Timing mode: transfers move their bytes (else they only take their time).
  bool move_bytes = true;
  double time_scale = 1;
  std::vector<DeviceConfig> devices;
  std::vector<KernelModel> kernels;

  // The model of `kernel`: its own entry, else the "*" one, else 1000 flops
  // per work-item and efficiency 1.
  const KernelModel &kernel_model(const std::string &kernel) const;
  // Modeled durations in seconds, time_scale applied.
  double kernel_seconds(const std::string &kernel, const DeviceConfig &d, double work_items) const;
  double transfer_seconds(const DeviceConfig &d, std::uint64_t bytes) const;
};

// Throws std::runtime_error("line N: ...") on anything it does not understand.
Config parse_config(std::istream &in);
CostExpr parse_cost(const std::string &text);

// The configuration UNICL_SIM_CONFIG names, or nothing (no platform) when it
// is unset, unreadable or invalid; problems are reported on stderr.
std::optional<Config> load_config_from_env();
// The fields of `s` between separators `sep` (configuration and fault lists).
std::vector<std::string> split(const std::string &s, char sep);

}  // namespace sim
