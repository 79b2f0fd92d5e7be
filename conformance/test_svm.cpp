// Shared virtual memory: where the vendor offers it, a context of its
// devices hands out its allocations; kernels take SVM pointers, and the SVM
// commands copy, fill, map and free them. Runs against UniCL and the vendor
// directly ([svm]); contexts of several vendors are UniCL's ([multi]), and
// one vendor's devices sharing SVM under a policy are tests/test_svm_scheduling.cpp's.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "conformance.hpp"
#include "svm_test.hpp"

using namespace conformance;
using cltest::svm_of;
using cltest::SvmInts;

namespace {

struct FreeSeen {
  std::atomic<int> calls{0};
  cl_command_queue queue = nullptr;
  void *pointer = nullptr;
};

// Frees as an application's callback does, through the queue's context.
void CL_CALLBACK record_free(cl_command_queue q, cl_uint n, void **pointers, void *user_data) {
  auto *seen = static_cast<FreeSeen *>(user_data);
  seen->queue = q;
  seen->pointer = n == 1 ? pointers[0] : nullptr;
  cl_context ctx = nullptr;
  clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr);
  for (cl_uint i = 0; i < n; ++i) clSVMFree(ctx, pointers[i]);
  seen->calls.fetch_add(1);
}

}  // namespace

TEST_CASE("svm: allocations, kernels, copies, fills, maps and frees on the vendor's SVM", "[svm]") {
  auto d = cltest::test_device();
  if (device_version(d) < 200 || !(svm_of(d()) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
    WARN("the device offers no SVM: skipped");
    return;
  }
  cl::Context ctx(d);
  cl::CommandQueue q(ctx, d);
  auto program = build(ctx, cltest::kSvmIncrement);
  cltest::svm_round_trip(ctx(), q(), program(), 3);

  // A buffer over SVM memory says so; another does not.
  SvmInts svm(ctx(), 16);
  REQUIRE(svm.p != nullptr);
  cl_int err = CL_SUCCESS;
  auto over = adopt<cl::Buffer>(clCreateBuffer(ctx(), CL_MEM_USE_HOST_PTR, 16 * sizeof(cl_int), svm.p, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  cl_bool uses = CL_FALSE;
  REQUIRE_CL(clGetMemObjectInfo(over(), CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr), CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  cl::Buffer plain(ctx, CL_MEM_READ_WRITE, 64);
  REQUIRE_CL(clGetMemObjectInfo(plain(), CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr), CL_SUCCESS);
  CHECK(uses == CL_FALSE);

  // clEnqueueSVMFree calls back with the application's queue and pointers.
  void *freed = clSVMAlloc(ctx(), CL_MEM_READ_WRITE, 256, 0);
  REQUIRE(freed != nullptr);
  FreeSeen seen;
  cl_event done = nullptr;
  REQUIRE_CL(clEnqueueSVMFree(q(), 1, &freed, record_free, &seen, 0, nullptr, &done), CL_SUCCESS);
  REQUIRE_CL(clWaitForEvents(1, &done), CL_SUCCESS);
  cl_command_type type = 0;
  REQUIRE_CL(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  CHECK(type == CL_COMMAND_SVM_FREE);
  clReleaseEvent(done);
  CHECK(seen.calls.load() == 1);
  CHECK(seen.queue == q());
  CHECK(seen.pointer == freed);
}

TEST_CASE("svm: a context of several vendors offers none", "[multi][svm]") {
  auto devices = cltest::devices();
  std::vector<cl_device_id> ids;
  for (auto &d : devices) ids.push_back(d());
  bool mixed = std::any_of(devices.begin(), devices.end(),
                           [](const cl::Device &d) { return cltest::device_name(d).find("Oclgrind") != std::string::npos; });
  if (!mixed || ids.size() < 2) {
    WARN("no second vendor: skipped");
    return;
  }
  cl_int err = CL_SUCCESS;
  auto ctx = adopt<cl::Context>(clCreateContext(nullptr, static_cast<cl_uint>(ids.size()), ids.data(), nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(clSVMAlloc(ctx(), CL_MEM_READ_WRITE, 256, 0) == nullptr);
  cl::CommandQueue q(ctx, devices.front());
  cl_int host[4] = {};
  CHECK_CL(clEnqueueSVMMemcpy(q(), CL_TRUE, host, host + 2, 2 * sizeof(cl_int), 0, nullptr, nullptr),
           CL_INVALID_OPERATION);
  auto program = build(ctx, cltest::kSvmIncrement);
  cl::Kernel kernel(program, "inc");
  CHECK_CL(clSetKernelArgSVMPointer(kernel(), 0, host), CL_INVALID_OPERATION);
}
