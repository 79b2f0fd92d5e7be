// Programs: creation from source and binaries, build/compile/link, build
// options and logs, program info, kernel names.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <sstream>

#include "conformance.hpp"

using namespace conformance;

namespace {

const char *const kTwoKernels =
    "kernel void add_one(global int *a) { a[get_global_id(0)] += 1; }\n"
    "kernel void times_two(global int *a) { a[get_global_id(0)] *= 2; }\n";

cl_build_status build_status(const cl::Program &p, const cl::Device &d) {
  cl_build_status s = CL_BUILD_NONE;
  REQUIRE_CL(clGetProgramBuildInfo(p(), d(), CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr), CL_SUCCESS);
  return s;
}

std::string build_log(const cl::Program &p, const cl::Device &d) {
  size_t n = 0;
  REQUIRE_CL(clGetProgramBuildInfo(p(), d(), CL_PROGRAM_BUILD_LOG, 0, nullptr, &n), CL_SUCCESS);
  std::string log(n, '\0');
  REQUIRE_CL(clGetProgramBuildInfo(p(), d(), CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr), CL_SUCCESS);
  return log;
}

cl::Program from_source(const cl::Context &ctx, const char *src) {
  cl_int err;
  auto p = adopt<cl::Program>(clCreateProgramWithSource(ctx(), 1, &src, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  return p;
}

// Runs kernel `name` of `program` over `n` ints starting at `start`.
std::vector<cl_int> run_on_iota(Env &env, const cl::Program &program, const char *name, size_t n, cl_int start = 0) {
  auto data = iota_ints(n, start);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), data.data());
  cl::Kernel k(program, name);
  k.setArg(0, b);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n));
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(cl_int), data.data());
  return data;
}

