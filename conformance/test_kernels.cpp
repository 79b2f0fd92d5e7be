// Kernels: arguments, argument info, work-group info, launches in 1-3
// dimensions, cloning, and launch errors.
#include <array>
#include <cstring>

#include "conformance.hpp"

using namespace conformance;

namespace {

const char *const kArgsSource = R"(
typedef struct { int a; float b; } pair_t;
kernel void many(global int *out, int scalar, float4 vec, pair_t pair, local int *scratch,
                 constant int *table, read_only image2d_t img, sampler_t s) {
  out[0] = scalar; out[1] = (int)vec.w; out[2] = pair.a; out[3] = (int)pair.b; out[4] = table[1];
}
kernel void fill(global int *out, int value) { out[get_global_id(0)] = value; }
kernel void store_ids(global int *out) {
  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  out[i] = (int)(get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2));
}
kernel void group_sum(global const int *in, global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) { int s = 0; for (size_t i = 0; i < get_local_size(0); ++i) s += tmp[i]; out[get_group_id(0)] = s; }
}
__attribute__((reqd_work_group_size(4, 1, 1))) kernel void fixed(global int *out) { out[get_global_id(0)] = 1; }
kernel void with_offset(global int *out) { out[get_global_id(0) - get_global_offset(0)] = (int)get_global_id(0); }
kernel void no_args(void) {}
)";

cl::Program kernels_program(Env &env, const char *options = "-cl-kernel-arg-info") {
  return build(env.context, kArgsSource, options);
}

template <class T>
T arg_info(const cl::Kernel &k, cl_uint index, cl_kernel_arg_info param) {
  T v{};
  REQUIRE_CL(clGetKernelArgInfo(k(), index, param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

std::string arg_string(const cl::Kernel &k, cl_uint index, cl_kernel_arg_info param) {
  size_t n = 0;
  REQUIRE_CL(clGetKernelArgInfo(k(), index, param, 0, nullptr, &n), CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE_CL(clGetKernelArgInfo(k(), index, param, n, s.data(), nullptr), CL_SUCCESS);
  return s.c_str();
}

template <class T>
T group_info(const cl::Kernel &k, const cl::Device &d, cl_kernel_work_group_info param) {
  T v{};
  REQUIRE_CL(clGetKernelWorkGroupInfo(k(), d(), param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

}  // namespace

TEST_CASE("kernels: kernel info", "[kernels][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  CHECK(k.getInfo<CL_KERNEL_FUNCTION_NAME>() == "fill");
  CHECK(k.getInfo<CL_KERNEL_NUM_ARGS>() == 2);
  CHECK(k.getInfo<CL_KERNEL_CONTEXT>()() == env.context());
  CHECK(k.getInfo<CL_KERNEL_PROGRAM>()() == p());
  CHECK(k.getInfo<CL_KERNEL_REFERENCE_COUNT>() == 1);
  CHECK(k.getInfo<CL_KERNEL_ATTRIBUTES>().empty());
  cl_uint n;
  CHECK_CL(clGetKernelInfo(k(), 0x7fffu, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetKernelInfo(k(), CL_KERNEL_NUM_ARGS, 1, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr), CL_INVALID_KERNEL);
}

TEST_CASE("kernels: attributes from the source are reported", "[kernels]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel fixed(p, "fixed");
  CHECK(fixed.getInfo<CL_KERNEL_ATTRIBUTES>().find("reqd_work_group_size") != std::string::npos);
}

TEST_CASE("kernels: a kernel keeps its program alive", "[kernels]") {
  Env env;
  cl::Kernel k;
  {
    auto p = kernels_program(env);
    k = cl::Kernel(p, "fill");
    CHECK(p.getInfo<CL_PROGRAM_REFERENCE_COUNT>() >= 2);
  }
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 4 * sizeof(cl_int));
  k.setArg(0, out);
  k.setArg(1, cl_int{6});
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(4));
  cl_int back[4] = {};
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof back, back);
  for (int v : back) CHECK(v == 6);
}

TEST_CASE("kernels: arguments of every kind reach the kernel", "[kernels][args]") {
  Env env;
  if (!images_supported(env.device)) return;
  auto p = kernels_program(env);
  cl::Kernel k(p, "many");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 8 * sizeof(cl_int));
  cl_int table_data[4] = {5, 55, 555, 5555};
  cl::Buffer table(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof table_data, table_data);
  cl::Image2D img(env.context, CL_MEM_READ_ONLY, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), 4, 4);
  cl_int err;
  auto sampler = adopt<cl::Sampler>(
      clCreateSampler(env.context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  struct {
    cl_int a;
    cl_float b;
  } pair{17, 23.0f};
  cl_float4 vec{{0, 0, 0, 42.0f}};
  REQUIRE_CL(clSetKernelArg(k(), 0, sizeof(cl_mem), &out()), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 1, sizeof(cl_int), &table_data[2]), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 2, sizeof vec, &vec), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 3, sizeof pair, &pair), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 4, 16 * sizeof(cl_int), nullptr), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 5, sizeof(cl_mem), &table()), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 6, sizeof(cl_mem), &img()), CL_SUCCESS);
  REQUIRE_CL(clSetKernelArg(k(), 7, sizeof(cl_sampler), &sampler()), CL_SUCCESS);
  env.queue.enqueueTask(k);
  cl_int back[5] = {};
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof back, back);
  CHECK(back[0] == 555);
  CHECK(back[1] == 42);
  CHECK(back[2] == 17);
  CHECK(back[3] == 23);
  CHECK(back[4] == 55);
}

