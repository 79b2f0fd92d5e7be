// The composite device (UNICL_COMPOSITE, set by meson per run): the
// platform lists one device; a plain single-device program runs on it as on
// any device (queues in and out of order, profiling, callbacks, maps,
// images, binaries it caches and rebuilds from) while its commands run on
// the members, its launches split across them. Run over PoCL's two devices
// ("[composite]"), over them and oclgrind ("[composite-oclgrind]": no SVM
// across vendors), and with a node's devices ("[composite-node]").
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <sstream>
#include <thread>
#include <string>
#include <vector>

#include "CL/cl_ext_unicl.h"
#include "cl_test.hpp"

namespace {

const char *kSource = R"CL(
__kernel void scale(__global const float *in, __global float *out, float a) {
  size_t i = get_global_id(0);
  out[i] = a * in[i];
}
)CL";

cl_device_id the_device() {
  auto all = cltest::devices();
  REQUIRE(all.size() == 1);
  return all[0]();
}

std::string text(cl_device_id d, cl_device_info param) {
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, param, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetDeviceInfo(d, param, n, s.data(), nullptr) == CL_SUCCESS);
  s.resize(std::strlen(s.c_str()));
  return s;
}

template <class T>
T value(cl_device_id d, cl_device_info param) {
  T v{};
  REQUIRE(clGetDeviceInfo(d, param, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

// A plain program's objects: a context of the one device, a queue of it,
// the scaling kernel built, two buffers of n floats.
struct Plain {
  cl_device_id device = the_device();
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_mem in = nullptr, out = nullptr;
  size_t n;
  explicit Plain(size_t count = 4096, cl_command_queue_properties props = CL_QUEUE_PROFILING_ENABLE) : n(count) {
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    queue = clCreateCommandQueueWithProperties(context, device, list, &err);
    REQUIRE(err == CL_SUCCESS);
    program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    REQUIRE(clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr) == CL_SUCCESS);
    // Launches made before the analysis of the kernel ends run whole.
    size_t size = 0;
    REQUIRE(clGetProgramInfo(program, CL_PROGRAM_ANALYSIS_UNICL, 0, nullptr, &size) == CL_SUCCESS);
    make_kernel();
  }
  void make_kernel() {
    cl_int err = CL_SUCCESS;
    std::vector<float> data(n);
    std::iota(data.begin(), data.end(), 1.0f);
    kernel = clCreateKernel(program, "scale", &err);
    REQUIRE(err == CL_SUCCESS);
    in = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * 4, data.data(), &err);
    out = clCreateBuffer(context, 0, n * 4, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    float a = 3;
    clSetKernelArg(kernel, 0, sizeof in, &in);
    clSetKernelArg(kernel, 1, sizeof out, &out);
    clSetKernelArg(kernel, 2, sizeof a, &a);
  }
  // Launches the kernel over every element; its event.
  cl_event launch() {
    cl_event e = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS);
    return e;
  }
  bool results_right() {
    std::vector<float> got(n);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * 4, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    for (size_t i = 0; i < n; ++i)
      if (got[i] != 3.0f * static_cast<float>(i + 1)) return false;
    return true;
  }
  ~Plain() {
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
};

// The devices a launch's pieces ran on: the composite's members.
std::vector<cl_device_id> devices_of(cl_event e) {
  size_t n = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_DEVICES_UNICL, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_device_id> out(n / sizeof(cl_device_id));
  REQUIRE(clGetEventInfo(e, CL_EVENT_DEVICES_UNICL, n, out.data(), nullptr) == CL_SUCCESS);
  return out;
}

// The members, from a launch split over all of them (the factor is forced
// by meson's UNICL_DIVIDE_FACTOR).
// Performance models of this process's own, empty at its start: the first
// launch (members()) cuts equal shares, a piece on each member.
const bool fresh_models = cltest::use_fresh_models("composite");

std::vector<cl_device_id> members() {
  REQUIRE(fresh_models);
  Plain p;
  cl_event e = p.launch();
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  auto out = devices_of(e);
  clReleaseEvent(e);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void check_plain_program() {
  Plain p;
  for (int i = 0; i < 3; ++i) {
    cl_event e = p.launch();
    REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
    cl_uint factor = 0;
    clGetEventInfo(e, CL_EVENT_DIVIDE_FACTOR_UNICL, sizeof factor, &factor, nullptr);
    CHECK(factor > 0);
    CHECK(devices_of(e).size() >= 2);
    cl_ulong start = 0, end = 0;
    REQUIRE(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
    CHECK(start <= end);
    clReleaseEvent(e);
  }
  CHECK(p.results_right());
}

}  // namespace

TEST_CASE("the platform lists one composite device, made of its members", "[composite][composite-oclgrind]") {
  cl_device_id d = the_device();
  CHECK_THAT(text(d, CL_DEVICE_NAME), Catch::StartsWith("UniCL composite of"));
  CHECK(value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_DEFAULT);
  auto parts = members();
  REQUIRE(parts.size() >= 2);
  cl_uint units = 0;
  size_t group = SIZE_MAX;
  cl_ulong memory = ~cl_ulong{0};
  cl_device_type types = 0;
  for (cl_device_id m : parts) {
    CHECK_THAT(text(d, CL_DEVICE_NAME), Catch::Contains(text(m, CL_DEVICE_NAME)));
    units += value<cl_uint>(m, CL_DEVICE_MAX_COMPUTE_UNITS);
    group = std::min(group, value<size_t>(m, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    memory = std::min(memory, value<cl_ulong>(m, CL_DEVICE_GLOBAL_MEM_SIZE));
    types |= value<cl_device_type>(m, CL_DEVICE_TYPE);
    // Every extension of the composite is every member's.
    std::string member_extensions = " " + text(m, CL_DEVICE_EXTENSIONS) + " ";
    std::istringstream in(text(d, CL_DEVICE_EXTENSIONS));
    for (std::string ext; in >> ext;) CHECK_THAT(member_extensions, Catch::Contains(" " + ext + " "));
  }
  CHECK(value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS) == units);
  CHECK(value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE) == group);
  CHECK(value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE) == memory);
  CHECK((value<cl_device_type>(d, CL_DEVICE_TYPE) & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT}) ==
        (types & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT}));
}

