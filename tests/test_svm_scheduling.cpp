// Shared virtual memory in a scheduling context of one vendor's devices
// (PoCL's pthread and basic): the devices share the vendor's SVM, kernels
// with SVM arguments and the SVM commands run on device queues and on
// device-less ones, where the policy places them on any device.
#include <algorithm>
#include <atomic>
#include <numeric>

#include "scheduling.hpp"
#include "svm_test.hpp"

namespace {

using cltest::svm_of;
using cltest::SvmInts;

unsigned device_version(const cl::Device &d) {
  unsigned major = 0, minor = 0;
  std::sscanf(d.getInfo<CL_DEVICE_VERSION>().c_str(), "OpenCL %u.%u", &major, &minor);
  return major * 100 + minor * 10;
}

// The test platform's devices with coarse-grained SVM, but oclgrind's.
std::vector<cl::Device> svm_devices() {
  std::vector<cl::Device> out;
  for (auto &d : cltest::devices())
    if (cltest::device_name(d).find("Oclgrind") == std::string::npos && device_version(d) >= 200 &&
        (svm_of(d()) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
      out.push_back(d);
  return out;
}

}  // namespace

TEST_CASE("svm: one vendor's devices share its SVM, on device queues and device-less ones", "[svm]") {
  std::vector<cl::Device> pocl = svm_devices();
  if (pocl.size() < 2) {
    WARN("fewer than two devices with SVM: skipped");
    return;
  }
  cl::Context ctx = cltest::scheduling_context(pocl, "round-robin");
  cl_int err = CL_SUCCESS;
  auto program = cltest::build(ctx, cltest::kSvmIncrement);
  SECTION("a queue per device") {
    for (auto &d : pocl) {
      cl::CommandQueue q(ctx, d);
      cltest::svm_round_trip(ctx(), q(), program(), 2);
    }
  }
  SECTION("a device-less queue: the policy places SVM commands and kernels on every device") {
    auto q = cl::CommandQueue(clCreateCommandQueueWithProperties(ctx(), nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    cltest::svm_round_trip(ctx(), q(), program(), 8);
    // Kernels with an SVM argument ran on more than one device.
    SvmInts svm(ctx(), 64);
    REQUIRE(svm.p != nullptr);
    const cl_int zero = 0;
    REQUIRE(clEnqueueSVMMemFill(q(), svm.p, &zero, sizeof zero, 64 * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    auto kernel = cl::Kernel(clCreateKernel(program(), "inc", &err));
    REQUIRE(clSetKernelArgSVMPointer(kernel(), 0, svm.p) == CL_SUCCESS);
    std::vector<cl_device_id> ran_on;
    const size_t n = 64;
    for (int i = 0; i < 4; ++i) {
      cl_event e = nullptr;
      REQUIRE(clEnqueueNDRangeKernel(q(), kernel(), 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS);
      REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
      cl_device_id on = nullptr;
      REQUIRE(clGetEventInfo(e, CL_EVENT_DEVICE_UNICL, sizeof on, &on, nullptr) == CL_SUCCESS);
      ran_on.push_back(on);
      clReleaseEvent(e);
    }
    std::sort(ran_on.begin(), ran_on.end());
    CHECK(std::unique(ran_on.begin(), ran_on.end()) - ran_on.begin() >= 2);
  }
}


TEST_CASE("svm: a buffer over SVM memory is that memory on every device", "[svm]") {
  std::vector<cl::Device> pocl = svm_devices();
  if (pocl.size() < 2) {
    WARN("fewer than two devices with SVM: skipped");
    return;
  }
  cl::Context ctx = cltest::scheduling_context(pocl, "heft");
  auto program = cltest::build(ctx, R"(
    // Each element pair: the address of the next pair, then the index.
    kernel void link(global long *b, int n) {
      int i = get_global_id(0);
      b[2 * i] = (long)&b[2 * ((i + 1) % n)];
      b[2 * i + 1] = i;
    }
    // Through the SVM pointer: the addresses stored through the buffer are
    // the SVM addresses, and they lead to the next index.
    kernel void check(global long *s, global int *out, int n) {
      int i = get_global_id(0);
      global long *next = (global long *)s[2 * i];
      out[i] = (next == &s[2 * ((i + 1) % n)]) && next[1] == (i + 1) % n;
    }
  )");
  constexpr cl_int n = 64;
  void *svm = clSVMAlloc(ctx(), CL_MEM_READ_WRITE, 2 * n * sizeof(cl_long), 0);
  REQUIRE(svm != nullptr);
  cl_int err = CL_SUCCESS;
  {
    auto over = cl::Buffer(clCreateBuffer(ctx(), CL_MEM_USE_HOST_PTR, 2 * n * sizeof(cl_long), svm, &err));
    REQUIRE(err == CL_SUCCESS);
    cl::CommandQueue first(ctx, pocl[0]), second(ctx, pocl[1]);
    cl::Kernel link(program, "link");
    link.setArg(0, over);
    link.setArg(1, n);
    first.enqueueNDRangeKernel(link, cl::NullRange, cl::NDRange(n));
    first.finish();
    cl::Buffer out(ctx, CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl::Kernel check(program, "check");
    REQUIRE(clSetKernelArgSVMPointer(check(), 0, svm) == CL_SUCCESS);
    check.setArg(1, out);
    check.setArg(2, n);
    second.enqueueNDRangeKernel(check, cl::NullRange, cl::NDRange(n));
    std::vector<cl_int> ok(n, 0);
    second.enqueueReadBuffer(out, CL_TRUE, 0, n * sizeof(cl_int), ok.data());
    CHECK(std::count(ok.begin(), ok.end(), 1) == n);
    // A map of it, on either device or a device-less queue, is the SVM memory.
    cl::CommandQueue anywhere = cltest::device_less_queue(ctx, 0);
    for (cl::CommandQueue *q : {&first, &second, &anywhere}) {
      void *at = q->enqueueMapBuffer(over, CL_TRUE, CL_MAP_READ, 8 * sizeof(cl_long), 2 * sizeof(cl_long));
      CHECK(at == static_cast<cl_long *>(svm) + 8);
      CHECK(static_cast<cl_long *>(at)[1] == 4);
      q->enqueueUnmapMemObject(over, at);
      q->finish();
    }
    // So is a sub-buffer of it.
    cl_buffer_region region{16 * sizeof(cl_long), 16 * sizeof(cl_long)};
    auto part = cl::Buffer(clCreateSubBuffer(over(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
    REQUIRE(err == CL_SUCCESS);
    std::vector<cl_long> read(16);
    anywhere.enqueueReadBuffer(part, CL_TRUE, 0, 16 * sizeof(cl_long), read.data());
    CHECK(read[1] == 8);
    CHECK(read[0] == reinterpret_cast<cl_long>(static_cast<cl_long *>(svm) + 18));
    cl_bool uses = CL_FALSE;
    REQUIRE(clGetMemObjectInfo(part(), CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
    CHECK(uses == CL_TRUE);
  }
  clSVMFree(ctx(), svm);
}