TEST_CASE("kernels: argument errors", "[kernels][args][errors]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  cl_int v = 1;
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 16);
  CHECK_CL(clSetKernelArg(k(), 2, sizeof v, &v), CL_INVALID_ARG_INDEX);
  CHECK_CL(clSetKernelArg(k(), 1, 2, &v), CL_INVALID_ARG_SIZE);
  CHECK_CL(clSetKernelArg(k(), 0, 4, &out()), CL_INVALID_ARG_SIZE);
  CHECK_CL(clSetKernelArg(k(), 1, sizeof v, nullptr), CL_INVALID_ARG_VALUE);
  CHECK_CL(clSetKernelArg(nullptr, 0, sizeof v, &v), CL_INVALID_KERNEL);
}

TEST_CASE("kernels: local argument errors", "[kernels][args][errors]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "group_sum");
  cl_int v = 0;
  // A local argument takes a size and no value.
  CHECK_CL(clSetKernelArg(k(), 2, sizeof v, &v), CL_INVALID_ARG_VALUE);
  CHECK_CL(clSetKernelArg(k(), 2, 0, nullptr), CL_INVALID_ARG_SIZE);
}

TEST_CASE("kernels: a null buffer argument is allowed", "[kernels][args]") {
  Env env;
  auto p = build(env.context,
                 "kernel void maybe(global int *opt, global int *out) { out[0] = opt ? 1 : 2; }");
  cl::Kernel k(p, "maybe");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, sizeof(cl_int));
  REQUIRE_CL(clSetKernelArg(k(), 0, sizeof(cl_mem), nullptr), CL_SUCCESS);
  k.setArg(1, out);
  env.queue.enqueueTask(k);
  cl_int back = 0;
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof back, &back);
  CHECK(back == 2);
}

