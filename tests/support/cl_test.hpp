// Shared helpers for UniCL's test programs. Tests talk to OpenCL through
// the system ICD loader exactly as applications do; which platform they use
// comes from the environment meson sets (see tests/meson.build):
//   TEST_PLATFORM   platform name to test ("UniCL", "Portable Computing
//                   Language", "Oclgrind"); default "UniCL".
//   TEST_DEVICE     substring of the name of the device to test (e.g.
//                   "pthread"); default: the platform's first device.
#pragma once
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110, not 120: with a minimum between 1.2 and 2.0 the bindings call a
// version helper they only define for minimums below 1.2. Below 2.0 they pick
// clCreateCommandQueue or ...WithProperties from the platform's version at
// run time, which the 1.2 vendors run directly need.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cltest {

inline std::string wanted_platform() {
  const char *p = std::getenv("TEST_PLATFORM");
  return p && *p ? p : "UniCL";
}

inline bool testing_unicl() { return wanted_platform() == "UniCL"; }

// Whether checks of how fast timed work ran (shares from measured rates, one
// device's piece overlapping another's on the simulator, a call returning
// well before its work ends) are asserted. The sanitizer passes set
// UNICL_TEST_UNTIMED: host code runs there 5 to 15 times slower, the
// simulator's modelled times no longer dominate what is measured, and such
// checks fail whatever the runtime does. The work still runs and its results
// are still checked there; the normal pass asserts the timings.
// Points this process's performance models at a folder of its own, empty
// (`name` and the process id name it): a test whose first launches must
// see no model, whatever earlier runs taught. Call before the first
// OpenCL call (UniCL reads XDG_CACHE_HOME when it starts).
inline bool use_fresh_models(const std::string &name) {
  static const std::string folder = std::filesystem::temp_directory_path() / ("unicl-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return setenv("XDG_CACHE_HOME", folder.c_str(), 1) == 0;
}

inline bool timing_checked() { return std::getenv("UNICL_TEST_UNTIMED") == nullptr; }

// The platform under test; throws if it is absent.
inline cl::Platform platform() {
  std::vector<cl::Platform> all;
  cl::Platform::get(&all);
  for (auto &p : all)
    if (p.getInfo<CL_PLATFORM_NAME>() == wanted_platform()) return p;
  throw std::runtime_error("platform not found: " + wanted_platform());
}

inline std::vector<cl::Device> devices(cl_device_type type = CL_DEVICE_TYPE_ALL) {
  std::vector<cl::Device> d;
  platform().getDevices(type, &d);
  return d;
}

// A context on the first device of the platform under test.
inline cl::Context single_context(cl::Device *device_out = nullptr) {
  cl::Device d = devices().front();
  if (device_out) *device_out = d;
  return cl::Context(d);
}

inline cl::Program build(const cl::Context &ctx, const std::string &source, const char *options = "") {
  cl::Program p(ctx, source);
  try {
    p.build(options);
  } catch (const cl::BuildError &e) {
    std::string log;
    for (auto &l : e.getBuildLog()) log += l.second;
    throw std::runtime_error("build failed: " + log);
  }
  return p;
}

inline std::string device_name(const cl::Device &d) { return d.getInfo<CL_DEVICE_NAME>(); }

inline std::string wanted_device() {
  const char *d = std::getenv("TEST_DEVICE");
  return d ? d : "";
}

// The device under test: the platform's first device whose name contains
// TEST_DEVICE, so one binary can run on the same vendor device both through
// UniCL and directly. Throws if no device matches.
inline cl::Device test_device() {
  for (auto &d : devices())
    if (device_name(d).find(wanted_device()) != std::string::npos) return d;
  throw std::runtime_error("no device of " + wanted_platform() + " matches TEST_DEVICE=" + wanted_device());
}

// A context holding only the device under test.
inline cl::Context test_context(cl::Device *device_out = nullptr) {
  cl::Device d = test_device();
  if (device_out) *device_out = d;
  return cl::Context(d);
}

}  // namespace cltest
