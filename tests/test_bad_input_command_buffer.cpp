// Bad input to the cl_khr_command_buffer entry points, called through the
// addresses clGetExtensionFunctionAddressForPlatform gives, as applications
// call extension functions. Each case: a null, released or wrong handle,
// objects of another context, and (for creation) a queue of a context of
// two vendors, where UniCL makes no command buffers.
#include "bad_input_targets.hpp"

using namespace bad;

namespace {

template <class F>
F entry(const char *name) {
  return reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(world().platform(), name));
}

#define KHR(name) entry<name##_fn>(#name)

bool has_command_buffers() {
  return world().device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_command_buffer") != std::string::npos;
}

// A command buffer of the single-device target, released at scope exit.
struct Recording {
  cl_command_buffer_khr cb = nullptr;
  Recording() {
    cl_command_queue q = world().queue();
    cl_int err = CL_SUCCESS;
    cb = KHR(clCreateCommandBufferKHR)(1, &q, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~Recording() { KHR(clReleaseCommandBufferKHR)(cb); }
  Recording(const Recording &) = delete;
  Recording &operator=(const Recording &) = delete;
};

cl_command_buffer_khr dead_command_buffer() {
  Recording r;
  cl_command_buffer_khr cb = r.cb;
  return cb;  // released when `r` goes
}

// The handle checks every recording call shares: `call(command buffer)`.
void check_command_buffers(const std::function<cl_int(cl_command_buffer_khr)> &call) {
  CHECK(call(nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
  CHECK(call(as<cl_command_buffer_khr>(world().buffer())) == CL_INVALID_COMMAND_BUFFER_KHR);
  CHECK(call(dead_command_buffer()) == CL_INVALID_COMMAND_BUFFER_KHR);
}

}  // namespace

#define SKIP_WITHOUT_COMMAND_BUFFERS \
  if (!has_command_buffers()) {      \
    WARN("no cl_khr_command_buffer"); \
    return;                           \
  }

TEST_CASE("clCreateCommandBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto create = KHR(clCreateCommandBufferKHR);
  auto make = [&](cl_uint n, const cl_command_queue *qs) {
    cl_int err = kUnset;
    cl_command_buffer_khr cb = create(n, qs, nullptr, &err);
    if (cb) KHR(clReleaseCommandBufferKHR)(cb);
    if (err != CL_SUCCESS) CHECK(cb == nullptr);
    return err;
  };
  cl_command_queue q = world().queue();
  CHECK(make(0, &q) == CL_INVALID_VALUE);
  CHECK(make(1, nullptr) == CL_INVALID_VALUE);
  cl_command_queue two[] = {q, q};
  CHECK(make(2, two) == CL_INVALID_VALUE);
  cl_command_queue bad_queues[] = {nullptr, as<cl_command_queue>(world().buffer()), bad::dead_queue()};
  for (cl_command_queue b : bad_queues) CHECK(make(1, &b) == CL_INVALID_COMMAND_QUEUE);
  // A context of two vendors: its commands are placed as they run.
  cl_command_queue multi = targets()[1].queue();
  if (targets()[1].context.getInfo<CL_CONTEXT_NUM_DEVICES>() > 1) CHECK(make(1, &multi) == CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
  CHECK(make(1, &q) == CL_SUCCESS);
}

TEST_CASE("clFinalizeCommandBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  check_command_buffers([](cl_command_buffer_khr cb) { return KHR(clFinalizeCommandBufferKHR)(cb); });
  Recording r;
  CHECK(KHR(clFinalizeCommandBufferKHR)(r.cb) == CL_SUCCESS);
  CHECK(KHR(clFinalizeCommandBufferKHR)(r.cb) == CL_INVALID_OPERATION);  // already final
}

TEST_CASE("clRetainCommandBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  check_command_buffers([](cl_command_buffer_khr cb) { return KHR(clRetainCommandBufferKHR)(cb); });
}

TEST_CASE("clReleaseCommandBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  check_command_buffers([](cl_command_buffer_khr cb) { return KHR(clReleaseCommandBufferKHR)(cb); });
}

TEST_CASE("clEnqueueCommandBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto enqueue = KHR(clEnqueueCommandBufferKHR);
  check_command_buffers([&](cl_command_buffer_khr cb) { return enqueue(0, nullptr, cb, 0, nullptr, nullptr); });
  Recording r;
  CHECK(enqueue(0, nullptr, r.cb, 0, nullptr, nullptr) == CL_INVALID_OPERATION);  // not finalized
  REQUIRE(KHR(clFinalizeCommandBufferKHR)(r.cb) == CL_SUCCESS);
  cl_command_queue q = world().queue();
  CHECK(enqueue(1, nullptr, r.cb, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(enqueue(0, &q, r.cb, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  cl_command_queue dead = bad::dead_queue();
  CHECK(enqueue(1, &dead, r.cb, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  cl_command_queue other = world().other_queue();
  CHECK(enqueue(1, &other, r.cb, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  check_wait_lists(targets()[0], [&](cl_uint k, const cl_event *l) { return enqueue(0, nullptr, r.cb, k, l, nullptr); });
  CHECK(enqueue(0, nullptr, r.cb, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(q);
}

TEST_CASE("clCommandBarrierWithWaitListKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto barrier = KHR(clCommandBarrierWithWaitListKHR);
  check_command_buffers([&](cl_command_buffer_khr cb) { return barrier(cb, nullptr, 0, nullptr, nullptr, nullptr); });
  Recording r;
  CHECK(barrier(r.cb, bad::dead_queue(), 0, nullptr, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(barrier(r.cb, world().other_queue(), 0, nullptr, nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(barrier(r.cb, nullptr, 1, nullptr, nullptr, nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
}

TEST_CASE("clCommandCopyBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto copy = KHR(clCommandCopyBufferKHR);
  cl_mem b = world().buffer();
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return copy(cb, nullptr, b, b, 0, 64, 16, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) { return copy(r.cb, nullptr, m, b, 0, 64, 16, 0, nullptr, nullptr, nullptr); });
  check_buffers([&](cl_mem m) { return copy(r.cb, nullptr, b, m, 0, 64, 16, 0, nullptr, nullptr, nullptr); });
  CHECK(copy(r.cb, nullptr, b, b, 0, 8, 16, 0, nullptr, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
}

TEST_CASE("clCommandCopyBufferRectKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto copy = KHR(clCommandCopyBufferRectKHR);
  cl_mem b = world().buffer(), b2 = targets()[0].buffer2();
  size_t zero[3] = {0, 0, 0}, region[3] = {16, 1, 1};
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return copy(cb, nullptr, b, b2, zero, zero, region, 0, 0, 0, 0, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) {
    return copy(r.cb, nullptr, m, b2, zero, zero, region, 0, 0, 0, 0, 0, nullptr, nullptr, nullptr);
  });
  CHECK(copy(r.cb, nullptr, b, b2, zero, zero, nullptr, 0, 0, 0, 0, 0, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCommandCopyBufferToImageKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto copy = KHR(clCommandCopyBufferToImageKHR);
  cl_mem b = world().buffer(), img = world().image();
  size_t zero[3] = {0, 0, 0}, region[3] = {2, 2, 1};
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return copy(cb, nullptr, b, img, 0, zero, region, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) { return copy(r.cb, nullptr, m, img, 0, zero, region, 0, nullptr, nullptr, nullptr); });
}

TEST_CASE("clCommandCopyImageKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto copy = KHR(clCommandCopyImageKHR);
  cl_mem img = world().image();
  size_t zero[3] = {0, 0, 0}, at[3] = {4, 4, 0}, region[3] = {2, 2, 1};
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return copy(cb, nullptr, img, img, zero, at, region, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) { return copy(r.cb, nullptr, m, img, zero, at, region, 0, nullptr, nullptr, nullptr); });
}

TEST_CASE("clCommandCopyImageToBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto copy = KHR(clCommandCopyImageToBufferKHR);
  cl_mem b = world().buffer(), img = world().image();
  size_t zero[3] = {0, 0, 0}, region[3] = {2, 2, 1};
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return copy(cb, nullptr, img, b, zero, region, 0, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) { return copy(r.cb, nullptr, img, m, zero, region, 0, 0, nullptr, nullptr, nullptr); });
}

TEST_CASE("clCommandFillBufferKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto fill = KHR(clCommandFillBufferKHR);
  const cl_int pattern = 1;
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return fill(cb, nullptr, world().buffer(), &pattern, 4, 0, 16, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) { return fill(r.cb, nullptr, m, &pattern, 4, 0, 16, 0, nullptr, nullptr, nullptr); });
  CHECK(fill(r.cb, nullptr, world().buffer(), &pattern, 3, 0, 12, 0, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCommandFillImageKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto fill = KHR(clCommandFillImageKHR);
  const cl_float color[4] = {1, 2, 3, 4};
  size_t zero[3] = {0, 0, 0}, region[3] = {2, 2, 1};
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return fill(cb, nullptr, world().image(), color, zero, region, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  check_buffers([&](cl_mem m) { return fill(r.cb, nullptr, m, color, zero, region, 0, nullptr, nullptr, nullptr); });
}

TEST_CASE("clCommandNDRangeKernelKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto launch = KHR(clCommandNDRangeKernelKHR);
  const size_t global = 16;
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return launch(cb, nullptr, nullptr, world().kernel(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr);
  });
  Recording r;
  auto with = [&](cl_kernel k) {
    return launch(r.cb, nullptr, nullptr, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr);
  };
  CHECK(with(nullptr) == CL_INVALID_KERNEL);
  CHECK(with(as<cl_kernel>(world().buffer())) == CL_INVALID_KERNEL);
  CHECK(with(bad::dead_kernel()) == CL_INVALID_KERNEL);
  cl::Kernel foreign(cltest::build(world().other, kSource), "copy");
  CHECK(with(foreign()) == CL_INVALID_CONTEXT);
  CHECK(launch(r.cb, nullptr, nullptr, world().kernel(), 0, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_WORK_DIMENSION);
  CHECK(with(world().kernel()) == CL_SUCCESS);
}

TEST_CASE("clGetCommandBufferInfoKHR", "[bad_input]") {
  SKIP_WITHOUT_COMMAND_BUFFERS
  auto info = KHR(clGetCommandBufferInfoKHR);
  cl_uint n = 0;
  check_command_buffers([&](cl_command_buffer_khr cb) {
    return info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof n, &n, nullptr);
  });
  Recording r;
  CHECK(info(r.cb, 0x7fff, sizeof n, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(info(r.cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(info(r.cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof n, &n, nullptr) == CL_SUCCESS);
  CHECK(n == 1);
}
