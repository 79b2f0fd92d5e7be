// Error codes for bad input across the API: null and wrong-type handles,
// objects of other contexts, sizes out of range, invalid flags and
// properties, and (UniCL only) handles the application already released.
// Area files check their own argument errors; this file holds the checks
// that cut across areas.
#include <cstdint>
#include <limits>

#include "conformance.hpp"

using namespace conformance;

namespace {

const char *const kFill = "kernel void fill(global int *a, int v) { a[get_global_id(0)] = v; }";

}  // namespace

TEST_CASE("errors: null handles in info queries", "[errors][null][oclgrind]") {
  cl_uint v = 0;
  CHECK_CL(clGetContextInfo(nullptr, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_CONTEXT);
  CHECK_CL(clGetCommandQueueInfo(nullptr, CL_QUEUE_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clGetMemObjectInfo(nullptr, CL_MEM_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clGetProgramInfo(nullptr, CL_PROGRAM_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_PROGRAM);
  CHECK_CL(clGetKernelInfo(nullptr, CL_KERNEL_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_KERNEL);
  CHECK_CL(clGetEventInfo(nullptr, CL_EVENT_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_EVENT);
  CHECK_CL(clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_SAMPLER);
}

TEST_CASE("errors: null handles in retain and release", "[errors][null][oclgrind]") {
  CHECK_CL(clRetainContext(nullptr), CL_INVALID_CONTEXT);
  CHECK_CL(clReleaseContext(nullptr), CL_INVALID_CONTEXT);
  CHECK_CL(clRetainCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clReleaseCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clRetainMemObject(nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clReleaseMemObject(nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clRetainProgram(nullptr), CL_INVALID_PROGRAM);
  CHECK_CL(clReleaseProgram(nullptr), CL_INVALID_PROGRAM);
  CHECK_CL(clRetainKernel(nullptr), CL_INVALID_KERNEL);
  CHECK_CL(clReleaseKernel(nullptr), CL_INVALID_KERNEL);
  CHECK_CL(clRetainEvent(nullptr), CL_INVALID_EVENT);
  CHECK_CL(clReleaseEvent(nullptr), CL_INVALID_EVENT);
  CHECK_CL(clRetainSampler(nullptr), CL_INVALID_SAMPLER);
  CHECK_CL(clReleaseSampler(nullptr), CL_INVALID_SAMPLER);
  CHECK_CL(clRetainDevice(nullptr), CL_INVALID_DEVICE);
  CHECK_CL(clReleaseDevice(nullptr), CL_INVALID_DEVICE);
}

TEST_CASE("errors: null handles in enqueue calls", "[errors][null]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  char host[64] = {};
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  int pattern = 0;
  CHECK_CL(clEnqueueWriteBuffer(env.queue(), nullptr, CL_TRUE, 0, 4, host, 0, nullptr, nullptr),
           CL_INVALID_MEM_OBJECT);
  CHECK_CL(clEnqueueFillBuffer(env.queue(), nullptr, &pattern, 4, 0, 4, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), nullptr, b(), 0, 0, 4, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clEnqueueReadBufferRect(env.queue(), nullptr, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0,
                                   nullptr, nullptr),
           CL_INVALID_MEM_OBJECT);
  CHECK_CL(clEnqueueUnmapMemObject(env.queue(), nullptr, host, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clEnqueueMarkerWithWaitList(nullptr, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clEnqueueBarrierWithWaitList(nullptr, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clEnqueueWriteBuffer(nullptr, b(), CL_TRUE, 0, 4, host, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("errors: objects of another context", "[errors][contexts]") {
  Env a, b;
  cl::Buffer buffer_a(a.context, CL_MEM_READ_WRITE, 64);
  cl::Buffer buffer_b(b.context, CL_MEM_READ_WRITE, 64);
  CHECK_CL(clEnqueueCopyBuffer(a.queue(), buffer_a(), buffer_b(), 0, 0, 16, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  int pattern = 0;
  CHECK_CL(clEnqueueFillBuffer(a.queue(), buffer_b(), &pattern, 4, 0, 16, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  cl_int err = CL_SUCCESS;
  void *p = clEnqueueMapBuffer(a.queue(), buffer_b(), CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_CONTEXT);
}

// PoCL takes the foreign sampler.
TEST_CASE("errors: a sampler of another context as a kernel argument", "[errors][contexts][images][unicl]") {
  Env a, b;
  if (!images_supported(a.device)) return;
  auto p = build(a.context,
                 "kernel void k(read_only image2d_t i, sampler_t s, global float4 *o) {"
                 " o[0] = read_imagef(i, s, (int2)(0, 0)); }");
  cl::Kernel k(p, "k");
  cl_int err;
  auto foreign = adopt<cl::Sampler>(clCreateSampler(b.context(), CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK_CL(clSetKernelArg(k(), 1, sizeof(cl_sampler), &foreign()), CL_INVALID_SAMPLER);
}

// oclgrind's bounds checks overflow and it crashes; UniCL checks first.
TEST_CASE("errors: sizes past the end of a buffer", "[errors][sizes][oclgrind-unicl]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  char host[64] = {};
  const size_t huge = std::numeric_limits<size_t>::max();
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 8, huge - 4, host, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueWriteBuffer(env.queue(), b(), CL_TRUE, 64, 1, host, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), b(), b(), 0, huge - 2, 4, 0, nullptr, nullptr), CL_INVALID_VALUE);
}

// PoCL runs the kernel with wrapped ids and corrupts memory.
TEST_CASE("errors: a global offset that overflows", "[errors][sizes][unicl]") {
  Env env;
  auto p = build(env.context, kFill);
  cl::Kernel k(p, "fill");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 64);
  k.setArg(0, out);
  k.setArg(1, cl_int{0});
  size_t offset[1] = {std::numeric_limits<size_t>::max() - 4}, global[1] = {16};
  CHECK_CL(clEnqueueNDRangeKernel(env.queue(), k(), 1, offset, global, nullptr, 0, nullptr, nullptr),
           CL_INVALID_GLOBAL_OFFSET);
}

TEST_CASE("errors: a work-item count past the device's per-dimension limit", "[errors][sizes]") {
  Env env;
  auto p = build(env.context, kFill);
  cl::Kernel k(p, "fill");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 64);
  k.setArg(0, out);
  k.setArg(1, cl_int{0});
  auto items = env.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  size_t global[2] = {1, items[1] + 1}, local[2] = {1, items[1] + 1};
  cl_int err = clEnqueueNDRangeKernel(env.queue(), k(), 2, nullptr, global, local, 0, nullptr, nullptr);
  // Past the limit of one dimension; the group may also be past the total.
  CHECK((err == CL_INVALID_WORK_ITEM_SIZE || err == CL_INVALID_WORK_GROUP_SIZE));
}

TEST_CASE("errors: a global size not divisible by the local size", "[errors][sizes]") {
  Env env;
  if (env.device.getInfo<CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT>()) return;  // allowed there
  auto p = build(env.context, kFill);
  cl::Kernel k(p, "fill");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 64 * sizeof(cl_int));
  k.setArg(0, out);
  k.setArg(1, cl_int{0});
  size_t global[1] = {10}, local[1] = {4};
  CHECK_CL(clEnqueueNDRangeKernel(env.queue(), k(), 1, nullptr, global, local, 0, nullptr, nullptr),
           CL_INVALID_WORK_GROUP_SIZE);
}

// PoCL makes samplers with unknown addressing and filter modes.
TEST_CASE("errors: invalid sampler arguments", "[errors][flags][images][unicl]") {
  Env env;
  if (!images_supported(env.device)) return;
  cl_int err = CL_SUCCESS;
  auto bad_mode = adopt<cl::Sampler>(clCreateSampler(env.context(), CL_TRUE, 0x7fff, CL_FILTER_NEAREST, &err));
  CHECK(bad_mode() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  auto bad_filter = adopt<cl::Sampler>(clCreateSampler(env.context(), CL_TRUE, CL_ADDRESS_CLAMP, 0x7fff, &err));
  CHECK(bad_filter() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  auto no_context = adopt<cl::Sampler>(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  CHECK(no_context() == nullptr);
  CHECK_CL(err, CL_INVALID_CONTEXT);
}

// PoCL ignores unknown flag bits here.
TEST_CASE("errors: invalid flags of memory queries", "[errors][flags][unicl]") {
  Env env;
  cl_uint n = 0;
  CHECK_CL(clGetSupportedImageFormats(env.context(), cl_mem_flags{1} << 40, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
           CL_INVALID_VALUE);
}

TEST_CASE("errors: wrong-type handles are refused", "[errors][types][unicl]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  cl_uint v = 0;
  // Each handle is a live object of another type.
  CHECK_CL(clGetContextInfo(reinterpret_cast<cl_context>(b()), CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, nullptr),
           CL_INVALID_CONTEXT);
  CHECK_CL(clGetMemObjectInfo(reinterpret_cast<cl_mem>(env.queue()), CL_MEM_REFERENCE_COUNT, sizeof v, &v, nullptr),
           CL_INVALID_MEM_OBJECT);
  CHECK_CL(clGetCommandQueueInfo(reinterpret_cast<cl_command_queue>(env.context()), CL_QUEUE_REFERENCE_COUNT, sizeof v,
                                 &v, nullptr),
           CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clRetainKernel(reinterpret_cast<cl_kernel>(b())), CL_INVALID_KERNEL);
  CHECK_CL(clReleaseEvent(reinterpret_cast<cl_event>(b())), CL_INVALID_EVENT);
  char host[4];
  CHECK_CL(clEnqueueReadBuffer(env.queue(), reinterpret_cast<cl_mem>(env.context()), CL_TRUE, 0, 4, host, 0, nullptr,
                               nullptr),
           CL_INVALID_MEM_OBJECT);
  CHECK(b.getInfo<CL_MEM_REFERENCE_COUNT>() == 1);
}

TEST_CASE("errors: released handles are refused", "[errors][released][unicl]") {
  cl::Device device = cltest::test_device();
  cl_device_id d = device();
  cl_int err;
  cl_uint v = 0;
  // The handles are released to a reference count of zero and never
  // wrapped: each call below uses a handle the application gave up.
  SECTION("context") {
    cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
    REQUIRE_CL(err, CL_SUCCESS);
    REQUIRE_CL(clReleaseContext(c), CL_SUCCESS);
    CHECK_CL(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_CONTEXT);
    CHECK_CL(clReleaseContext(c), CL_INVALID_CONTEXT);
  }
  SECTION("queue and buffer") {
    Env env;
    cl_command_queue q = clCreateCommandQueue(env.context(), d, 0, &err);
    REQUIRE_CL(err, CL_SUCCESS);
    cl_mem m = clCreateBuffer(env.context(), CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE_CL(err, CL_SUCCESS);
    REQUIRE_CL(clReleaseMemObject(m), CL_SUCCESS);
    REQUIRE_CL(clReleaseCommandQueue(q), CL_SUCCESS);
    char host[4];
    CHECK_CL(clEnqueueReadBuffer(env.queue(), m, CL_TRUE, 0, 4, host, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
    CHECK_CL(clFinish(q), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof v, &v, nullptr), CL_INVALID_MEM_OBJECT);
  }
  SECTION("program and kernel") {
    Env env;
    const char *src = kFill;
    cl_program p = clCreateProgramWithSource(env.context(), 1, &src, nullptr, &err);
    REQUIRE_CL(err, CL_SUCCESS);
    REQUIRE_CL(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "fill", &err);
    REQUIRE_CL(err, CL_SUCCESS);
    REQUIRE_CL(clReleaseKernel(k), CL_SUCCESS);
    REQUIRE_CL(clReleaseProgram(p), CL_SUCCESS);
    CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_int), &v), CL_INVALID_KERNEL);
    CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_PROGRAM);
    CHECK_CL(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
  }
  SECTION("event") {
    Env env;
    cl_event e = clCreateUserEvent(env.context(), &err);
    REQUIRE_CL(err, CL_SUCCESS);
    REQUIRE_CL(clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    REQUIRE_CL(clReleaseEvent(e), CL_SUCCESS);
    CHECK_CL(clWaitForEvents(1, &e), CL_INVALID_EVENT);
    CHECK_CL(clEnqueueMarkerWithWaitList(env.queue(), 1, &e, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  }
  SECTION("sampler") {
    Env env;
    cl_sampler s = clCreateSampler(env.context(), CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    REQUIRE_CL(err, CL_SUCCESS);
    REQUIRE_CL(clReleaseSampler(s), CL_SUCCESS);
    CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, nullptr), CL_INVALID_SAMPLER);
  }
}

TEST_CASE("errors: a released buffer in a kernel's arguments", "[errors][released][unicl]") {
  Env env;
  auto p = build(env.context, kFill);
  cl::Kernel k(p, "fill");
  cl_int err;
  cl_mem m = clCreateBuffer(env.context(), CL_MEM_READ_WRITE, 64, nullptr, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE_CL(clReleaseMemObject(m), CL_SUCCESS);
  CHECK_CL(clSetKernelArg(k(), 0, sizeof m, &m), CL_INVALID_MEM_OBJECT);
}
