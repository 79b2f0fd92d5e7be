// Command buffers (cl_khr_command_buffer) on a context of one device, where
// the vendor has them: commands recorded once run at each enqueue, in order,
// with the kernel arguments they were recorded with. Runs against UniCL and
// the vendor directly.
#include "conformance.hpp"

using namespace conformance;

namespace {

template <class F>
F entry(const cl::Device &d, const char *name) {
  cl_platform_id p = d.getInfo<CL_DEVICE_PLATFORM>();
  return reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(p, name));
}
#define KHR(d, name) entry<name##_fn>(d, #name)

// Records fill (3), add (5) and copy out, then runs them twice. With
// `strict`, also what the extension says and PoCL does not do: the add keeps
// the argument it was recorded with when the application sets another
// afterwards, and the command buffer names the application's queue.
void record_and_run(bool strict) {
  auto d = cltest::test_device();
  if (d.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_command_buffer") == std::string::npos) {
    WARN("the device has no cl_khr_command_buffer: skipped");
    return;
  }
  cl::Context ctx(d);
  cl::CommandQueue q(ctx, d);
  auto program = build(ctx, "kernel void add(global int *a, int v) { a[get_global_id(0)] += v; }");
  constexpr size_t n = 64;
  cl::Buffer work(ctx, CL_MEM_READ_WRITE, n * sizeof(cl_int)), out(ctx, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl::Kernel add(program, "add");
  add.setArg(0, work);
  add.setArg(1, 5);

  cl_command_queue raw_q = q();
  cl_int err = CL_SUCCESS;
  cl_command_buffer_khr cb = KHR(d, clCreateCommandBufferKHR)(1, &raw_q, nullptr, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  const cl_int three = 3;
  cl_sync_point_khr filled = 0, added = 0;
  REQUIRE_CL(KHR(d, clCommandFillBufferKHR)(cb, nullptr, work(), &three, sizeof three, 0, n * sizeof(cl_int), 0,
                                            nullptr, &filled, nullptr),
             CL_SUCCESS);
  REQUIRE_CL(KHR(d, clCommandNDRangeKernelKHR)(cb, nullptr, nullptr, add(), 1, nullptr, &n, nullptr, 1, &filled,
                                               &added, nullptr),
             CL_SUCCESS);
  if (strict) add.setArg(1, 100);  // after recording: the recorded launch keeps 5
  REQUIRE_CL(KHR(d, clCommandCopyBufferKHR)(cb, nullptr, work(), out(), 0, 0, n * sizeof(cl_int), 1, &added, nullptr,
                                            nullptr),
             CL_SUCCESS);
  cl_command_buffer_state_khr state = CL_COMMAND_BUFFER_STATE_INVALID_KHR;
  auto info = KHR(d, clGetCommandBufferInfoKHR);
  REQUIRE_CL(info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, nullptr), CL_SUCCESS);
  CHECK(state == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
  REQUIRE_CL(KHR(d, clFinalizeCommandBufferKHR)(cb), CL_SUCCESS);
  REQUIRE_CL(info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, nullptr), CL_SUCCESS);
  CHECK(state == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  cl_command_queue recorded_for = nullptr;
  REQUIRE_CL(info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof recorded_for, &recorded_for, nullptr), CL_SUCCESS);
  if (strict) CHECK(recorded_for == q());
  cl_uint refs = 0;
  REQUIRE_CL(info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof refs, &refs, nullptr), CL_SUCCESS);
  CHECK(refs == 1);

  for (int run = 0; run < 2; ++run) {
    cl_event done = nullptr;
    REQUIRE_CL(KHR(d, clEnqueueCommandBufferKHR)(0, nullptr, cb, 0, nullptr, &done), CL_SUCCESS);
    cl_command_type type = 0;
    REQUIRE_CL(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
    CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
    REQUIRE_CL(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    std::vector<cl_int> host(n, -1);
    q.enqueueReadBuffer(out, CL_TRUE, 0, n * sizeof(cl_int), host.data());
    for (cl_int v : host) CHECK(v == 8);
  }
  REQUIRE_CL(KHR(d, clReleaseCommandBufferKHR)(cb), CL_SUCCESS);
}

}  // namespace

TEST_CASE("command buffer: recorded once, run at each enqueue", "[command_buffer]") { record_and_run(false); }

TEST_CASE("command buffer: a launch keeps the arguments it was recorded with", "[command_buffer][unicl]") {
  record_and_run(true);
}
