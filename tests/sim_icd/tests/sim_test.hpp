// Helpers for the simulator's tests, which run through the real ICD loader.
#pragma once

// The simulator is an OpenCL 1.2 device: its tests make 1.2 calls.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace simtest {

// Releases an OpenCL handle when it goes out of scope.
template <class H, cl_int(CL_API_CALL *Release)(H)>
struct Releaser {
  void operator()(H h) const { Release(h); }
};
using Context = std::unique_ptr<std::remove_pointer_t<cl_context>, Releaser<cl_context, clReleaseContext>>;
using Queue = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, Releaser<cl_command_queue, clReleaseCommandQueue>>;
using Mem = std::unique_ptr<std::remove_pointer_t<cl_mem>, Releaser<cl_mem, clReleaseMemObject>>;
using Program = std::unique_ptr<std::remove_pointer_t<cl_program>, Releaser<cl_program, clReleaseProgram>>;
using Kernel = std::unique_ptr<std::remove_pointer_t<cl_kernel>, Releaser<cl_kernel, clReleaseKernel>>;
using Event = std::unique_ptr<std::remove_pointer_t<cl_event>, Releaser<cl_event, clReleaseEvent>>;

inline std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  REQUIRE(clGetPlatformInfo(p, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetPlatformInfo(p, what, n, s.data(), nullptr) == CL_SUCCESS);
  s.resize(n ? n - 1 : 0);
  return s;
}

