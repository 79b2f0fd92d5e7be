// With UNICL_LOG=2 (set for this test by tests/meson.build) a refused call
// prints why on stderr: the entry point, the error's name and the failed
// check; a call a vendor fails names the vendor, the call and the device.
// A few bad calls per family of entry points; each line is read back from
// stderr, redirected to a file around the call.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "cl_test.hpp"
#include "CL/cl_ext_unicl.h"

namespace {

// What `call` writes on stderr.
template <class Call>
std::string stderr_of(Call &&call) {
  std::fflush(stderr);
  FILE *file = std::tmpfile();
  REQUIRE(file);
  int saved = dup(STDERR_FILENO);
  dup2(fileno(file), STDERR_FILENO);
  call();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string text;
  std::rewind(file);
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  std::fclose(file);
  return text;
}

// The objects the bad calls are made on: a context, queue, buffer, built
// program and kernel on UniCL's first device.
struct World {
  cl::Device device;
  cl::Context context = cltest::single_context(&device);
  cl::CommandQueue queue{context, device};
  cl::Buffer buffer{context, CL_MEM_READ_WRITE, 64};
  cl::Program program = cltest::build(context, "kernel void k(global int *a) { a[0] = 1; }");
  cl::Kernel kernel{program, "k"};
};

World &world() {
  static World w;
  return w;
}

}  // namespace

TEST_CASE("a refusal names the entry point, the error and the failed check", "[refusal]") {
  REQUIRE(cltest::testing_unicl());
  World &w = world();
  cl_int err = CL_SUCCESS;

  SECTION("platform and devices") {
    cl_platform_id platform = w.device.getInfo<CL_DEVICE_PLATFORM>();
    cl_device_id out = nullptr;
    std::string said = stderr_of([&] { err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &out, nullptr); });
    CHECK(err == CL_INVALID_VALUE);
    CHECK_THAT(said, Catch::Contains("clGetDeviceIDs: CL_INVALID_VALUE: num_entries is 0 with devices given"));
  }
  SECTION("contexts") {
    cl_platform_id platform = w.device.getInfo<CL_DEVICE_PLATFORM>();
    cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, cl_context_properties(platform), CL_CONTEXT_PLATFORM,
                                     cl_context_properties(platform), 0};
    cl_device_id d = w.device();
    std::string said = stderr_of([&] { clCreateContext(twice, 1, &d, nullptr, nullptr, &err); });
    CHECK(err == CL_INVALID_PROPERTY);
    CHECK_THAT(said, Catch::Contains("clCreateContext: CL_INVALID_PROPERTY: CL_CONTEXT_PLATFORM is given twice"));
    // (The loader refuses NULL handles itself: a released one reaches UniCL.)
    cl_context released = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    clReleaseContext(released);
    said = stderr_of([&] { err = clReleaseContext(released); });
    CHECK(err == CL_INVALID_CONTEXT);
    CHECK_THAT(said, Catch::Contains("clReleaseContext: CL_INVALID_CONTEXT: the handle is NULL or not a live object"));
  }
  SECTION("memory objects") {
    std::string said = stderr_of([&] { clCreateBuffer(w.context(), CL_MEM_READ_WRITE, 0, nullptr, &err); });
    CHECK(err == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(said, Catch::Contains("clCreateBuffer: CL_INVALID_BUFFER_SIZE: size is 0"));
    said = stderr_of([&] { clCreateBuffer(w.context(), CL_MEM_USE_HOST_PTR, 64, nullptr, &err); });
    CHECK(err == CL_INVALID_HOST_PTR);
    CHECK_THAT(said, Catch::Contains("clCreateBuffer: CL_INVALID_HOST_PTR: CL_MEM_USE_HOST_PTR or "
                                     "CL_MEM_COPY_HOST_PTR without host_ptr"));
  }
  SECTION("programs and kernels") {
    int data = 0;
    std::string said = stderr_of([&] { err = clBuildProgram(w.program(), 0, nullptr, nullptr, nullptr, &data); });
    CHECK(err == CL_INVALID_VALUE);
    CHECK_THAT(said, Catch::Contains("clBuildProgram: CL_INVALID_VALUE: user_data is given without pfn_notify"));
    said = stderr_of([&] { err = clSetKernelArg(w.kernel(), 7, sizeof(cl_mem), nullptr); });
    CHECK(err == CL_INVALID_ARG_INDEX);
    CHECK_THAT(said, Catch::Contains("clSetKernelArg: CL_INVALID_ARG_INDEX"));
  }
  SECTION("commands") {
    char out[128];
    std::string said = stderr_of(
        [&] { err = clEnqueueReadBuffer(w.queue(), w.buffer(), CL_TRUE, 32, 64, out, 0, nullptr, nullptr); });
    CHECK(err == CL_INVALID_VALUE);
    CHECK_THAT(said, Catch::Contains("clEnqueueReadBuffer: CL_INVALID_VALUE"));
    said = stderr_of([&] { err = clEnqueueFillBuffer(w.queue(), w.buffer(), "abc", 3, 0, 64, 0, nullptr, nullptr); });
    CHECK(err == CL_INVALID_VALUE);
    CHECK_THAT(said, Catch::Contains("clEnqueueFillBuffer: CL_INVALID_VALUE: pattern is NULL or pattern_size is not 1, 2, 4, ... 128"));
    cl_event released = clCreateUserEvent(w.context(), &err);
    REQUIRE(err == CL_SUCCESS);
    clReleaseEvent(released);
    said = stderr_of([&] { err = clWaitForEvents(1, &released); });
    CHECK(err == CL_INVALID_EVENT);
    CHECK_THAT(said, Catch::Contains("clWaitForEvents: CL_INVALID_EVENT"));
  }
  SECTION("an entry point UniCL does not implement") {
    std::string said = stderr_of([&] { clCreatePipe(w.context(), 0, 4, 4, nullptr, &err); });
    CHECK(err == CL_INVALID_OPERATION);
    CHECK_THAT(said, Catch::Contains("clCreatePipe: CL_INVALID_OPERATION: UniCL does not implement clCreatePipe"));
  }
}

