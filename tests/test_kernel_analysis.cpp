// What the kernel analysis changes for a program, and what it never does:
// a source it cannot compile, a build that fails, a program from binaries
// all build and run as they would without it (whole); CL_CONTEXT_AUTO_SPLIT
// _UNICL and UNICL_AUTO_SPLIT=0 keep launches whole; the modes it finds
// spare moving back what a kernel only reads; UNICL_LOG=2 says each
// kernel's verdict once; a 2-D image written by rows splits; a build
// through UniCL finds the program PoCL cached for a direct build (the
// device-type macros only where the source names them). Over PoCL pthread
// + basic, on device-less queues.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <set>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include "CL/cl_ext_unicl.h"
#include "cl_test.hpp"
#include "isolated.hpp"
#include "scenario.hpp"

namespace {

const char *kScale = R"CL(
__kernel void scale(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
)CL";

constexpr size_t kCount = 4096;

std::vector<cl_device_id> pocl_devices() {
  std::vector<cl_device_id> out;
  for (auto &d : cltest::devices()) {
    std::string name = cltest::device_name(d);
    if (name.find("pthread") != std::string::npos || name.find("basic") != std::string::npos) out.push_back(d());
  }
  REQUIRE(out.size() == 2);
  return out;
}

// A context of PoCL's two devices (with `properties`), a device-less
// queue, one queue per device.
struct Pair {
  std::vector<cl_device_id> devices = pocl_devices();
  cl_context context = nullptr;
  cl_command_queue scheduled = nullptr;
  cl_command_queue on[2] = {nullptr, nullptr};
  explicit Pair(std::vector<cl_context_properties> properties = {}) {
    cl_int err = CL_SUCCESS;
    if (!properties.empty()) properties.push_back(0);
    context = clCreateContext(properties.empty() ? nullptr : properties.data(), 2, devices.data(), nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    scheduled = clCreateCommandQueueWithProperties(context, nullptr, nullptr, &err);
    for (int i = 0; i < 2; ++i) on[i] = clCreateCommandQueueWithProperties(context, devices[i], nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~Pair() {
    for (cl_command_queue q : {scheduled, on[0], on[1]}) clReleaseCommandQueue(q);
    clReleaseContext(context);
  }
  // The program of `source`; its build's result in `built`.
  cl_program program(const char *source, cl_int &built) {
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    built = clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr);
    return p;
  }
};

std::string analysis_of(cl_program p) {
  size_t n = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_ANALYSIS_UNICL, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_ANALYSIS_UNICL, n, s.data(), nullptr) == CL_SUCCESS);
  s.resize(std::strlen(s.c_str()));
  return s;
}

// The scaling kernel of `p` over kCount floats on `q`: the factor it ran
// with; the result checked.
cl_uint run_scale(cl_context ctx, cl_command_queue q, cl_program p) {
  cl_int err = CL_SUCCESS;
  std::vector<float> data(kCount), got(kCount);
  std::iota(data.begin(), data.end(), 0.0f);
  cl_mem in = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, kCount * 4, data.data(), &err);
  cl_mem out = clCreateBuffer(ctx, 0, kCount * 4, nullptr, &err);
  cl_kernel k = clCreateKernel(p, "scale", &err);
  REQUIRE(err == CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof in, &in);
  clSetKernelArg(k, 1, sizeof out, &out);
  cl_event e = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &kCount, nullptr, 0, nullptr, &e) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(q, out, CL_TRUE, 0, kCount * 4, got.data(), 1, &e, nullptr) == CL_SUCCESS);
  cl_uint factor = 0;
  clGetEventInfo(e, CL_EVENT_DIVIDE_FACTOR_UNICL, sizeof factor, &factor, nullptr);
  bool right = true;
  for (size_t i = 0; i < kCount; ++i) right = right && got[i] == 2.0f * data[i];
  CHECK(right);
  clReleaseEvent(e);
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  return factor;
}

