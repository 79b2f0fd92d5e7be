// Programs and kernels: what the source scanner finds (timing.conf).
#include <cstring>

#include "sim_test.hpp"

using namespace simtest;

namespace {

std::string arg_string(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  size_t n = 0;
  REQUIRE(clGetKernelArgInfo(k, i, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetKernelArgInfo(k, i, what, n, s.data(), nullptr) == CL_SUCCESS);
  s.resize(n - 1);
  return s;
}

template <class T>
T arg_value(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  T v{};
  REQUIRE(clGetKernelArgInfo(k, i, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

}  // namespace

TEST_CASE("Programs build and list the kernels of their source", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  cl_build_status status = CL_BUILD_NONE;
  REQUIRE(clGetProgramBuildInfo(prog.get(), d, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status == CL_BUILD_SUCCESS);
  size_t n = 0;
  REQUIRE(clGetProgramInfo(prog.get(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n) == CL_SUCCESS);
  std::string names(n, '\0');
  REQUIRE(clGetProgramInfo(prog.get(), CL_PROGRAM_KERNEL_NAMES, n, names.data(), nullptr) == CL_SUCCESS);
  CHECK(names.c_str() == std::string("work;sgemm;vadd"));
  cl_uint count = 0;
  REQUIRE(clCreateKernelsInProgram(prog.get(), 0, nullptr, &count) == CL_SUCCESS);
  CHECK(count == 3);
  cl_int err = CL_SUCCESS;
  CHECK(clCreateKernel(prog.get(), "missing", &err) == nullptr);
  CHECK(err == CL_INVALID_KERNEL_NAME);

  SECTION("binaries are the source, and build again") {
    size_t size = 0;
    REQUIRE(clGetProgramInfo(prog.get(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
    std::vector<unsigned char> binary(size);
    unsigned char *ptr = binary.data();
    REQUIRE(clGetProgramInfo(prog.get(), CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) == CL_SUCCESS);
    const unsigned char *bin = binary.data();
    Program again(clCreateProgramWithBinary(ctx.get(), 1, &d, &size, &bin, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(again.get(), 1, &d, nullptr, nullptr, nullptr) == CL_SUCCESS);
    kernel(again.get(), "vadd");
  }
}

TEST_CASE("Kernel argument info comes from the parsed signature", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto k = kernel(prog.get(), "sgemm");
  cl_uint num_args = 0;
  REQUIRE(clGetKernelInfo(k.get(), CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, nullptr) == CL_SUCCESS);
  REQUIRE(num_args == 6);
  // global const float * restrict a, __global const float *b, __global float *c,
  // __local float *tile, uint n, float4 scale
  struct Expected {
    const char *name, *type;
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier qualifiers;
  };
  const Expected expected[] = {
      {"a", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
      {"b", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST},
      {"c", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
      {"tile", "float*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
      {"n", "uint", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"scale", "float4", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE}};
  for (cl_uint i = 0; i < 6; ++i) {
    INFO("argument " << i);
    CHECK(arg_string(k.get(), i, CL_KERNEL_ARG_NAME) == expected[i].name);
    CHECK(arg_string(k.get(), i, CL_KERNEL_ARG_TYPE_NAME) == expected[i].type);
    CHECK(arg_value<cl_kernel_arg_address_qualifier>(k.get(), i, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
          expected[i].address);
    CHECK(arg_value<cl_kernel_arg_type_qualifier>(k.get(), i, CL_KERNEL_ARG_TYPE_QUALIFIER) == expected[i].qualifiers);
    CHECK(arg_value<cl_kernel_arg_access_qualifier>(k.get(), i, CL_KERNEL_ARG_ACCESS_QUALIFIER) ==
          CL_KERNEL_ARG_ACCESS_NONE);
  }
  CHECK(clGetKernelArgInfo(k.get(), 6, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr) == CL_INVALID_ARG_INDEX);

  SECTION("clSetKernelArg checks sizes it knows") {
    cl_uint n = 0;
    double wrong = 0;
    cl_mem none = nullptr;
    CHECK(clSetKernelArg(k.get(), 4, sizeof n, &n) == CL_SUCCESS);
    CHECK(clSetKernelArg(k.get(), 4, sizeof wrong, &wrong) == CL_INVALID_ARG_SIZE);
    CHECK(clSetKernelArg(k.get(), 0, sizeof none, &none) == CL_SUCCESS);
    CHECK(clSetKernelArg(k.get(), 0, 4, &n) == CL_INVALID_ARG_SIZE);
    CHECK(clSetKernelArg(k.get(), 3, 64, &n) == CL_INVALID_ARG_VALUE);  // __local takes no value
    CHECK(clSetKernelArg(k.get(), 3, 0, nullptr) == CL_INVALID_ARG_SIZE);
    cl_mem not_a_buffer = reinterpret_cast<cl_mem>(ctx.get());
    CHECK(clSetKernelArg(k.get(), 0, sizeof not_a_buffer, &not_a_buffer) == CL_INVALID_MEM_OBJECT);
    CHECK(clSetKernelArg(k.get(), 9, sizeof n, &n) == CL_INVALID_ARG_INDEX);
  }
  SECTION("a launch needs every argument") {
    auto q = queue_for(ctx.get(), d);
    size_t global = 16;
    CHECK(clEnqueueNDRangeKernel(q.get(), k.get(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_KERNEL_ARGS);
  }
  size_t wg = 0;
  REQUIRE(clGetKernelWorkGroupInfo(k.get(), d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) == CL_SUCCESS);
  CHECK(wg == 1024);
}
