// Shared pieces of the conformance suite. Every case runs on one device
// chosen by TEST_PLATFORM and TEST_DEVICE (see tests/support/cl_test.hpp),
// so the same binary checks UniCL and, in a second run, the vendor device
// UniCL wraps. Cases assert what the OpenCL 1.2/3.0 specification says;
// passing on both runs is what makes UniCL agree with the vendor.
#pragma once
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace conformance {

// An OpenCL status code that Catch prints by name.
struct Status {
  cl_int code;
  bool operator==(const Status &o) const { return code == o.code; }
};
const char *status_name(cl_int code);

// Device, context and in-order queue most cases start from.
struct Env {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  explicit Env(cl_command_queue_properties properties = 0)
      : context(cltest::test_context(&device)), queue(context, device, properties) {}
};

// Builds `source` for the context's devices; fails the case with the log.
cl::Program build(const cl::Context &context, const std::string &source, const std::string &options = "");

// "OpenCL 3.0 ..." -> 300; 0 when unparseable.
unsigned version_of(const std::string &version_string);
unsigned platform_version();
unsigned device_version(const cl::Device &device);
bool images_supported(const cl::Device &device);

// A device of the platform under test other than `device`, if there is one
// (for "device not in context" checks); null otherwise.
cl::Device other_device(const cl::Device &device);

// Raw C calls wrapped so nothing leaks: the C++ wrappers adopt the handle
// (a null handle is fine) and release it at scope exit.
template <class Wrapper, class Handle>
Wrapper adopt(Handle h) {
  return Wrapper(h, false);
}

// Host data with a recognisable pattern: element i holds seed + i.
std::vector<cl_int> iota_ints(size_t n, cl_int seed = 0);

// Waits for a user callback to be reached, with a timeout instead of a hang.
bool wait_until(const std::atomic<int> &counter, int value, int timeout_ms = 10000);

}  // namespace conformance

namespace Catch {
template <>
struct StringMaker<conformance::Status> {
  static std::string convert(const conformance::Status &s) {
    return std::string(conformance::status_name(s.code)) + " (" + std::to_string(s.code) + ")";
  }
};
}  // namespace Catch

// CHECK_CL(expr, CL_INVALID_VALUE): the status `expr` gives is the expected one.
#define CHECK_CL(expr, expected) CHECK(::conformance::Status{(expr)} == ::conformance::Status{(expected)})
#define REQUIRE_CL(expr, expected) REQUIRE(::conformance::Status{(expr)} == ::conformance::Status{(expected)})

namespace conformance {
// One scalar of clGetMemObjectInfo (buffers and images alike).
template <class T>
T mem_scalar(const cl::Memory &m, cl_mem_info param) {
  T v{};
  REQUIRE_CL(clGetMemObjectInfo(m(), param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}
}  // namespace conformance
