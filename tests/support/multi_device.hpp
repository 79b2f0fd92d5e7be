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

  MultiDevice() : MultiDevice(cltest::devices()) {}
  // A context of the devices whose names contain one of `name_parts`.
  explicit MultiDevice(const std::vector<std::string> &name_parts) : MultiDevice(matching(name_parts)) {}
  explicit MultiDevice(std::vector<cl::Device> chosen) : devices(std::move(chosen)), context(devices) {
    for (auto &d : devices) queues.emplace_back(context, d);
  }
  static std::vector<cl::Device> matching(const std::vector<std::string> &name_parts) {
    std::vector<cl::Device> out;
    for (auto &d : cltest::devices())
      for (auto &part : name_parts)
        if (device_name(d).find(part) != std::string::npos) {
          out.push_back(d);
          break;
        }
    if (out.empty()) throw std::runtime_error("no device matches the names asked for");
    return out;
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
