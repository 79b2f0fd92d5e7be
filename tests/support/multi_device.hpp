// A UniCL context over every device of the platform under test (with the
// test vendors: PoCL basic, PoCL pthread and oclgrind), with one in-order
// queue per device. Sizes used with it stay tiny: oclgrind simulates each
// work-item.
#pragma once
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace cltest {

struct MultiDevice {
  std::vector<cl::Device> devices;
  cl::Context context;
  std::vector<cl::CommandQueue> queues;

  MultiDevice() : devices(cltest::devices()), context(devices) {
    for (auto &d : devices) queues.emplace_back(context, d);
  }
  size_t size() const { return devices.size(); }
  std::string name(size_t i) const { return device_name(devices[i]); }
  // Index of the first device whose name contains `part`; size() if none.
  size_t find(const std::string &part) const {
    for (size_t i = 0; i < devices.size(); ++i)
      if (name(i).find(part) != std::string::npos) return i;
    return devices.size();
  }
  // Strictest sub-buffer origin alignment, in bytes, over all devices.
  size_t base_align() const {
    cl_uint bits = 8;
    for (auto &d : devices) bits = std::max(bits, d.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>());
    return bits / 8;
  }
};

}  // namespace cltest