TEST_CASE("the composite answers every device query or refuses it with CL_INVALID_VALUE",
          "[composite][composite-oclgrind]") {
  cl_device_id d = the_device();
  // Every cl_device_info of the 3.0 headers and the Khronos extensions'
  // ranges, and some that are none.
  std::vector<cl_device_info> params;
  for (cl_device_info p = 0x1000; p <= 0x1080; ++p) params.push_back(p);
  for (cl_device_info p = 0x4000; p <= 0x4200; ++p) params.push_back(p);
  params.insert(params.end(), {CL_DEVICE_NODE_UNICL, CL_DEVICE_NODE_HOST_UNICL, CL_DEVICE_NODE_LINK_UNICL,
                               CL_DEVICE_NODE_LINKS_UNICL, CL_DEVICE_NODE_TOPOLOGY_UNICL, 0, 0xFFFFFFFF});
  const cl_device_info required[] = {CL_DEVICE_TYPE, CL_DEVICE_NAME, CL_DEVICE_VERSION, CL_DEVICE_EXTENSIONS,
                                     CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_QUEUE_PROPERTIES, CL_DEVICE_PLATFORM,
                                     CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_SVM_CAPABILITIES,
                                     CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_LOCAL_MEM_SIZE};
  for (cl_device_info p : params) {
    INFO("param_name 0x" << std::hex << p);
    size_t n = 0;
    cl_int err = clGetDeviceInfo(d, p, 0, nullptr, &n);
    CHECK((err == CL_SUCCESS || err == CL_INVALID_VALUE));
    if (std::find(std::begin(required), std::end(required), p) != std::end(required)) CHECK(err == CL_SUCCESS);
    if (err != CL_SUCCESS) continue;
    std::vector<char> buffer(n + 1);
    CHECK(clGetDeviceInfo(d, p, n, buffer.data(), nullptr) == CL_SUCCESS);
    if (n > 0) CHECK(clGetDeviceInfo(d, p, n - 1, buffer.data(), nullptr) == CL_INVALID_VALUE);  // too small
  }
}