// The program of `pair` made from the binaries of `source`'s build. PoCL
// gives a program's binaries once a kernel of it exists.
cl_program from_binaries(Pair &pair, cl_program source) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(source, "scale", &err);
  REQUIRE(err == CL_SUCCESS);
  size_t sizes[2] = {};
  REQUIRE(clGetProgramInfo(source, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> b0(sizes[0]), b1(sizes[1]);
  unsigned char *where[2] = {b0.data(), b1.data()};
  REQUIRE(clGetProgramInfo(source, CL_PROGRAM_BINARIES, sizeof where, where, nullptr) == CL_SUCCESS);
  clReleaseKernel(k);
  const unsigned char *given[2] = {where[0], where[1]};
  cl_program binary = clCreateProgramWithBinary(pair.context, 2, pair.devices.data(), sizes, given, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(binary, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  return binary;
}

const cl_context_properties kFactor2[] = {CL_CONTEXT_DIVIDE_FACTOR_UNICL, 2};

}  // namespace

TEST_CASE("a source the analysis cannot compile builds and runs whole", "[analysis]") {
  // Clang's SPIR target defines __SPIR__; PoCL's CPU devices do not.
  std::string source = std::string("#ifdef __SPIR__\n#error not for the analysis\n#endif\n") + kScale;
  Pair pair({kFactor2[0], kFactor2[1]});
  cl_int built = CL_INVALID_VALUE;
  cl_program p = pair.program(source.c_str(), built);
  CHECK(built == CL_SUCCESS);
  CHECK_THAT(analysis_of(p), Catch::StartsWith("no analysis: the source does not compile for the analysis"));
  CHECK(run_scale(pair.context, pair.scheduled, p) == 0);
  clReleaseProgram(p);
}

TEST_CASE("a build that fails fails as it would without the analysis", "[analysis]") {
  Pair pair;
  cl_int built = CL_SUCCESS;
  cl_program p = pair.program("__kernel void broken(__global float *x) { x[0] = ; }", built);
  CHECK(built == CL_BUILD_PROGRAM_FAILURE);
  cl_build_status status = CL_BUILD_SUCCESS;
  REQUIRE(clGetProgramBuildInfo(p, pair.devices[0], CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
          CL_SUCCESS);
  CHECK(status == CL_BUILD_ERROR);
  CHECK_THAT(analysis_of(p), Catch::StartsWith("no analysis"));
  clReleaseProgram(p);
}

TEST_CASE("a program from binaries has no analysis; its kernels run whole", "[analysis]") {
  Pair pair({kFactor2[0], kFactor2[1]});
  cl_int built = CL_INVALID_VALUE;
  cl_program source = pair.program(kScale, built);
  REQUIRE(built == CL_SUCCESS);
  // Once analysed (a launch before the analysis ends runs whole, and a
  // loaded machine may end it after the build): split with the factor forced.
  CHECK_THAT(analysis_of(source), Catch::Contains("scale"));
  CHECK(run_scale(pair.context, pair.scheduled, source) == 2);
  cl_program from_binaries = ::from_binaries(pair, source);
  CHECK(analysis_of(from_binaries).empty());
  CHECK(run_scale(pair.context, pair.scheduled, from_binaries) == 0);
  clReleaseProgram(source);
  clReleaseProgram(from_binaries);
}

TEST_CASE("CL_CONTEXT_AUTO_SPLIT_UNICL false keeps launches whole", "[analysis]") {
  Pair off({kFactor2[0], kFactor2[1], CL_CONTEXT_AUTO_SPLIT_UNICL, CL_FALSE});
  cl_bool value = CL_TRUE;
  REQUIRE(clGetContextInfo(off.context, CL_CONTEXT_AUTO_SPLIT_UNICL, sizeof value, &value, nullptr) == CL_SUCCESS);
  CHECK(value == CL_FALSE);
  cl_int built = CL_INVALID_VALUE;
  cl_program p = off.program(kScale, built);
  REQUIRE(built == CL_SUCCESS);
  CHECK(run_scale(off.context, off.scheduled, p) == 0);
  clReleaseProgram(p);
  auto devices = pocl_devices();
  const cl_context_properties bad[] = {CL_CONTEXT_AUTO_SPLIT_UNICL, 2, 0};
  cl_int err = CL_SUCCESS;
  CHECK(clCreateContext(bad, 2, devices.data(), nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PROPERTY);
}

TEST_CASE("isolated: UNICL_AUTO_SPLIT=0", "[.]") {
  Pair pair({kFactor2[0], kFactor2[1]});
  cl_int built = CL_INVALID_VALUE;
  cl_program p = pair.program(kScale, built);
  REQUIRE(built == CL_SUCCESS);
  CHECK(run_scale(pair.context, pair.scheduled, p) == 0);
  clReleaseProgram(p);
}

TEST_CASE("UNICL_AUTO_SPLIT=0 keeps launches whole", "[analysis]") {
  auto run = cltest::run_hidden("isolated: UNICL_AUTO_SPLIT=0", {{"UNICL_AUTO_SPLIT", std::string("0")}}, 120);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
}

namespace {

// The program of kScale in `pair`, from source (analysed) or from the
// binaries of that build (not analysed).
cl_program scale_program(Pair &pair, bool analysed) {
  cl_int built = CL_INVALID_VALUE;
  cl_program p = pair.program(kScale, built);
  REQUIRE(built == CL_SUCCESS);
  analysis_of(p);  // waits for it
  if (analysed) return p;
  cl_program binary = from_binaries(pair, p);
  clReleaseProgram(p);
  return binary;
}

// Bytes moved when the kernel runs on the first device, then its input is
// read on the second.
cl_ulong moved_for_a_read_after_the_kernel(bool analysed) {
  Pair pair;
  cl_program p = scale_program(pair, analysed);
  cl_int err = CL_SUCCESS;
  std::vector<float> data(kCount, 1.0f), back(kCount);
  cl_mem in = clCreateBuffer(pair.context, CL_MEM_COPY_HOST_PTR, kCount * 4, data.data(), &err);
  cl_mem out = clCreateBuffer(pair.context, 0, kCount * 4, nullptr, &err);
  cl_kernel k = clCreateKernel(p, "scale", &err);
  clSetKernelArg(k, 0, sizeof in, &in);
  clSetKernelArg(k, 1, sizeof out, &out);
  REQUIRE(clEnqueueNDRangeKernel(pair.on[0], k, 1, nullptr, &kCount, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(pair.on[0]) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(pair.on[1], in, CL_TRUE, 0, kCount * 4, back.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(back == data);
  cl_ulong moved = 0;
  clGetContextInfo(pair.context, CL_CONTEXT_BYTES_MOVED_UNICL, sizeof moved, &moved, nullptr);
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseProgram(p);
  return moved;
}

}  // namespace

TEST_CASE("the modes the analysis finds spare moving back what a kernel only reads", "[analysis]") {
  // With the analysis the input stays valid in the host copy: the kernel's
  // device gets it (its bytes moved once) and the read takes it from there.
  // Without it (a program from binaries; PoCL gives no argument information
  // unless asked) the input counts as written by the kernel: its device's
  // copy is the only valid one, and the read brings it back through the
  // host copy to the reading device first.
  CHECK(moved_for_a_read_after_the_kernel(true) == kCount * 4);
  CHECK(moved_for_a_read_after_the_kernel(false) == 3 * kCount * 4);
}

TEST_CASE("isolated: verdicts logged once", "[.]") {
  Pair pair({kFactor2[0], kFactor2[1]});
  const char *source = R"CL(
__kernel void scale(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
__kernel void total(__global const float *in, __global float *sum) {
  sum[0] += in[get_global_id(0)];
}
)CL";
  cl_int built = CL_INVALID_VALUE;
  cl_program p = pair.program(source, built);
  REQUIRE(built == CL_SUCCESS);
  analysis_of(p);
  for (int i = 0; i < 2; ++i) run_scale(pair.context, pair.scheduled, p);
  clReleaseProgram(p);
}

TEST_CASE("UNICL_LOG=2 says each kernel's verdict once", "[analysis]") {
  auto run = cltest::run_hidden("isolated: verdicts logged once", {{"UNICL_LOG", std::string("2")}}, 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto count = [&](const std::string &what) {
    size_t n = 0;
    for (size_t at = run.err.find(what); at != std::string::npos; at = run.err.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("kernel analysis: kernel scale: splits along dimension 0") == 1);
  CHECK(count("kernel analysis: kernel total: runs whole\n  not along dimension 2") == 1);
  CHECK(count("c (written)") == 0);
  CHECK(count("out (written): i*4, 4 bytes") == 1);
  // A clean program: no vendor failure to name (UniCL's own questions,
  // such as argument information PoCL keeps unless asked, are not named).
  CHECK(count(" returned CL_") == 0);
}

namespace {

const char *kInvert = R"CL(
__kernel void invert(__read_only image2d_t src, __write_only image2d_t dst) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, at, (float4)(1.0f) - read_imagef(src, at));
}
)CL";
constexpr size_t kWidth = 64, kHeight = 48, kImageBytes = kWidth * kHeight * 16;

// Runs kInvert on `pair`'s scheduled queue; checks the pixels read back.
// The factor it ran with.
cl_uint run_invert(Pair &pair) {
  cl_int err = CL_SUCCESS;
  cl_program p = pair.program(kInvert, err);
  REQUIRE(err == CL_SUCCESS);
  CHECK_THAT(analysis_of(p), Catch::Contains("dst (written): i*1, 1 rows"));
  std::vector<float> pixels(kWidth * kHeight * 4), back(pixels.size());
  std::iota(pixels.begin(), pixels.end(), 0.0f);
  const cl_image_format format{CL_RGBA, CL_FLOAT};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = kWidth;
  desc.image_height = kHeight;
  cl_mem src = clCreateImage(pair.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, pixels.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem dst = clCreateImage(pair.context, CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "invert", &err);
  clSetKernelArg(k, 0, sizeof src, &src);
  clSetKernelArg(k, 1, sizeof dst, &dst);
  const size_t global[2] = {kWidth, kHeight}, origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
  cl_event e = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(pair.scheduled, k, 2, nullptr, global, nullptr, 0, nullptr, &e) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(pair.scheduled, dst, CL_TRUE, origin, region, 0, 0, back.data(), 1, &e, nullptr) == CL_SUCCESS);
  bool right = true;
  for (size_t i = 0; i < pixels.size(); ++i) right = right && back[i] == 1.0f - pixels[i];
  CHECK(right);
  cl_uint factor = 0;
  clGetEventInfo(e, CL_EVENT_DIVIDE_FACTOR_UNICL, sizeof factor, &factor, nullptr);
  clReleaseEvent(e);
  clReleaseKernel(k);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseProgram(p);
  return factor;
}

}  // namespace

TEST_CASE("a launch that writes a 2-D image by rows splits, each piece's rows moved alone", "[analysis]") {
  // ffmpeg's filters: each work-item writes its own pixel of the output
  // image and reads the input through a sampler. The input goes whole to
  // each device; each piece writes its rows of the output on its device,
  // and the read-back gathers only the rows the reading device lacks.
  Pair pair({kFactor2[0], kFactor2[1]});
  CHECK(run_invert(pair) == 2);
  cl_ulong moved = 0;
  clGetContextInfo(pair.context, CL_CONTEXT_BYTES_MOVED_UNICL, sizeof moved, &moved, nullptr);
  // The input to each device (two images); the read-back, on one of the
  // devices, brings the other piece's rows (whole rows, as many as the
  // models' shares gave it) through the host copy, out and in. Whole
  // images would be four.
  CHECK(moved > 2 * kImageBytes);
  CHECK(moved < 4 * kImageBytes);
  CHECK((moved - 2 * kImageBytes) % (2 * kWidth * 16) == 0);
}

namespace {

// The programs PoCL's kernel cache under `folder` holds: a folder per
// source and options, its compiled program in program.bc (each run of PoCL
// also leaves a temporary file beside them, which is not a program).
std::set<std::string> cached_programs(const std::string &folder) {
  std::set<std::string> out;
  std::error_code ignored;
  for (auto &f : std::filesystem::recursive_directory_iterator(folder, ignored))
    if (f.path().filename() == "program.bc") out.insert(f.path().string());
  return out;
}

}  // namespace

TEST_CASE("isolated: a program built on pthread", "[.]") {
  // A source of its own: no other test's build is in the cache.
  const char *source = R"CL(
__kernel void cached_twice(__global float *x) { x[get_global_id(0)] *= 17.25f; }
)CL";
  cl_device_id pthread = nullptr;
  for (auto &d : cltest::devices())
    if (cltest::device_name(d).find("pthread") != std::string::npos) pthread = d();
  REQUIRE(pthread);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &pthread, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program p = clCreateProgramWithSource(ctx, 1, &source, nullptr, &err);
  CHECK(clBuildProgram(p, 1, &pthread, "-cl-fast-relaxed-math", nullptr, nullptr) == CL_SUCCESS);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST_CASE("a program PoCL compiled and cached is not compiled again through UniCL", "[analysis]") {
  // PoCL keys its cache of compiled programs on the build options: UniCL
  // passes the application's own (its device-type macros go only to a
  // source that names them), so a build through it finds the direct one's.
  const char *vendors = std::getenv("UNICL_VENDORS");
  REQUIRE(vendors);
  cltest::TempDir cache;
  auto direct = cltest::run_hidden("isolated: a program built on pthread",
                                   {{"XDG_CACHE_HOME", cache.path()},
                                    {"OCL_ICD_VENDORS", std::string(vendors) + "/pocl.icd"},
                                    {"TEST_PLATFORM", std::string("Portable Computing Language")}},
                                   120);
  INFO(direct.out << direct.err);
  REQUIRE(direct.exit_code == 0);
  const auto cached = cached_programs(cache.path());
  REQUIRE_FALSE(cached.empty());
  auto through = cltest::run_hidden("isolated: a program built on pthread", {{"XDG_CACHE_HOME", cache.path()}}, 120);
  INFO(through.out << through.err);
  REQUIRE(through.exit_code == 0);
  CHECK(cached_programs(cache.path()) == cached);
}

TEST_CASE("a source that names UNICL_DEVICE_TYPE_ gets the device's type as a macro", "[analysis]") {
  Pair pair;
  const char *source = R"CL(
__kernel void which(__global int *out) {
#if defined(UNICL_DEVICE_TYPE_CPU)
  out[0] = 1;
#else
  out[0] = 2;
#endif
}
)CL";
  cl_int err = CL_SUCCESS;
  cl_program p = pair.program(source, err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem out = clCreateBuffer(pair.context, 0, sizeof(cl_int), nullptr, &err);
  cl_kernel k = clCreateKernel(p, "which", &err);
  clSetKernelArg(k, 0, sizeof out, &out);
  cl_int got = 0;
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(pair.on[0], k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(pair.on[0], out, CL_TRUE, 0, sizeof got, &got, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(got == 1);  // PoCL's devices are CPUs
  size_t size = 0;
  clGetProgramBuildInfo(p, pair.devices[0], CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size);
  std::string options(size, '\0');
  clGetProgramBuildInfo(p, pair.devices[0], CL_PROGRAM_BUILD_OPTIONS, size, options.data(), nullptr);
  CHECK(options.find("UNICL") == std::string::npos);  // the application's own options
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseProgram(p);
}
