#include "cl_env.hpp"

#include <stdexcept>
#include <vector>

namespace bench {
namespace {

std::vector<cl::Platform> all_platforms() {
  std::vector<cl::Platform> all;
  try {
    cl::Platform::get(&all);
  } catch (const cl::Error &) {
    // No platform at all is reported as an error by the loader; callers
    // turn an empty list into their own message.
  }
  return all;
}

}  // namespace

bool has_platform(const std::string &name) {
  for (auto &p : all_platforms())
    if (p.getInfo<CL_PLATFORM_NAME>() == name) return true;
  return false;
}

cl::Platform platform(const std::string &name) {
  std::string seen;
  for (auto &p : all_platforms()) {
    std::string n = p.getInfo<CL_PLATFORM_NAME>();
    if (n == name) return p;
    seen += " '" + n + "'";
  }
  throw std::runtime_error("platform '" + name + "' not found; the loader reports:" + (seen.empty() ? " none" : seen) +
                           " (run through bench/run.sh, which sets OCL_ICD_VENDORS)");
}

cl::Device device(const cl::Platform &p, const std::string &prefix) {
  std::vector<cl::Device> devices;
  p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  for (auto &d : devices)
    if (d.getInfo<CL_DEVICE_NAME>().starts_with(prefix)) return d;
  throw std::runtime_error("no device '" + prefix + "*' on platform " + p.getInfo<CL_PLATFORM_NAME>());
}

cl::Program build(const cl::Context &ctx, const std::string &source) {
  cl::Program program(ctx, source);
  // The C call, not Program::build: the bindings query the build log even
  // after a successful build, and SOCL fails that query.
  cl_int err = clBuildProgram(program(), 0, nullptr, nullptr, nullptr, nullptr);
  if (err == CL_SUCCESS) return program;
  std::string log;
  try {
    for (auto &entry : program.getBuildInfo<CL_PROGRAM_BUILD_LOG>()) log += entry.second;
  } catch (const cl::Error &) {
    log = "(no build log)";
  }
  throw std::runtime_error("kernel build failed (" + std::to_string(err) + "): " + log);
}

}  // namespace bench