TEST_CASE("a plain single-device program runs on the composite, its launches split", "[composite][composite-oclgrind]") {
  check_plain_program();
}

TEST_CASE("the composite's queues: the device they were made for, in or out of order", "[composite]") {
  Plain in_order;
  cl_device_id device = nullptr;
  REQUIRE(clGetCommandQueueInfo(in_order.queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) == CL_SUCCESS);
  CHECK(device == in_order.device);
  cl_uint count = 0;
  REQUIRE(clGetContextInfo(in_order.context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr) == CL_SUCCESS);
  CHECK(count == 1);
  // In order: each launch follows the one before (the next doubles what the
  // first wrote, in place).
  cl_event first = in_order.launch();
  float two = 2;
  clSetKernelArg(in_order.kernel, 0, sizeof in_order.out, &in_order.out);
  clSetKernelArg(in_order.kernel, 2, sizeof two, &two);
  cl_event second = in_order.launch();
  std::vector<float> got(in_order.n);
  REQUIRE(clEnqueueReadBuffer(in_order.queue, in_order.out, CL_TRUE, 0, got.size() * 4, got.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  bool doubled = true;
  for (size_t i = 0; i < got.size(); ++i) doubled = doubled && got[i] == 6.0f * static_cast<float>(i + 1);
  CHECK(doubled);
  clReleaseEvent(first);
  clReleaseEvent(second);

  Plain out_of_order(4096, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl_event e = out_of_order.launch();
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  clReleaseEvent(e);
  CHECK(out_of_order.results_right());
}

TEST_CASE("the composite's programs: one device, one build log, one binary to rebuild from", "[composite]") {
  Plain p;
  cl_uint count = 0;
  cl_device_id device = nullptr;
  REQUIRE(clGetProgramInfo(p.program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr) == CL_SUCCESS);
  REQUIRE(clGetProgramInfo(p.program, CL_PROGRAM_DEVICES, sizeof device, &device, nullptr) == CL_SUCCESS);
  CHECK(count == 1);
  CHECK(device == p.device);
  cl_build_status status = CL_BUILD_NONE;
  REQUIRE(clGetProgramBuildInfo(p.program, p.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
          CL_SUCCESS);
  CHECK(status == CL_BUILD_SUCCESS);
  size_t group = 0;
  CHECK(clGetKernelWorkGroupInfo(p.kernel, p.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, nullptr) ==
        CL_SUCCESS);
  CHECK(group > 0);
  CHECK(clGetKernelWorkGroupInfo(p.kernel, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, nullptr) ==
        CL_SUCCESS);

  // As programs that cache their kernels do: the binary, then a program
  // made from it.
  size_t size = 0;
  REQUIRE(clGetProgramInfo(p.program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char *where = binary.data();
  REQUIRE(clGetProgramInfo(p.program, CL_PROGRAM_BINARIES, sizeof where, &where, nullptr) == CL_SUCCESS);
  const unsigned char *given = binary.data();
  cl_int binary_status = CL_INVALID_VALUE, err = CL_SUCCESS;
  cl_program rebuilt = clCreateProgramWithBinary(p.context, 1, &p.device, &size, &given, &binary_status, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(binary_status == CL_SUCCESS);
  REQUIRE(clBuildProgram(rebuilt, 1, &p.device, nullptr, nullptr, nullptr) == CL_SUCCESS);
  clReleaseKernel(p.kernel);
  clReleaseMemObject(p.in);
  clReleaseMemObject(p.out);
  std::swap(rebuilt, p.program);
  p.make_kernel();
  cl_event e = p.launch();
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  clReleaseEvent(e);
  CHECK(p.results_right());
  clReleaseProgram(rebuilt);

  // A binary that is not the composite's: refused, with its status.
  binary[3] ^= 0xff;
  given = binary.data();
  cl_program bad = clCreateProgramWithBinary(p.context, 1, &p.device, &size, &given, &binary_status, &err);
  CHECK(bad == nullptr);
  CHECK(err == CL_INVALID_BINARY);
  CHECK(binary_status == CL_INVALID_BINARY);
}

TEST_CASE("the composite's events, callbacks, user events and maps work as on any device", "[composite]") {
  Plain p;
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(p.context, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event e = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(p.queue, p.kernel, 1, nullptr, &p.n, nullptr, 1, &gate, &e) == CL_SUCCESS);
  static std::atomic<int> called{0};
  called = 0;
  REQUIRE(clSetEventCallback(e, CL_COMPLETE, [](cl_event, cl_int, void *) { ++called; }, nullptr) == CL_SUCCESS);
  cl_int status = CL_COMPLETE;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  CHECK(status > CL_COMPLETE);  // waits for the user event
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  REQUIRE(clFinish(p.queue) == CL_SUCCESS);
  for (int i = 0; i < 1000 && called == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(called == 1);
  auto *mapped = static_cast<float *>(
      clEnqueueMapBuffer(p.queue, p.out, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, p.n * 4, 0, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(mapped[p.n - 1] == 3.0f * static_cast<float>(p.n));
  mapped[0] = -1;
  REQUIRE(clEnqueueUnmapMemObject(p.queue, p.out, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
  float first = 0;
  REQUIRE(clEnqueueReadBuffer(p.queue, p.out, CL_TRUE, 0, 4, &first, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(first == -1);
  clReleaseEvent(e);
  clReleaseEvent(gate);
}

TEST_CASE("the composite's images are written and read back", "[composite]") {
  Plain p;
  if (!value<cl_bool>(p.device, CL_DEVICE_IMAGE_SUPPORT)) return;
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 16;
  desc.image_height = 8;
  cl_int err = CL_SUCCESS;
  cl_mem image = clCreateImage(p.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<unsigned char> pixels(16 * 8 * 4), back(pixels.size());
  std::iota(pixels.begin(), pixels.end(), 0);
  const size_t origin[3] = {0, 0, 0}, region[3] = {16, 8, 1};
  REQUIRE(clEnqueueWriteImage(p.queue, image, CL_TRUE, origin, region, 0, 0, pixels.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(p.queue, image, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(back == pixels);
  clReleaseMemObject(image);
}

TEST_CASE("the composite cannot be partitioned", "[composite][composite-oclgrind]") {
  cl_device_id d = the_device();
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint n = 0;
  CHECK(clCreateSubDevices(d, equally, 0, nullptr, &n) == CL_INVALID_VALUE);
  CHECK(value<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0);
}

TEST_CASE("a composite over several vendors offers no shared virtual memory", "[composite-oclgrind]") {
  Plain p;
  CHECK(value<cl_device_svm_capabilities>(p.device, CL_DEVICE_SVM_CAPABILITIES) == 0);
  CHECK(clSVMAlloc(p.context, CL_MEM_READ_WRITE, 1024, 0) == nullptr);
}

TEST_CASE("a composite of one vendor's devices offers that vendor's shared virtual memory", "[composite]") {
  Plain p;
  auto svm = value<cl_device_svm_capabilities>(p.device, CL_DEVICE_SVM_CAPABILITIES);
  if (!svm) return;  // the vendor offers none
  void *memory = clSVMAlloc(p.context, CL_MEM_READ_WRITE, 1024, 0);
  CHECK(memory != nullptr);
  clSVMFree(p.context, memory);
}

TEST_CASE("a composite spans a node's devices", "[composite-node]") {
  auto parts = members();
  bool remote = false;
  for (cl_device_id m : parts) remote = remote || value<cl_uint>(m, CL_DEVICE_NODE_UNICL) != 0;
  CHECK(remote);
  check_plain_program();
}
