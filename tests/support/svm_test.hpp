// Shared virtual memory in tests: the device's SVM, one allocation freed at
// scope exit, and a round trip through the SVM commands and a kernel.
#pragma once
#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "cl_test.hpp"

namespace cltest {

inline const char *const kSvmIncrement = "kernel void inc(global int *a) { a[get_global_id(0)] += 1; }";

inline cl_device_svm_capabilities svm_of(cl_device_id d) {
  cl_device_svm_capabilities caps = 0;
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr) == CL_SUCCESS);
  return caps;
}

// One SVM allocation of `n` ints, freed at scope exit.
struct SvmInts {
  cl_context context;
  cl_int *p;
  SvmInts(cl_context c, size_t n)
      : context(c), p(static_cast<cl_int *>(clSVMAlloc(c, CL_MEM_READ_WRITE, n * sizeof(cl_int), 0))) {}
  ~SvmInts() { clSVMFree(context, p); }
  SvmInts(const SvmInts &) = delete;
  SvmInts &operator=(const SvmInts &) = delete;
};

// Fills, writes through a map, increments in `launches` kernels of
// kSvmIncrement (built in `program`) on `q`, copies back: every element
// ends at 100 + i + launches.
inline void svm_round_trip(cl_context ctx, cl_command_queue q, cl_program program, size_t launches) {
  constexpr size_t n = 64;
  SvmInts svm(ctx, n);
  REQUIRE(svm.p != nullptr);
  const cl_int seven = 7;
  REQUIRE(clEnqueueSVMMemFill(q, svm.p, &seven, sizeof seven, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<cl_int> host(n, -1);
  REQUIRE(clEnqueueSVMMemcpy(q, CL_TRUE, host.data(), svm.p, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
  for (cl_int v : host) CHECK(v == 7);
  REQUIRE(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, svm.p, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
  std::iota(svm.p, svm.p + n, 100);
  REQUIRE(clEnqueueSVMUnmap(q, svm.p, 0, nullptr, nullptr) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl::Kernel kernel(clCreateKernel(program, "inc", &err), false);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(kernel(), 0, svm.p) == CL_SUCCESS);
  for (size_t i = 0; i < launches; ++i)
    REQUIRE(clEnqueueNDRangeKernel(q, kernel(), 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueSVMMemcpy(q, CL_TRUE, host.data(), svm.p, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) CHECK(host[i] == static_cast<cl_int>(100 + i + launches));
}

}  // namespace cltest
