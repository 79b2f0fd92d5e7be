// Bad input to the program and kernel entry points.
#include <CL/cl_ext_unicl.h>

#include "bad_input.hpp"

using bad::as;
using bad::create_error;
using bad::world;

namespace {
void CL_CALLBACK ignore_build(cl_program, void *) {}
int user_data;
const char *const kBroken = "__kernel void broken(__global int *a) { a[0] = undeclared_thing; }";
}  // namespace

TEST_CASE("clCreateProgramWithSource", "[bad_input]") {
  cl_context c = world().context();
  const char *src = bad::kSource;
  const char *null_string = nullptr;
  auto create = [&](cl_context ctx, cl_uint n, const char **strings) {
    return create_error([&](cl_int *e) { return clCreateProgramWithSource(ctx, n, strings, nullptr, e); });
  };
  CHECK(create(nullptr, 1, &src) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().program()), 1, &src) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), 1, &src) == CL_INVALID_CONTEXT);
  CHECK(create(c, 0, &src) == CL_INVALID_VALUE);
  CHECK(create(c, 1, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, 1, &null_string) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateProgramWithBinary", "[bad_input]") {
  cl_context c = world().context();
  cl_device_id d = world().device();
  const unsigned char garbage[] = "this is not a program binary";
  const unsigned char *binaries[] = {garbage};
  size_t lengths[] = {sizeof garbage};
  size_t zero_length[] = {0};
  cl_int status = bad::kUnset;
  auto create = [&](cl_context ctx, cl_uint n, const cl_device_id *devs, const size_t *lens,
                    const unsigned char **bins, cl_int *st) {
    return create_error([&](cl_int *e) { return clCreateProgramWithBinary(ctx, n, devs, lens, bins, st, e); });
  };
  CHECK(create(nullptr, 1, &d, lengths, binaries, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().kernel()), 1, &d, lengths, binaries, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), 1, &d, lengths, binaries, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(c, 0, &d, lengths, binaries, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, 1, nullptr, lengths, binaries, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, 1, &d, nullptr, binaries, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, 1, &d, lengths, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, 1, &d, zero_length, binaries, nullptr) == CL_INVALID_VALUE);
  cl_device_id wrong = as<cl_device_id>(world().buffer());
  CHECK(create(c, 1, &wrong, lengths, binaries, nullptr) == CL_INVALID_DEVICE);
  if (cl_device_id foreign = world().foreign_device())
    CHECK(create(c, 1, &foreign, lengths, binaries, nullptr) == CL_INVALID_DEVICE);
  CHECK(create(c, 1, &d, lengths, binaries, &status) == CL_INVALID_BINARY);
  CHECK(status == CL_INVALID_BINARY);
}

TEST_CASE("clCreateProgramWithBuiltInKernels", "[bad_input]") {
  cl_context c = world().context();
  cl_device_id d = world().device();
  auto create = [&](cl_context ctx, cl_uint n, const cl_device_id *devs, const char *names) {
    return create_error([&](cl_int *e) { return clCreateProgramWithBuiltInKernels(ctx, n, devs, names, e); });
  };
  CHECK(create(nullptr, 1, &d, "x") == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().sampler()), 1, &d, "x") == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), 1, &d, "x") == CL_INVALID_CONTEXT);
  CHECK(create(c, 0, &d, "x") == CL_INVALID_VALUE);
  CHECK(create(c, 1, nullptr, "x") == CL_INVALID_VALUE);
  CHECK(create(c, 1, &d, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, 1, &d, "no_such_built_in_kernel_unicl") == CL_INVALID_VALUE);
  cl_device_id wrong = as<cl_device_id>(world().queue());
  CHECK(create(c, 1, &wrong, "x") == CL_INVALID_DEVICE);
  if (cl_device_id foreign = world().foreign_device()) CHECK(create(c, 1, &foreign, "x") == CL_INVALID_DEVICE);
}

TEST_CASE("clRetainProgram", "[bad_input]") {
  CHECK(clRetainProgram(nullptr) == CL_INVALID_PROGRAM);
  CHECK(clRetainProgram(as<cl_program>(world().kernel())) == CL_INVALID_PROGRAM);
  CHECK(clRetainProgram(bad::dead_program()) == CL_INVALID_PROGRAM);
}

TEST_CASE("clReleaseProgram", "[bad_input]") {
  CHECK(clReleaseProgram(nullptr) == CL_INVALID_PROGRAM);
  CHECK(clReleaseProgram(as<cl_program>(world().buffer())) == CL_INVALID_PROGRAM);
  CHECK(clReleaseProgram(bad::dead_program()) == CL_INVALID_PROGRAM);
}

