#include "conformance.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

namespace conformance {

const char *status_name(cl_int code) {
  switch (code) {
#define NAME(c) \
  case c: return #c;
    NAME(CL_SUCCESS) NAME(CL_DEVICE_NOT_FOUND) NAME(CL_DEVICE_NOT_AVAILABLE) NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE) NAME(CL_OUT_OF_RESOURCES) NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE) NAME(CL_MEM_COPY_OVERLAP) NAME(CL_IMAGE_FORMAT_MISMATCH)
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED) NAME(CL_BUILD_PROGRAM_FAILURE) NAME(CL_MAP_FAILURE)
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET) NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    NAME(CL_COMPILE_PROGRAM_FAILURE) NAME(CL_LINKER_NOT_AVAILABLE) NAME(CL_LINK_PROGRAM_FAILURE)
    NAME(CL_DEVICE_PARTITION_FAILED) NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) NAME(CL_INVALID_VALUE)
    NAME(CL_INVALID_DEVICE_TYPE) NAME(CL_INVALID_PLATFORM) NAME(CL_INVALID_DEVICE) NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_QUEUE_PROPERTIES) NAME(CL_INVALID_COMMAND_QUEUE) NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT) NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) NAME(CL_INVALID_IMAGE_SIZE)
    NAME(CL_INVALID_SAMPLER) NAME(CL_INVALID_BINARY) NAME(CL_INVALID_BUILD_OPTIONS) NAME(CL_INVALID_PROGRAM)
    NAME(CL_INVALID_PROGRAM_EXECUTABLE) NAME(CL_INVALID_KERNEL_NAME) NAME(CL_INVALID_KERNEL_DEFINITION)
    NAME(CL_INVALID_KERNEL) NAME(CL_INVALID_ARG_INDEX) NAME(CL_INVALID_ARG_VALUE) NAME(CL_INVALID_ARG_SIZE)
    NAME(CL_INVALID_KERNEL_ARGS) NAME(CL_INVALID_WORK_DIMENSION) NAME(CL_INVALID_WORK_GROUP_SIZE)
    NAME(CL_INVALID_WORK_ITEM_SIZE) NAME(CL_INVALID_GLOBAL_OFFSET) NAME(CL_INVALID_EVENT_WAIT_LIST)
    NAME(CL_INVALID_EVENT) NAME(CL_INVALID_OPERATION) NAME(CL_INVALID_GL_OBJECT) NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_MIP_LEVEL) NAME(CL_INVALID_GLOBAL_WORK_SIZE) NAME(CL_INVALID_PROPERTY)
    NAME(CL_INVALID_IMAGE_DESCRIPTOR) NAME(CL_INVALID_COMPILER_OPTIONS) NAME(CL_INVALID_LINKER_OPTIONS)
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT) NAME(CL_INVALID_PIPE_SIZE) NAME(CL_INVALID_DEVICE_QUEUE)
    NAME(CL_INVALID_SPEC_ID) NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef NAME
    default: return "unknown status";
  }
}

cl::Program build(const cl::Context &context, const std::string &source, const std::string &options) {
  cl::Program program(context, source);
  try {
    program.build(options.c_str());
  } catch (const cl::BuildError &e) {
    std::string log;
    for (auto &l : e.getBuildLog()) log += l.second;
    FAIL("build failed: " << log);
  }
  return program;
}

unsigned version_of(const std::string &s) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(s.c_str(), "OpenCL %u.%u", &major, &minor) != 2) return 0;
  return major * 100 + minor * 10;
}

unsigned platform_version() { return version_of(cltest::platform().getInfo<CL_PLATFORM_VERSION>()); }

unsigned device_version(const cl::Device &device) { return version_of(device.getInfo<CL_DEVICE_VERSION>()); }

bool images_supported(const cl::Device &device) { return device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE; }

cl::Device other_device(const cl::Device &device) {
  for (auto &d : cltest::devices())
    if (d() != device()) return d;
  return cl::Device();
}

std::vector<cl_int> iota_ints(size_t n, cl_int seed) {
  std::vector<cl_int> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = seed + static_cast<cl_int>(i);
  return v;
}

bool wait_until(const std::atomic<int> &counter, int value, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (counter.load() < value) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace conformance