TEST_CASE("kernels: launching with unset arguments is CL_INVALID_KERNEL_ARGS", "[kernels][args][errors]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 16);
  k.setArg(0, out);
  size_t global = 4;
  CHECK_CL(clEnqueueNDRangeKernel(env.queue(), k(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
           CL_INVALID_KERNEL_ARGS);
}

TEST_CASE("kernels: argument info with -cl-kernel-arg-info", "[kernels][arginfo][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "group_sum");
  CHECK(arg_info<cl_kernel_arg_address_qualifier>(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CHECK(arg_info<cl_kernel_arg_address_qualifier>(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_LOCAL);
  CHECK(arg_info<cl_kernel_arg_access_qualifier>(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER) == CL_KERNEL_ARG_ACCESS_NONE);
  CHECK((arg_info<cl_kernel_arg_type_qualifier>(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER) & CL_KERNEL_ARG_TYPE_CONST) != 0);
  CHECK(arg_info<cl_kernel_arg_type_qualifier>(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER) == CL_KERNEL_ARG_TYPE_NONE);
  CHECK(arg_string(k, 0, CL_KERNEL_ARG_TYPE_NAME) == "int*");
  CHECK(arg_string(k, 0, CL_KERNEL_ARG_NAME) == "in");
  CHECK(arg_string(k, 2, CL_KERNEL_ARG_NAME) == "tmp");
  cl::Kernel fill(p, "fill");
  CHECK(arg_info<cl_kernel_arg_address_qualifier>(fill, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_PRIVATE);
  CHECK(arg_string(fill, 1, CL_KERNEL_ARG_TYPE_NAME) == "int");
  cl_uint unused;
  CHECK_CL(clGetKernelArgInfo(k(), 3, CL_KERNEL_ARG_NAME, sizeof unused, &unused, nullptr), CL_INVALID_ARG_INDEX);
  CHECK_CL(clGetKernelArgInfo(k(), 0, 0x7fffu, sizeof unused, &unused, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("kernels: argument info of images, constants and samplers", "[kernels][arginfo]") {
  Env env;
  if (!images_supported(env.device)) return;
  auto p = kernels_program(env);
  cl::Kernel k(p, "many");
  CHECK(arg_info<cl_kernel_arg_address_qualifier>(k, 5, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_CONSTANT);
  CHECK(arg_info<cl_kernel_arg_access_qualifier>(k, 6, CL_KERNEL_ARG_ACCESS_QUALIFIER) ==
        CL_KERNEL_ARG_ACCESS_READ_ONLY);
  CHECK(arg_string(k, 6, CL_KERNEL_ARG_TYPE_NAME) == "image2d_t");
  CHECK(arg_string(k, 7, CL_KERNEL_ARG_TYPE_NAME) == "sampler_t");
  CHECK(arg_string(k, 2, CL_KERNEL_ARG_TYPE_NAME) == "float4");
}

TEST_CASE("kernels: work-group info", "[kernels][workgroup][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "group_sum");
  auto wg = group_info<size_t>(k, env.device, CL_KERNEL_WORK_GROUP_SIZE);
  CHECK(wg >= 1);
  CHECK(wg <= env.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
  CHECK(group_info<size_t>(k, env.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) >= 1);
  group_info<cl_ulong>(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE);
  group_info<cl_ulong>(k, env.device, CL_KERNEL_PRIVATE_MEM_SIZE);
  auto none = group_info<std::array<size_t, 3>>(k, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE);
  CHECK(none == std::array<size_t, 3>{0, 0, 0});
  cl::Kernel fixed(p, "fixed");
  auto reqd = group_info<std::array<size_t, 3>>(fixed, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE);
  CHECK(reqd == std::array<size_t, 3>{4, 1, 1});
}

TEST_CASE("kernels: work-group info of a one-device program needs no device", "[kernels][workgroup]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "group_sum");
  size_t by_default = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k(), nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof by_default, &by_default, nullptr),
           CL_SUCCESS);
  CHECK(by_default == group_info<size_t>(k, env.device, CL_KERNEL_WORK_GROUP_SIZE));
}

TEST_CASE("kernels: local memory size counts local arguments", "[kernels][workgroup]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "group_sum");
  auto before = group_info<cl_ulong>(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE);
  REQUIRE_CL(clSetKernelArg(k(), 2, 1024, nullptr), CL_SUCCESS);
  auto after = group_info<cl_ulong>(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE);
  CHECK(after >= before + 1024);
}

TEST_CASE("kernels: work-group info errors", "[kernels][workgroup][errors]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  size_t v;
  CHECK_CL(clGetKernelWorkGroupInfo(k(), env.device(), 0x7fffu, sizeof v, &v, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetKernelWorkGroupInfo(nullptr, env.device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, nullptr),
           CL_INVALID_KERNEL);
  // The global work size query is only for custom devices and built-in kernels.
  size_t global[3];
  CHECK_CL(clGetKernelWorkGroupInfo(k(), env.device(), CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global, nullptr),
           CL_INVALID_VALUE);
  cl::Device other = other_device(env.device);
  if (other())
    CHECK_CL(clGetKernelWorkGroupInfo(k(), other(), CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, nullptr),
             CL_INVALID_DEVICE);
}

TEST_CASE("kernels: one, two and three dimensional ranges", "[kernels][ndrange][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "store_ids");
  const size_t x = 4, y = 3, z = 2;
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, x * y * z * sizeof(cl_int));
  k.setArg(0, out);
  for (cl_uint dims = 1; dims <= 3; ++dims) {
    size_t global[3] = {x, dims > 1 ? y : 1, dims > 2 ? z : 1};
    REQUIRE_CL(clEnqueueNDRangeKernel(env.queue(), k(), dims, nullptr, global, nullptr, 0, nullptr, nullptr),
               CL_SUCCESS);
    std::vector<cl_int> back(global[0] * global[1] * global[2]);
    env.queue.enqueueReadBuffer(out, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data());
    size_t i = 0;
    for (size_t c = 0; c < global[2]; ++c)
      for (size_t b = 0; b < global[1]; ++b)
        for (size_t a = 0; a < global[0]; ++a) CHECK(back[i++] == static_cast<cl_int>(a + 100 * b + 10000 * c));
  }
}

TEST_CASE("kernels: local memory and barriers within work-groups", "[kernels][ndrange]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "group_sum");
  const size_t n = 64, local = 8;
  auto data = iota_ints(n);
  cl::Buffer in(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), data.data());
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, n / local * sizeof(cl_int));
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, cl::Local(local * sizeof(cl_int)));
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NDRange(local));
  std::vector<cl_int> sums(n / local);
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sums.size() * sizeof(cl_int), sums.data());
  for (size_t g = 0; g < sums.size(); ++g) {
    cl_int expect = 0;
    for (size_t i = 0; i < local; ++i) expect += static_cast<cl_int>(g * local + i);
    CHECK(sums[g] == expect);
  }
}

TEST_CASE("kernels: a global offset shifts the ids", "[kernels][ndrange][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "with_offset");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 8 * sizeof(cl_int));
  k.setArg(0, out);
  env.queue.enqueueNDRangeKernel(k, cl::NDRange(100), cl::NDRange(8));
  cl_int back[8] = {};
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof back, back);
  for (int i = 0; i < 8; ++i) CHECK(back[i] == 100 + i);
}

TEST_CASE("kernels: a task runs one work-item", "[kernels][ndrange][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  std::vector<cl_int> zeros(4, 0);
  cl::Buffer out(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * sizeof(cl_int), zeros.data());
  k.setArg(0, out);
  k.setArg(1, cl_int{9});
  cl::Event done;
  env.queue.enqueueTask(k, nullptr, &done);
  done.wait();
  // PoCL reports tasks as the one-item ranges they are.
  auto type = done.getInfo<CL_EVENT_COMMAND_TYPE>();
  CHECK((type == CL_COMMAND_TASK || type == CL_COMMAND_NDRANGE_KERNEL));
  cl_int back[4] = {};
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof back, back);
  CHECK(back[0] == 9);
  CHECK(back[1] == 0);
}

TEST_CASE("kernels: a kernel without arguments runs", "[kernels][ndrange]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "no_args");
  CHECK(k.getInfo<CL_KERNEL_NUM_ARGS>() == 0);
  cl::Event done;
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(16), cl::NullRange, nullptr, &done);
  done.wait();
  CHECK(done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
}

TEST_CASE("kernels: launch errors", "[kernels][ndrange][errors]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 1024 * sizeof(cl_int));
  k.setArg(0, out);
  k.setArg(1, cl_int{0});
  size_t global[3] = {16, 1, 1}, local[3] = {16, 1, 1};
  SECTION("work dimension") {
    CHECK_CL(clEnqueueNDRangeKernel(env.queue(), k(), 0, nullptr, global, nullptr, 0, nullptr, nullptr),
             CL_INVALID_WORK_DIMENSION);
    CHECK_CL(clEnqueueNDRangeKernel(env.queue(), k(), 4, nullptr, global, nullptr, 0, nullptr, nullptr),
             CL_INVALID_WORK_DIMENSION);
  }
  SECTION("work-group larger than the device allows") {
    size_t max = env.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    size_t big_global[1] = {2 * max}, big_local[1] = {2 * max};
    CHECK_CL(clEnqueueNDRangeKernel(env.queue(), k(), 1, nullptr, big_global, big_local, 0, nullptr, nullptr),
             CL_INVALID_WORK_GROUP_SIZE);
  }
  SECTION("work-group size against reqd_work_group_size") {
    cl::Kernel fixed(p, "fixed");
    fixed.setArg(0, out);
    size_t eight[1] = {8};
    CHECK_CL(clEnqueueNDRangeKernel(env.queue(), fixed(), 1, nullptr, global, eight, 0, nullptr, nullptr),
             CL_INVALID_WORK_GROUP_SIZE);
    size_t four[1] = {4};
    CHECK_CL(clEnqueueNDRangeKernel(env.queue(), fixed(), 1, nullptr, global, four, 0, nullptr, nullptr), CL_SUCCESS);
  }
  SECTION("null queue") {
    CHECK_CL(clEnqueueNDRangeKernel(nullptr, k(), 1, nullptr, global, local, 0, nullptr, nullptr),
             CL_INVALID_COMMAND_QUEUE);
  }
  env.queue.finish();
}

// PoCL dereferences the null kernel and crashes.
TEST_CASE("kernels: launching a null kernel is CL_INVALID_KERNEL", "[kernels][ndrange][errors][unicl]") {
  Env env;
  size_t global[1] = {16};
  CHECK_CL(clEnqueueNDRangeKernel(env.queue(), nullptr, 1, nullptr, global, nullptr, 0, nullptr, nullptr),
           CL_INVALID_KERNEL);
  CHECK_CL(clEnqueueTask(env.queue(), nullptr, 0, nullptr, nullptr), CL_INVALID_KERNEL);
}

// PoCL refuses the launch but, depending on what ran before, then aborts
// when the queue's context is released ("still have references to IRs").
TEST_CASE("kernels: a kernel on a queue of another context is CL_INVALID_CONTEXT", "[kernels][errors][unicl]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 16 * sizeof(cl_int));
  k.setArg(0, out);
  k.setArg(1, cl_int{0});
  Env other;
  size_t global[1] = {16};
  CHECK_CL(clEnqueueNDRangeKernel(other.queue(), k(), 1, nullptr, global, nullptr, 0, nullptr, nullptr),
           CL_INVALID_CONTEXT);
}

TEST_CASE("kernels: a clone keeps the arguments set so far", "[kernels][clone][oclgrind]") {
  Env env;
  if (platform_version() < 210) return;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  cl::Buffer first(env.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
  cl::Buffer second(env.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
  k.setArg(0, first);
  k.setArg(1, cl_int{3});
  cl_int err;
  auto clone = adopt<cl::Kernel>(clCloneKernel(k(), &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(clone.getInfo<CL_KERNEL_FUNCTION_NAME>() == "fill");
  CHECK(clone.getInfo<CL_KERNEL_PROGRAM>()() == p());
  // Later changes to either kernel do not reach the other.
  k.setArg(1, cl_int{4});
  clone.setArg(0, second);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(4));
  env.queue.enqueueNDRangeKernel(clone, cl::NullRange, cl::NDRange(4));
  cl_int a[4] = {}, b[4] = {};
  env.queue.enqueueReadBuffer(first, CL_TRUE, 0, sizeof a, a);
  env.queue.enqueueReadBuffer(second, CL_TRUE, 0, sizeof b, b);
  for (int i = 0; i < 4; ++i) {
    CHECK(a[i] == 4);
    CHECK(b[i] == 3);
  }
  auto bad = adopt<cl::Kernel>(clCloneKernel(nullptr, &err));
  CHECK(bad() == nullptr);
  CHECK_CL(err, CL_INVALID_KERNEL);
}

TEST_CASE("kernels: retain and release count references", "[kernels][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  REQUIRE_CL(clRetainKernel(k()), CL_SUCCESS);
  CHECK(k.getInfo<CL_KERNEL_REFERENCE_COUNT>() == 2);
  REQUIRE_CL(clReleaseKernel(k()), CL_SUCCESS);
  CHECK(k.getInfo<CL_KERNEL_REFERENCE_COUNT>() == 1);
}

TEST_CASE("kernels: arguments may change between launches", "[kernels][args][oclgrind]") {
  Env env;
  auto p = kernels_program(env);
  cl::Kernel k(p, "fill");
  cl::Buffer a(env.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
  k.setArg(0, a);
  k.setArg(1, cl_int{1});
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(4));
  // The launch captured the arguments: resetting them now changes only later launches.
  k.setArg(0, b);
  k.setArg(1, cl_int{2});
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(4));
  cl_int ra[4] = {}, rb[4] = {};
  env.queue.enqueueReadBuffer(a, CL_TRUE, 0, sizeof ra, ra);
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, sizeof rb, rb);
  for (int i = 0; i < 4; ++i) {
    CHECK(ra[i] == 1);
    CHECK(rb[i] == 2);
  }
}

namespace {
void CL_CALLBACK double_in_place(void *args) {
  struct Args {
    cl_int *data;
    cl_int n;
  };
  auto *a = static_cast<Args *>(args);
  for (cl_int i = 0; i < a->n; ++i) a->data[i] *= 2;
}
}  // namespace

TEST_CASE("kernels: a native kernel sees the buffer's memory", "[kernels][native]") {
  Env env;
  if (!(env.device.getInfo<CL_DEVICE_EXECUTION_CAPABILITIES>() & CL_EXEC_NATIVE_KERNEL)) return;
  auto data = iota_ints(16);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 16 * sizeof(cl_int), data.data());
  struct {
    cl_mem data;
    cl_int n;
  } args{b(), 16};
  const void *locations[] = {&args.data};
  cl_mem mems[] = {b()};
  REQUIRE_CL(clEnqueueNativeKernel(env.queue(), double_in_place, &args, sizeof args, 1, mems, locations, 0, nullptr,
                                   nullptr),
             CL_SUCCESS);
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, 16 * sizeof(cl_int), data.data());
  for (int i = 0; i < 16; ++i) CHECK(data[i] == 2 * i);
  CHECK_CL(clEnqueueNativeKernel(env.queue(), nullptr, &args, sizeof args, 0, nullptr, nullptr, 0, nullptr, nullptr),
           CL_INVALID_VALUE);
}