TEST_CASE("clBuildProgram", "[bad_input]") {
  cl_device_id d = world().device();
  cl::Program fresh(world().context, bad::kSource);
  cl_program p = fresh();
  CHECK(clBuildProgram(nullptr, 0, nullptr, "", nullptr, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clBuildProgram(as<cl_program>(world().context()), 0, nullptr, "", nullptr, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clBuildProgram(bad::dead_program(), 0, nullptr, "", nullptr, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clBuildProgram(p, 1, nullptr, "", nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clBuildProgram(p, 0, &d, "", nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clBuildProgram(p, 0, nullptr, "", nullptr, &user_data) == CL_INVALID_VALUE);
  cl_device_id wrong = as<cl_device_id>(world().buffer());
  CHECK(clBuildProgram(p, 1, &wrong, "", nullptr, nullptr) == CL_INVALID_DEVICE);
  if (cl_device_id foreign = world().foreign_device())
    CHECK(clBuildProgram(p, 1, &foreign, "", nullptr, nullptr) == CL_INVALID_DEVICE);
  CHECK(clBuildProgram(p, 0, nullptr, "-no-such-option-unicl", nullptr, nullptr) == CL_INVALID_BUILD_OPTIONS);
  cl::Program broken(world().context, kBroken);
  CHECK(clBuildProgram(broken(), 0, nullptr, "", ignore_build, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  // A program with kernels attached cannot be rebuilt.
  CHECK(clBuildProgram(world().program(), 0, nullptr, "", nullptr, nullptr) == CL_INVALID_OPERATION);
}

TEST_CASE("clCompileProgram", "[bad_input]") {
  cl_device_id d = world().device();
  cl::Program fresh(world().context, bad::kSource);
  cl_program p = fresh();
  CHECK(clCompileProgram(nullptr, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clCompileProgram(as<cl_program>(world().queue()), 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_PROGRAM);
  CHECK(clCompileProgram(bad::dead_program(), 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_PROGRAM);
  CHECK(clCompileProgram(p, 1, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clCompileProgram(p, 0, &d, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clCompileProgram(p, 0, nullptr, "", 1, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
  const char *name = "header.h";
  CHECK(clCompileProgram(p, 0, nullptr, "", 0, nullptr, &name, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clCompileProgram(p, 0, nullptr, "", 0, nullptr, nullptr, nullptr, &user_data) == CL_INVALID_VALUE);
  cl_device_id wrong = as<cl_device_id>(world().image());
  CHECK(clCompileProgram(p, 1, &wrong, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_DEVICE);
  cl_program header = as<cl_program>(world().buffer());
  CHECK(clCompileProgram(p, 0, nullptr, "", 1, &header, &name, nullptr, nullptr) == CL_INVALID_PROGRAM);
  cl::Program broken(world().context, kBroken);
  CHECK(clCompileProgram(broken(), 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_COMPILE_PROGRAM_FAILURE);
}

TEST_CASE("clLinkProgram", "[bad_input]") {
  cl_context c = world().context();
  cl_device_id d = world().device();
  cl::Program compiled(world().context, bad::kSource);
  compiled.compile("");
  cl_program inputs[] = {compiled()};
  auto link = [&](cl_context ctx, cl_uint nd, const cl_device_id *devs, cl_uint np, const cl_program *progs,
                  void *data) {
    return create_error([&](cl_int *e) { return clLinkProgram(ctx, nd, devs, "", np, progs, nullptr, data, e); });
  };
  CHECK(link(nullptr, 0, nullptr, 1, inputs, nullptr) == CL_INVALID_CONTEXT);
  CHECK(link(as<cl_context>(world().buffer()), 0, nullptr, 1, inputs, nullptr) == CL_INVALID_CONTEXT);
  CHECK(link(bad::dead_context(), 0, nullptr, 1, inputs, nullptr) == CL_INVALID_CONTEXT);
  CHECK(link(c, 1, nullptr, 1, inputs, nullptr) == CL_INVALID_VALUE);
  CHECK(link(c, 0, &d, 1, inputs, nullptr) == CL_INVALID_VALUE);
  CHECK(link(c, 0, nullptr, 0, inputs, nullptr) == CL_INVALID_VALUE);
  CHECK(link(c, 0, nullptr, 1, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(link(c, 0, nullptr, 1, inputs, &user_data) == CL_INVALID_VALUE);
  cl_program wrong[] = {as<cl_program>(world().kernel())};
  CHECK(link(c, 0, nullptr, 1, wrong, nullptr) == CL_INVALID_PROGRAM);
  cl_program dead[] = {bad::dead_program()};
  CHECK(link(c, 0, nullptr, 1, dead, nullptr) == CL_INVALID_PROGRAM);
  cl_device_id wrong_device = as<cl_device_id>(world().sampler());
  CHECK(link(c, 1, &wrong_device, 1, inputs, nullptr) == CL_INVALID_DEVICE);
  // A program of another context.
  cl::Program elsewhere(world().other, bad::kSource);
  elsewhere.compile("");
  cl_program foreign[] = {elsewhere()};
  CHECK(link(c, 0, nullptr, 1, foreign, nullptr) == CL_INVALID_PROGRAM);
}

TEST_CASE("clGetProgramInfo", "[bad_input]") {
  size_t n = 0;
  CHECK(clGetProgramInfo(nullptr, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clGetProgramInfo(as<cl_program>(world().device()), CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr) ==
        CL_INVALID_PROGRAM);
  CHECK(clGetProgramInfo(bad::dead_program(), CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clGetProgramInfo(world().program(), 0xdead, sizeof n, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetProgramInfo(world().program(), CL_PROGRAM_NUM_KERNELS, 1, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetProgramInfo(world().unbuilt(), CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr) ==
        CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_CASE("clGetProgramBuildInfo", "[bad_input]") {
  cl_device_id d = world().device();
  cl_build_status status = 0;
  CHECK(clGetProgramBuildInfo(nullptr, d, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
        CL_INVALID_PROGRAM);
  CHECK(clGetProgramBuildInfo(as<cl_program>(world().context()), d, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                              nullptr) == CL_INVALID_PROGRAM);
  CHECK(clGetProgramBuildInfo(bad::dead_program(), d, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
        CL_INVALID_PROGRAM);
  CHECK(clGetProgramBuildInfo(world().program(), nullptr, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
        CL_INVALID_DEVICE);
  CHECK(clGetProgramBuildInfo(world().program(), as<cl_device_id>(world().queue()), CL_PROGRAM_BUILD_STATUS,
                              sizeof status, &status, nullptr) == CL_INVALID_DEVICE);
  if (cl_device_id foreign = world().foreign_device())
    CHECK(clGetProgramBuildInfo(world().program(), foreign, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetProgramBuildInfo(world().program(), d, 0xdead, sizeof status, &status, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetProgramBuildInfo(world().program(), d, CL_PROGRAM_BUILD_STATUS, 1, &status, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateKernel", "[bad_input]") {
  auto create = [&](cl_program p, const char *name) {
    return create_error([&](cl_int *e) { return clCreateKernel(p, name, e); });
  };
  CHECK(create(nullptr, "copy") == CL_INVALID_PROGRAM);
  CHECK(create(as<cl_program>(world().buffer()), "copy") == CL_INVALID_PROGRAM);
  CHECK(create(bad::dead_program(), "copy") == CL_INVALID_PROGRAM);
  CHECK(create(world().unbuilt(), "copy") == CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK(create(world().program(), "no_such_kernel") == CL_INVALID_KERNEL_NAME);
  CHECK(create(world().program(), nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateKernelsInProgram", "[bad_input]") {
  cl_kernel kernels[8];
  cl_uint n = 0;
  CHECK(clCreateKernelsInProgram(nullptr, 8, kernels, &n) == CL_INVALID_PROGRAM);
  CHECK(clCreateKernelsInProgram(as<cl_program>(world().sampler()), 8, kernels, &n) == CL_INVALID_PROGRAM);
  CHECK(clCreateKernelsInProgram(bad::dead_program(), 8, kernels, &n) == CL_INVALID_PROGRAM);
  CHECK(clCreateKernelsInProgram(world().unbuilt(), 8, kernels, &n) == CL_INVALID_PROGRAM_EXECUTABLE);
  // Three kernels do not fit in one slot.
  CHECK(clCreateKernelsInProgram(world().program(), 1, kernels, &n) == CL_INVALID_VALUE);
}

TEST_CASE("clRetainKernel", "[bad_input]") {
  CHECK(clRetainKernel(nullptr) == CL_INVALID_KERNEL);
  CHECK(clRetainKernel(as<cl_kernel>(world().program())) == CL_INVALID_KERNEL);
  CHECK(clRetainKernel(bad::dead_kernel()) == CL_INVALID_KERNEL);
}

TEST_CASE("clReleaseKernel", "[bad_input]") {
  CHECK(clReleaseKernel(nullptr) == CL_INVALID_KERNEL);
  CHECK(clReleaseKernel(as<cl_kernel>(world().buffer())) == CL_INVALID_KERNEL);
  CHECK(clReleaseKernel(bad::dead_kernel()) == CL_INVALID_KERNEL);
}

TEST_CASE("clSetKernelArg", "[bad_input]") {
  cl::Kernel copy(world().program, "copy");
  cl::Kernel local(world().program, "with_local");
  cl::Kernel image(world().program, "with_image");
  cl_kernel k = copy();
  cl_mem b = world().buffer();
  cl_int scale = 2;
  CHECK(clSetKernelArg(nullptr, 0, sizeof b, &b) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArg(as<cl_kernel>(world().buffer()), 0, sizeof b, &b) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArg(bad::dead_kernel(), 0, sizeof b, &b) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArg(k, 3, sizeof scale, &scale) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArg(k, 2, 1, &scale) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 2, sizeof scale, nullptr) == CL_INVALID_ARG_VALUE);
  cl_mem not_mem = as<cl_mem>(world().kernel());
  CHECK(clSetKernelArg(k, 0, sizeof not_mem, &not_mem) == CL_INVALID_MEM_OBJECT);
  cl_mem dead = bad::dead_mem();
  CHECK(clSetKernelArg(k, 1, sizeof dead, &dead) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(k, 0, 1, &b) == CL_INVALID_ARG_SIZE);
  // A buffer of another context.
  cl_mem elsewhere = world().other_buffer();
  cl_int err = clSetKernelArg(k, 0, sizeof elsewhere, &elsewhere);
  CHECK((err == CL_INVALID_MEM_OBJECT || err == CL_INVALID_CONTEXT));
  // __local arguments: a size and no value.
  CHECK(clSetKernelArg(local(), 0, 64, &scale) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(local(), 0, 0, nullptr) == CL_INVALID_ARG_SIZE);
  // Sampler arguments take samplers only.
  cl_sampler not_sampler = as<cl_sampler>(world().buffer());
  CHECK(clSetKernelArg(image(), 1, sizeof not_sampler, &not_sampler) == CL_INVALID_SAMPLER);
}

TEST_CASE("clGetKernelInfo", "[bad_input]") {
  cl_uint n = 0;
  CHECK(clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelInfo(as<cl_kernel>(world().context()), CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr) ==
        CL_INVALID_KERNEL);
  CHECK(clGetKernelInfo(bad::dead_kernel(), CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelInfo(world().kernel(), 0xdead, sizeof n, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetKernelInfo(world().kernel(), CL_KERNEL_NUM_ARGS, 1, &n, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clGetKernelWorkGroupInfo", "[bad_input]") {
  cl_device_id d = world().device();
  size_t wg = 0;
  CHECK(clGetKernelWorkGroupInfo(nullptr, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelWorkGroupInfo(as<cl_kernel>(world().queue()), d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                                 nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelWorkGroupInfo(bad::dead_kernel(), d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) ==
        CL_INVALID_KERNEL);
  CHECK(clGetKernelWorkGroupInfo(world().kernel(), as<cl_device_id>(world().buffer()), CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof wg, &wg, nullptr) == CL_INVALID_DEVICE);
  if (cl_device_id foreign = world().foreign_device())
    CHECK(clGetKernelWorkGroupInfo(world().kernel(), foreign, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) ==
          CL_INVALID_DEVICE);
  CHECK(clGetKernelWorkGroupInfo(world().kernel(), d, 0xdead, sizeof wg, &wg, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetKernelWorkGroupInfo(world().kernel(), d, CL_KERNEL_WORK_GROUP_SIZE, 1, &wg, nullptr) == CL_INVALID_VALUE);
  // CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in kernels.
  size_t global[3];
  CHECK(clGetKernelWorkGroupInfo(world().kernel(), d, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global, nullptr) ==
        CL_INVALID_VALUE);
}

TEST_CASE("clGetKernelArgInfo", "[bad_input]") {
  cl_kernel_arg_address_qualifier q = 0;
  CHECK(clGetKernelArgInfo(nullptr, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelArgInfo(as<cl_kernel>(world().image()), 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q,
                           nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelArgInfo(bad::dead_kernel(), 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) ==
        CL_INVALID_KERNEL);
  CHECK(clGetKernelArgInfo(world().kernel(), 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) ==
        CL_INVALID_ARG_INDEX);
  CHECK(clGetKernelArgInfo(world().kernel(), 0, 0xdead, sizeof q, &q, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetKernelArgInfo(world().kernel(), 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, 1, &q, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCloneKernel", "[bad_input]") {
  auto clone = [&](cl_kernel k) { return create_error([&](cl_int *e) { return clCloneKernel(k, e); }); };
  CHECK(clone(nullptr) == CL_INVALID_KERNEL);
  CHECK(clone(as<cl_kernel>(world().sampler())) == CL_INVALID_KERNEL);
  CHECK(clone(bad::dead_kernel()) == CL_INVALID_KERNEL);
}

TEST_CASE("clSetKernelSplitUNICL", "[bad_input]") {
  auto set_split = reinterpret_cast<clSetKernelSplitUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(world().platform(), "clSetKernelSplitUNICL"));
  REQUIRE(set_split);
  cl::Kernel copy(world().program, "copy");
  cl::Kernel image(world().program, "with_image");
  cl_kernel k = copy();
  const cl_kernel_split_arg_unicl in{0, 0, sizeof(cl_int), sizeof(cl_int)};
  CHECK(set_split(nullptr, 0, 1, &in) == CL_INVALID_KERNEL);
  CHECK(set_split(as<cl_kernel>(world().buffer()), 0, 1, &in) == CL_INVALID_KERNEL);
  CHECK(set_split(bad::dead_kernel(), 0, 1, &in) == CL_INVALID_KERNEL);
  CHECK(set_split(k, 3, 1, &in) == CL_INVALID_VALUE);
  CHECK(set_split(k, 0, 1, nullptr) == CL_INVALID_VALUE);
  CHECK(set_split(k, 0, 0, &in) == CL_INVALID_VALUE);
  const cl_kernel_split_arg_unicl twice[] = {in, in};
  CHECK(set_split(k, 0, 2, twice) == CL_INVALID_VALUE);
  const cl_kernel_split_arg_unicl no_stride{0, 0, 0, 4}, no_size{0, 0, 4, 0};
  CHECK(set_split(k, 0, 1, &no_stride) == CL_INVALID_VALUE);
  CHECK(set_split(k, 0, 1, &no_size) == CL_INVALID_VALUE);
  const cl_kernel_split_arg_unicl past_end{3, 0, 4, 4}, scalar{2, 0, 4, 4}, an_image{0, 0, 4, 4};
  CHECK(set_split(k, 0, 1, &past_end) == CL_INVALID_ARG_INDEX);
  CHECK(set_split(k, 0, 1, &scalar) == CL_INVALID_ARG_INDEX);
  CHECK(set_split(image(), 0, 1, &an_image) == CL_INVALID_ARG_INDEX);
  // A valid declaration, then its removal.
  const cl_kernel_split_arg_unicl both[] = {in, {1, 0, sizeof(cl_int), sizeof(cl_int)}};
  CHECK(set_split(k, 0, 2, both) == CL_SUCCESS);
  CHECK(set_split(k, 0, 0, nullptr) == CL_SUCCESS);
}

namespace {
cl_int CL_CALLBACK never_called(cl_command_queue, cl_uint, void *, cl_event, cl_event *) { return CL_SUCCESS; }
}  // namespace

TEST_CASE("clSetKernelDivideFunctionUNICL", "[bad_input]") {
  auto set_divide = reinterpret_cast<clSetKernelDivideFunctionUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(world().platform(), "clSetKernelDivideFunctionUNICL"));
  REQUIRE(set_divide);
  cl::Kernel copy(world().program, "copy");
  cl_kernel k = copy();
  CHECK(set_divide(nullptr, never_called, nullptr, 1, 2) == CL_INVALID_KERNEL);
  CHECK(set_divide(as<cl_kernel>(world().buffer()), never_called, nullptr, 1, 2) == CL_INVALID_KERNEL);
  CHECK(set_divide(bad::dead_kernel(), never_called, nullptr, 1, 2) == CL_INVALID_KERNEL);
  CHECK(set_divide(k, never_called, nullptr, 0, 2) == CL_INVALID_VALUE);  // factors start at 1
  CHECK(set_divide(k, never_called, nullptr, 3, 2) == CL_INVALID_VALUE);  // inverted range
  CHECK(set_divide(k, never_called, nullptr, 1, 1) == CL_SUCCESS);
  CHECK(set_divide(k, nullptr, nullptr, 0, 0) == CL_SUCCESS);  // removal: the range is not looked at
  // SOCL's registration through clSetKernelArg: a number of factors must be given.
  CHECK(clSetKernelArg(k, static_cast<cl_uint>(-2), sizeof(cl_uint), nullptr) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(k, static_cast<cl_uint>(-4), sizeof(cl_uint), nullptr) == CL_INVALID_ARG_INDEX);
}
