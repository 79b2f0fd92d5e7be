// OpenCL set-up shared by the benchmarks: the Khronos C++ bindings (RAII for
// every object), and lookup of platforms and devices by name, so one process
// can hold UniCL and the vendors it wraps side by side.
#pragma once
#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110, not 120: this opencl.hpp only defines the platform-version probe its
// queue constructors use when the minimum is below 1.2.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <exception>
#include <iostream>
#include <string>

namespace bench {

inline const std::string kUniCL = "UniCL";
inline const std::string kPoCL = "Portable Computing Language";
inline const std::string kOclgrind = "Oclgrind";
inline const std::string kSOCL = "SOCL Platform";

// True when the loader reports a platform of that name.
bool has_platform(const std::string &name);
// The platform of that name; throws naming what the loader did report.
cl::Platform platform(const std::string &name);
// The first device of `p` whose name starts with `prefix` (PoCL names its
// devices "pthread-<cpu>" and "basic-<cpu>"); throws if none.
cl::Device device(const cl::Platform &p, const std::string &prefix);
// Builds `source` for every device of `ctx`; throws with the build log.
cl::Program build(const cl::Context &ctx, const std::string &source);

// A benchmark's main: runs `body`, and reports an OpenCL error or another
// exception as one line naming the benchmark, exit status 1.
template <class Body>
int guarded_main(const char *name, Body &&body) {
  try {
    return body();
  } catch (const cl::Error &e) {
    std::cerr << name << ": OpenCL error " << e.err() << " in " << e.what() << '\n';
  } catch (const std::exception &e) {
    std::cerr << name << ": " << e.what() << '\n';
  }
  return 1;
}

}  // namespace bench