TEST_CASE("a call a vendor fails names the vendor, the call and the device", "[refusal]") {
  REQUIRE(cltest::testing_unicl());
  World &w = world();
  cl_uint unknown = 0;
  // A query no version of OpenCL defines: UniCL leaves it to the vendor.
  std::string said = stderr_of([&] { clGetDeviceInfo(w.device(), 0x7fff, sizeof unknown, &unknown, nullptr); });
  CHECK_THAT(said, Catch::Contains("vendor Portable Computing Language: clGetDeviceInfo on device '" +
                                   cltest::device_name(w.device) + "' returned CL_INVALID_VALUE"));
  // A launch of no dimensions, which a queue of one device leaves to its
  // vendor to check.
  size_t global = 1;
  cl_int err = CL_SUCCESS;
  said = stderr_of(
      [&] { err = clEnqueueNDRangeKernel(w.queue(), w.kernel(), 0, nullptr, &global, nullptr, 0, nullptr, nullptr); });
  CHECK(err == CL_INVALID_WORK_DIMENSION);
  CHECK_THAT(said, Catch::Contains("vendor Portable Computing Language: clEnqueueNDRangeKernel on device '" +
                                   cltest::device_name(w.device) + "' returned CL_INVALID_WORK_DIMENSION"));
  const char *broken = "kernel void k( { }";
  cl_program p = clCreateProgramWithSource(w.context(), 1, &broken, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  said = stderr_of([&] { err = clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr); });
  CHECK(err == CL_BUILD_PROGRAM_FAILURE);
  CHECK_THAT(said, Catch::Contains("vendor Portable Computing Language: clBuildProgram returned CL_BUILD_PROGRAM_FAILURE"));
  clReleaseProgram(p);
}

// Run by the refusal_reasons-nodes test only (UNICL_NODES=1: a node this
// process starts serves PoCL's device): the node client, UniCL's vendor for
// the nodes' devices, says why it refused too.
namespace {

// A device of another node (null when there is none).
cl::Device a_node_device() {
  cl::Device remote;
  for (auto &d : cltest::devices()) {
    cl_uint node = 0;
    clGetDeviceInfo(d(), CL_DEVICE_NODE_UNICL, sizeof node, &node, nullptr);
    if (node != 0) remote = d;
  }
  return remote;
}

}  // namespace

TEST_CASE("a refusal of the node client says why", "[nodes]") {
  REQUIRE(cltest::testing_unicl());
  cl::Device remote = a_node_device();
  REQUIRE(remote());
  cl_uint unknown = 0;
  std::string said = stderr_of([&] { clGetDeviceInfo(remote(), 0x7fff, sizeof unknown, &unknown, nullptr); });
  CHECK_THAT(said, Catch::Contains("unicl nodes: clGetDeviceInfo: CL_INVALID_VALUE: param_name is not a query the "
                                   "device answers"));
  CHECK_THAT(said, Catch::Contains(": clGetDeviceInfo on device '" + cltest::device_name(remote) +
                                   "' returned CL_INVALID_VALUE"));
}

TEST_CASE("a creation the node client refuses says why", "[nodes]") {
  REQUIRE(cltest::testing_unicl());
  cl::Device remote = a_node_device();
  REQUIRE(remote());
  cl::Context context(remote);
  cl::Program program(context, "kernel void present(global int *x) { x[0] = 1; }");
  REQUIRE(program.build({remote}) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  std::string said = stderr_of([&] { clCreateKernel(program(), "absent", &err); });
  CHECK(err == CL_INVALID_KERNEL_NAME);
  CHECK_THAT(said, Catch::Contains("unicl nodes: clCreateKernel: CL_INVALID_KERNEL_NAME: the program has no kernel of "
                                   "that name"));
}