std::vector<std::string> split_names(const std::string &names) {
  std::vector<std::string> out;
  std::stringstream ss(names);
  for (std::string n; std::getline(ss, n, ';');)
    if (!n.empty()) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("programs: source in several strings with and without lengths", "[programs][oclgrind]") {
  Env env;
  const char *parts[] = {"kernel void add_one(global int *a) ", "{ a[get_global_id(0)] += 1; }XXXX"};
  size_t lengths[] = {0, std::strlen(parts[1]) - 4};  // 0: the first string is null-terminated
  cl_int err;
  auto p = adopt<cl::Program>(clCreateProgramWithSource(env.context(), 2, parts, lengths, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE_CL(clBuildProgram(p(), 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  auto out = run_on_iota(env, p, "add_one", 8);
  for (int i = 0; i < 8; ++i) CHECK(out[i] == i + 1);
}

TEST_CASE("programs: source is returned as given", "[programs][oclgrind]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  size_t n = 0;
  REQUIRE_CL(clGetProgramInfo(p(), CL_PROGRAM_SOURCE, 0, nullptr, &n), CL_SUCCESS);
  std::string src(n, '\0');
  REQUIRE_CL(clGetProgramInfo(p(), CL_PROGRAM_SOURCE, n, src.data(), nullptr), CL_SUCCESS);
  CHECK(src.c_str() == std::string(kTwoKernels));
}

TEST_CASE("programs: creation from source errors", "[programs][errors][oclgrind]") {
  Env env;
  cl_int err = CL_SUCCESS;
  const char *none[] = {nullptr};
  auto a = adopt<cl::Program>(clCreateProgramWithSource(env.context(), 1, none, nullptr, &err));
  CHECK(a() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  auto b = adopt<cl::Program>(clCreateProgramWithSource(env.context(), 0, nullptr, nullptr, &err));
  CHECK(b() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  const char *src = kTwoKernels;
  auto c = adopt<cl::Program>(clCreateProgramWithSource(nullptr, 1, &src, nullptr, &err));
  CHECK(c() == nullptr);
  CHECK_CL(err, CL_INVALID_CONTEXT);
}

TEST_CASE("programs: build status moves from none to success", "[programs][oclgrind]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  CHECK(build_status(p, env.device) == CL_BUILD_NONE);
  REQUIRE_CL(clBuildProgram(p(), 1, &env.device(), nullptr, nullptr, nullptr), CL_SUCCESS);
  CHECK(build_status(p, env.device) == CL_BUILD_SUCCESS);
  cl_program_binary_type type = 0;
  REQUIRE_CL(clGetProgramBuildInfo(p(), env.device(), CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr),
             CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

TEST_CASE("programs: a failed build reports CL_BUILD_PROGRAM_FAILURE and a log", "[programs]") {
  Env env;
  auto p = from_source(env.context, "kernel void broken(global int *a) { a[0] = undeclared_thing; }");
  CHECK_CL(clBuildProgram(p(), 0, nullptr, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  CHECK(build_status(p, env.device) == CL_BUILD_ERROR);
  CHECK(build_log(p, env.device).find("undeclared_thing") != std::string::npos);
  // Without an executable there are no kernels.
  cl_int err;
  auto k = adopt<cl::Kernel>(clCreateKernel(p(), "broken", &err));
  CHECK(k() == nullptr);
  CHECK_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
}

// oclgrind answers CL_INVALID_KERNEL_NAME for a program never built.
TEST_CASE("programs: kernels of an unbuilt program are CL_INVALID_PROGRAM_EXECUTABLE",
          "[programs][errors][oclgrind-unicl]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  cl_int err;
  auto k = adopt<cl::Kernel>(clCreateKernel(p(), "add_one", &err));
  CHECK(k() == nullptr);
  CHECK_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
}

// PoCL answers CL_INVALID_PROGRAM for the log of a program never built.
TEST_CASE("programs: an unbuilt program has an empty log and no options", "[programs][unicl]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  CHECK(build_log(p, env.device).c_str() == std::string());
  size_t n = 0;
  REQUIRE_CL(clGetProgramBuildInfo(p(), env.device(), CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n <= 1);
}

TEST_CASE("programs: build options define macros and are reported back", "[programs][oclgrind]") {
  Env env;
  auto p = from_source(env.context, "kernel void add_n(global int *a) { a[get_global_id(0)] += ADD; }");
  const char *options = "-D ADD=5 -cl-opt-disable";
  REQUIRE_CL(clBuildProgram(p(), 0, nullptr, options, nullptr, nullptr), CL_SUCCESS);
  size_t n = 0;
  REQUIRE_CL(clGetProgramBuildInfo(p(), env.device(), CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &n), CL_SUCCESS);
  std::string back(n, '\0');
  REQUIRE_CL(clGetProgramBuildInfo(p(), env.device(), CL_PROGRAM_BUILD_OPTIONS, n, back.data(), nullptr), CL_SUCCESS);
  CHECK(back.find("ADD=5") != std::string::npos);
  auto out = run_on_iota(env, p, "add_n", 4);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == i + 5);
}

TEST_CASE("programs: invalid build options are CL_INVALID_BUILD_OPTIONS", "[programs][errors]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  CHECK_CL(clBuildProgram(p(), 0, nullptr, "-cl-no-such-option-at-all", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
}

namespace {
struct BuildNotice {
  std::atomic<int> calls{0};
  cl_program program = nullptr;
};
void CL_CALLBACK on_built(cl_program p, void *data) {
  auto *notice = static_cast<BuildNotice *>(data);
  notice->program = p;
  notice->calls.fetch_add(1);
}
}  // namespace

TEST_CASE("programs: the build callback is called with the program", "[programs]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  BuildNotice notice;
  cl_int err = clBuildProgram(p(), 0, nullptr, nullptr, on_built, &notice);
  REQUIRE((err == CL_SUCCESS || err == CL_BUILD_PROGRAM_FAILURE));
  REQUIRE(wait_until(notice.calls, 1));
  CHECK(notice.program == p());
  CHECK(build_status(p, env.device) == CL_BUILD_SUCCESS);
}

TEST_CASE("programs: build argument errors", "[programs][errors]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  int data = 0;
  CHECK_CL(clBuildProgram(p(), 0, nullptr, nullptr, nullptr, &data), CL_INVALID_VALUE);
  CHECK_CL(clBuildProgram(p(), 1, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clBuildProgram(p(), 0, &env.device(), nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clBuildProgram(nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
}

// PoCL answers CL_BUILD_PROGRAM_FAILURE here.
TEST_CASE("programs: building for a device outside the program is CL_INVALID_DEVICE", "[programs][errors][unicl]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  cl::Device other = other_device(env.device);
  if (other()) CHECK_CL(clBuildProgram(p(), 1, &other(), nullptr, nullptr, nullptr), CL_INVALID_DEVICE);
}

TEST_CASE("programs: program info after a build", "[programs][oclgrind]") {
  Env env;
  auto p = build(env.context, kTwoKernels);
  CHECK(p.getInfo<CL_PROGRAM_CONTEXT>()() == env.context());
  CHECK(p.getInfo<CL_PROGRAM_NUM_DEVICES>() == 1);
  auto devices = p.getInfo<CL_PROGRAM_DEVICES>();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0]() == env.device());
  CHECK(p.getInfo<CL_PROGRAM_REFERENCE_COUNT>() == 1);
  CHECK(p.getInfo<CL_PROGRAM_NUM_KERNELS>() == 2);
  CHECK(split_names(p.getInfo<CL_PROGRAM_KERNEL_NAMES>()) == std::vector<std::string>{"add_one", "times_two"});
  cl_uint n;
  CHECK_CL(clGetProgramInfo(p(), 0x7fffu, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetProgramInfo(p(), CL_PROGRAM_NUM_DEVICES, 1, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetProgramInfo(nullptr, CL_PROGRAM_NUM_DEVICES, sizeof n, &n, nullptr), CL_INVALID_PROGRAM);
}

TEST_CASE("programs: kernel names need an executable", "[programs][errors][oclgrind]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  size_t count = 0;
  CHECK_CL(clGetProgramInfo(p(), CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
           CL_INVALID_PROGRAM_EXECUTABLE);
  size_t n = 0;
  CHECK_CL(clGetProgramInfo(p(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n), CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_CASE("programs: binaries round trip into a new program", "[programs][binaries][oclgrind]") {
  Env env;
  auto original = build(env.context, kTwoKernels);
  auto sizes = original.getInfo<CL_PROGRAM_BINARY_SIZES>();
  REQUIRE(sizes.size() == 1);
  REQUIRE(sizes[0] > 0);
  std::vector<unsigned char> binary(sizes[0]);
  unsigned char *slots[] = {binary.data()};
  REQUIRE_CL(clGetProgramInfo(original(), CL_PROGRAM_BINARIES, sizeof slots, slots, nullptr), CL_SUCCESS);
  const unsigned char *bins[] = {binary.data()};
  size_t lengths[] = {binary.size()};
  cl_int status = CL_INVALID_VALUE, err;
  auto loaded = adopt<cl::Program>(
      clCreateProgramWithBinary(env.context(), 1, &env.device(), lengths, bins, &status, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK_CL(status, CL_SUCCESS);
  REQUIRE_CL(clBuildProgram(loaded(), 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  auto out = run_on_iota(env, loaded, "times_two", 16, 3);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == 2 * (i + 3));
}

// CL_PROGRAM_BINARY_SIZES tells the binary as it is when asked: after its
// kernels have run (a vendor's binary may grow as it compiles them) too.
TEST_CASE("programs: binaries after the kernels ran fit the sizes asked then", "[programs][binaries][oclgrind]") {
  Env env;
  auto program = build(env.context, kTwoKernels);
  auto out = run_on_iota(env, program, "times_two", 16);
  REQUIRE(out[15] == 30);
  auto sizes = program.getInfo<CL_PROGRAM_BINARY_SIZES>();
  REQUIRE(sizes.size() == 1);
  REQUIRE(sizes[0] > 0);
  // A guard past the end: the binary must not reach it.
  std::vector<unsigned char> binary(sizes[0] + 64, 0xA5);
  unsigned char *slots[] = {binary.data()};
  REQUIRE_CL(clGetProgramInfo(program(), CL_PROGRAM_BINARIES, sizeof slots, slots, nullptr), CL_SUCCESS);
  for (size_t i = sizes[0]; i < binary.size(); ++i) CHECK(binary[i] == 0xA5);
}

// The specification skips null entries; PoCL writes through them and crashes.
TEST_CASE("programs: a null binary slot is skipped", "[programs][binaries][unicl]") {
  Env env;
  auto p = build(env.context, kTwoKernels);
  unsigned char *slots[] = {nullptr};
  CHECK_CL(clGetProgramInfo(p(), CL_PROGRAM_BINARIES, sizeof slots, slots, nullptr), CL_SUCCESS);
  size_t n = 0;
  REQUIRE_CL(clGetProgramInfo(p(), CL_PROGRAM_BINARIES, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == sizeof(unsigned char *));
}

TEST_CASE("programs: creation from binaries errors", "[programs][binaries][errors]") {
  Env env;
  cl_int err = CL_SUCCESS, status = CL_SUCCESS;
  const unsigned char garbage[] = "this is not a program binary of any device";
  const unsigned char *bins[] = {garbage};
  size_t lengths[] = {sizeof garbage};
  SECTION("garbage") {
    auto p = adopt<cl::Program>(clCreateProgramWithBinary(env.context(), 1, &env.device(), lengths, bins, &status, &err));
    CHECK(p() == nullptr);
    CHECK_CL(err, CL_INVALID_BINARY);
    CHECK_CL(status, CL_INVALID_BINARY);
  }
  SECTION("zero length") {
    size_t zero[] = {0};
    auto p = adopt<cl::Program>(clCreateProgramWithBinary(env.context(), 1, &env.device(), zero, bins, &status, &err));
    CHECK(p() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("no devices") {
    auto p = adopt<cl::Program>(clCreateProgramWithBinary(env.context(), 0, nullptr, lengths, bins, &status, &err));
    CHECK(p() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("a device outside the context") {
    cl::Device other = other_device(env.device);
    if (!other()) return;
    auto p = adopt<cl::Program>(clCreateProgramWithBinary(env.context(), 1, &other(), lengths, bins, &status, &err));
    CHECK(p() == nullptr);
    CHECK_CL(err, CL_INVALID_DEVICE);
  }
}

TEST_CASE("programs: compile and link two units", "[programs][link][oclgrind]") {
  Env env;
  auto lib = from_source(env.context, "int helper(int x) { return 3 * x + 1; }");
  auto main = from_source(env.context,
                          "int helper(int x);\n"
                          "kernel void apply(global int *a) { a[get_global_id(0)] = helper(a[get_global_id(0)]); }");
  REQUIRE_CL(clCompileProgram(lib(), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  REQUIRE_CL(clCompileProgram(main(), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_program_binary_type type = 0;
  REQUIRE_CL(clGetProgramBuildInfo(lib(), env.device(), CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr),
             CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program inputs[] = {main(), lib()};
  cl_int err;
  auto linked = adopt<cl::Program>(clLinkProgram(env.context(), 0, nullptr, nullptr, 2, inputs, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(build_status(linked, env.device) == CL_BUILD_SUCCESS);
  auto out = run_on_iota(env, linked, "apply", 8);
  for (int i = 0; i < 8; ++i) CHECK(out[i] == 3 * i + 1);
}

TEST_CASE("programs: compile with an embedded header", "[programs][link]") {
  Env env;
  auto header = from_source(env.context, "#define SCALE 7\n");
  auto main = from_source(env.context,
                          "#include \"scale.h\"\n"
                          "kernel void scale(global int *a) { a[get_global_id(0)] *= SCALE; }");
  cl_program headers[] = {header()};
  const char *names[] = {"scale.h"};
  REQUIRE_CL(clCompileProgram(main(), 0, nullptr, nullptr, 1, headers, names, nullptr, nullptr), CL_SUCCESS);
  cl_program inputs[] = {main()};
  cl_int err;
  auto linked = adopt<cl::Program>(clLinkProgram(env.context(), 0, nullptr, nullptr, 1, inputs, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  auto out = run_on_iota(env, linked, "scale", 4, 1);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == 7 * (i + 1));
}

TEST_CASE("programs: a library made with -create-library links into an executable", "[programs][link]") {
  Env env;
  auto unit = from_source(env.context, "int offset(void) { return 40; }");
  REQUIRE_CL(clCompileProgram(unit(), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_program lib_inputs[] = {unit()};
  cl_int err;
  auto lib = adopt<cl::Program>(
      clLinkProgram(env.context(), 0, nullptr, "-create-library", 1, lib_inputs, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  cl_program_binary_type type = 0;
  REQUIRE_CL(clGetProgramBuildInfo(lib(), env.device(), CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr),
             CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  auto main = from_source(env.context,
                          "int offset(void);\n"
                          "kernel void shift(global int *a) { a[get_global_id(0)] += offset(); }");
  REQUIRE_CL(clCompileProgram(main(), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_program exe_inputs[] = {main(), lib()};
  auto exe = adopt<cl::Program>(clLinkProgram(env.context(), 0, nullptr, nullptr, 2, exe_inputs, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  auto out = run_on_iota(env, exe, "shift", 4);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == 40 + i);
}

TEST_CASE("programs: compile failure and link errors", "[programs][link][errors]") {
  Env env;
  auto bad = from_source(env.context, "kernel void k(global int *a) { a[0] = not_declared; }");
  CHECK_CL(clCompileProgram(bad(), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr),
           CL_COMPILE_PROGRAM_FAILURE);
  CHECK(build_status(bad, env.device) == CL_BUILD_ERROR);
  cl_int err = CL_SUCCESS;
  auto none = adopt<cl::Program>(clLinkProgram(env.context(), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, &err));
  CHECK(none() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

// PoCL dereferences the null inputs and crashes.
TEST_CASE("programs: linking a null program is CL_INVALID_PROGRAM", "[programs][link][errors][unicl]") {
  Env env;
  cl_int err = CL_SUCCESS;
  cl_program null_input[] = {nullptr};
  auto invalid = adopt<cl::Program>(
      clLinkProgram(env.context(), 0, nullptr, nullptr, 1, null_input, nullptr, nullptr, &err));
  CHECK(invalid() == nullptr);
  CHECK_CL(err, CL_INVALID_PROGRAM);
  auto p = from_source(env.context, kTwoKernels);
  CHECK_CL(clCompileProgram(p(), 0, nullptr, nullptr, 1, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("programs: kernels in a program", "[programs][kernels][oclgrind]") {
  Env env;
  auto p = build(env.context, kTwoKernels);
  cl_uint n = 0;
  REQUIRE_CL(clCreateKernelsInProgram(p(), 0, nullptr, &n), CL_SUCCESS);
  REQUIRE(n == 2);
  cl_kernel raw[2] = {};
  REQUIRE_CL(clCreateKernelsInProgram(p(), 2, raw, nullptr), CL_SUCCESS);
  auto first = adopt<cl::Kernel>(raw[0]);
  auto second = adopt<cl::Kernel>(raw[1]);
  std::vector<std::string> names{first.getInfo<CL_KERNEL_FUNCTION_NAME>(), second.getInfo<CL_KERNEL_FUNCTION_NAME>()};
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"add_one", "times_two"});
  cl_kernel one = nullptr;
  CHECK_CL(clCreateKernelsInProgram(p(), 1, &one, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("programs: unknown kernel names", "[programs][kernels][errors][oclgrind]") {
  Env env;
  auto p = build(env.context, kTwoKernels);
  cl_int err = CL_SUCCESS;
  auto k = adopt<cl::Kernel>(clCreateKernel(p(), "no_such_kernel", &err));
  CHECK(k() == nullptr);
  CHECK_CL(err, CL_INVALID_KERNEL_NAME);
  auto n = adopt<cl::Kernel>(clCreateKernel(p(), nullptr, &err));
  CHECK(n() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

TEST_CASE("programs: rebuilding with kernels attached is CL_INVALID_OPERATION", "[programs][errors]") {
  Env env;
  auto p = build(env.context, kTwoKernels);
  {
    cl::Kernel k(p, "add_one");
    CHECK_CL(clBuildProgram(p(), 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_OPERATION);
  }
  // Once the kernel is gone the program may be built again.
  CHECK_CL(clBuildProgram(p(), 0, nullptr, "-D AGAIN", nullptr, nullptr), CL_SUCCESS);
}

TEST_CASE("programs: retain and release count references", "[programs][oclgrind]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  REQUIRE_CL(clRetainProgram(p()), CL_SUCCESS);
  CHECK(p.getInfo<CL_PROGRAM_REFERENCE_COUNT>() == 2);
  REQUIRE_CL(clReleaseProgram(p()), CL_SUCCESS);
  CHECK(p.getInfo<CL_PROGRAM_REFERENCE_COUNT>() == 1);
}

TEST_CASE("programs: build info errors", "[programs][errors]") {
  Env env;
  auto p = from_source(env.context, kTwoKernels);
  cl_build_status s;
  CHECK_CL(clGetProgramBuildInfo(p(), env.device(), 0x7fffu, sizeof s, &s, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetProgramBuildInfo(p(), nullptr, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr), CL_INVALID_DEVICE);
  CHECK_CL(clGetProgramBuildInfo(nullptr, env.device(), CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr),
           CL_INVALID_PROGRAM);
}

TEST_CASE("programs: a program keeps working after its source context object is dropped", "[programs]") {
  cl::Program p;
  cl::Device device;
  {
    cl::Context ctx = cltest::test_context(&device);
    p = build(ctx, kTwoKernels);
  }
  cl::Context ctx = p.getInfo<CL_PROGRAM_CONTEXT>();
  cl::CommandQueue q(ctx, device);
  auto data = iota_ints(4);
  cl::Buffer b(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * sizeof(cl_int), data.data());
  cl::Kernel k(p, "times_two");
  k.setArg(0, b);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(4));
  q.enqueueReadBuffer(b, CL_TRUE, 0, 4 * sizeof(cl_int), data.data());
  for (int i = 0; i < 4; ++i) CHECK(data[i] == 2 * i);
}