inline std::string device_string(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetDeviceInfo(d, what, n, s.data(), nullptr) == CL_SUCCESS);
  s.resize(n ? n - 1 : 0);
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  REQUIRE(clGetDeviceInfo(d, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

// The platform called `name` ("UniCL Simulator" unless the test runs
// through UniCL); fails the test if the loader does not list it.
inline cl_platform_id platform_named(const std::string &name) {
  cl_uint n = 0;
  REQUIRE(clGetPlatformIDs(0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_platform_id> all(n);
  REQUIRE(clGetPlatformIDs(n, all.data(), nullptr) == CL_SUCCESS);
  for (cl_platform_id p : all)
    if (platform_string(p, CL_PLATFORM_NAME) == name) return p;
  FAIL("no platform named " << name);
  return nullptr;
}

inline cl_platform_id sim_platform() { return platform_named("UniCL Simulator"); }

inline std::vector<cl_device_id> devices(cl_platform_id p, cl_device_type type = CL_DEVICE_TYPE_ALL) {
  cl_uint n = 0;
  REQUIRE(clGetDeviceIDs(p, type, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_device_id> ds(n);
  REQUIRE(clGetDeviceIDs(p, type, n, ds.data(), nullptr) == CL_SUCCESS);
  return ds;
}

inline cl_device_id device_named(cl_platform_id p, const std::string &name) {
  for (cl_device_id d : devices(p))
    if (device_string(d, CL_DEVICE_NAME) == name) return d;
  FAIL("no device named " << name);
  return nullptr;
}

inline Context context_for(std::vector<cl_device_id> ds) {
  cl_int err = CL_SUCCESS;
  Context c(clCreateContext(nullptr, static_cast<cl_uint>(ds.size()), ds.data(), nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  return c;
}

inline Queue queue_for(cl_context c, cl_device_id d,
                       cl_command_queue_properties props = CL_QUEUE_PROFILING_ENABLE) {
  cl_int err = CL_SUCCESS;
  Queue q(clCreateCommandQueue(c, d, props, &err));
  REQUIRE(err == CL_SUCCESS);
  return q;
}

inline Mem buffer(cl_context c, size_t size, cl_mem_flags flags = CL_MEM_READ_WRITE, void *host = nullptr) {
  cl_int err = CL_SUCCESS;
  Mem m(clCreateBuffer(c, flags, size, host, &err));
  REQUIRE(err == CL_SUCCESS);
  return m;
}

inline Program built_program(cl_context c, const char *source) {
  cl_int err = CL_SUCCESS;
  Program p(clCreateProgramWithSource(c, 1, &source, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(p.get(), 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  return p;
}

inline Kernel kernel(cl_program p, const char *name) {
  cl_int err = CL_SUCCESS;
  Kernel k(clCreateKernel(p, name, &err));
  REQUIRE(err == CL_SUCCESS);
  return k;
}

inline cl_int status_of(cl_event e) {
  cl_int s = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
  return s;
}

// START..END of a completed command, in milliseconds.
inline double profiled_ms(cl_event e) {
  cl_ulong start = 0, end = 0;
  REQUIRE(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
  REQUIRE(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
  return static_cast<double>(end - start) / 1e6;
}

// Under ThreadSanitizer the simulator's own code (wake-ups, memcpy) runs
// several times slower than on a plain build, and commands overshoot their
// modeled time by more than the tolerance: there only "nothing finishes
// early" is checked, and the tests are there for the races they exercise.
#if defined(__SANITIZE_THREAD__)
constexpr bool kTimingUpperBound = false;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kTimingUpperBound = false;
#else
constexpr bool kTimingUpperBound = true;
#endif
#else
constexpr bool kTimingUpperBound = true;
#endif

inline bool within_modeled(double observed_ms, double modeled_ms) {
  return observed_ms >= 0.8 * modeled_ms && (!kTimingUpperBound || observed_ms <= 1.2 * modeled_ms + 2.0);
}

// The tolerance the simulator promises for modeled durations.
inline void check_modeled(double observed_ms, double modeled_ms) {
  INFO("observed " << observed_ms << " ms, modeled " << modeled_ms << " ms");
  CHECK(observed_ms >= 0.8 * modeled_ms);
  if (kTimingUpperBound) CHECK(observed_ms <= 1.2 * modeled_ms + 2.0);
}

// Timing checks on a shared machine: a measurement disturbed by other
// processes (a late wake-up, a slow memcpy) is taken again, up to three
// times; a systematic error still fails every attempt.
template <class Measure>
void check_modeled_retry(Measure measure, double modeled_ms) {
  double observed = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    observed = measure();
    if (within_modeled(observed, modeled_ms)) break;
  }
  check_modeled(observed, modeled_ms);
}

inline double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// A kernel every test can launch on any number of work-items; in timing
// mode it computes nothing, its name picks the cost model.
constexpr const char *kSource = R"CLC(
// Kernels for the simulator's tests.
__kernel void work(__global float *data, const int n) {
  size_t i = get_global_id(0);
  if (i < n) data[i] *= 2.0f;
}
kernel void sgemm(global const float * restrict a, __global const float *b, __global float *c,
                  __local float *tile, uint n, float4 scale) { }
__kernel __attribute__((work_group_size_hint(64, 1, 1))) void vadd(__global const float *a,
    __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)CLC";

// Enqueues `name` from kSource over `items` work-items on q; returns its event.
inline Event launch(cl_context c, cl_command_queue q, cl_program p, const char *name, size_t items,
                    cl_uint num_wait = 0, const cl_event *wait = nullptr) {
  Kernel k = kernel(p, name);
  cl_mem none = nullptr;
  int n = 0;
  std::string kname = name;
  if (kname == "work") {
    REQUIRE(clSetKernelArg(k.get(), 0, sizeof none, &none) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k.get(), 1, sizeof n, &n) == CL_SUCCESS);
  } else if (kname == "sgemm") {
    cl_uint un = 0;
    cl_float4 scale{};
    for (cl_uint i = 0; i < 3; ++i) REQUIRE(clSetKernelArg(k.get(), i, sizeof none, &none) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k.get(), 3, 256, nullptr) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k.get(), 4, sizeof un, &un) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k.get(), 5, sizeof scale, &scale) == CL_SUCCESS);
  }
  (void)c;
  cl_event e = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(q, k.get(), 1, nullptr, &items, nullptr, num_wait, wait, &e) == CL_SUCCESS);
  return Event(e);
}

}  // namespace simtest
