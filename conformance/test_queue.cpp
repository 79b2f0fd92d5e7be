// Command queues: creation with properties, info, flush/finish, ordering.
#include <chrono>
#include <thread>

#include "conformance.hpp"

using namespace conformance;

namespace {

template <class T>
T queue_scalar(cl_command_queue q, cl_command_queue_info param) {
  T v{};
  REQUIRE_CL(clGetCommandQueueInfo(q, param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

bool out_of_order_supported(const cl::Device &d) {
  return (d.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

}  // namespace

TEST_CASE("queue: an in-order queue reports its context and device", "[queue][oclgrind]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_int err;
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx(), dev(), 0, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(queue_scalar<cl_context>(q(), CL_QUEUE_CONTEXT) == ctx());
  CHECK(queue_scalar<cl_device_id>(q(), CL_QUEUE_DEVICE) == dev());
  CHECK(queue_scalar<cl_uint>(q(), CL_QUEUE_REFERENCE_COUNT) == 1);
  CHECK(queue_scalar<cl_command_queue_properties>(q(), CL_QUEUE_PROPERTIES) == 0);
}

TEST_CASE("queue: profiling property round trip", "[queue][oclgrind]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_int err;
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx(), dev(), CL_QUEUE_PROFILING_ENABLE, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(queue_scalar<cl_command_queue_properties>(q(), CL_QUEUE_PROPERTIES) == CL_QUEUE_PROFILING_ENABLE);
}

TEST_CASE("queue: out-of-order mode is given or refused as the device reports", "[queue]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_int err;
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx(), dev(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err));
  if (out_of_order_supported(dev)) {
    REQUIRE_CL(err, CL_SUCCESS);
    CHECK(queue_scalar<cl_command_queue_properties>(q(), CL_QUEUE_PROPERTIES) ==
          CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  } else {
    CHECK_CL(err, CL_INVALID_QUEUE_PROPERTIES);
    CHECK(q() == nullptr);
  }
}

TEST_CASE("queue: properties list round trip", "[queue]") {
  if (platform_version() < 300) return;
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int err;
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueueWithProperties(ctx(), dev(), props, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(queue_scalar<cl_command_queue_properties>(q(), CL_QUEUE_PROPERTIES) == CL_QUEUE_PROFILING_ENABLE);
  size_t n = 0;
  REQUIRE_CL(clGetCommandQueueInfo(q(), CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &n), CL_SUCCESS);
  REQUIRE(n == sizeof props);
  cl_queue_properties back[3] = {};
  REQUIRE_CL(clGetCommandQueueInfo(q(), CL_QUEUE_PROPERTIES_ARRAY, n, back, nullptr), CL_SUCCESS);
  CHECK(back[0] == props[0]);
  CHECK(back[1] == props[1]);
  CHECK(back[2] == 0);
}

TEST_CASE("queue: no properties list gives an empty array", "[queue]") {
  if (platform_version() < 300) return;
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_int err;
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueueWithProperties(ctx(), dev(), nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  size_t n = 99;
  REQUIRE_CL(clGetCommandQueueInfo(q(), CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == 0);
}

TEST_CASE("queue: creation errors", "[queue][errors]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_int err = CL_SUCCESS;
  SECTION("unknown property bits") {
    auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx(), dev(), cl_command_queue_properties{1} << 20, &err));
    CHECK(q() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("null device") {
    // A vendor refuses it; UniCL makes a device-less queue (cl_ext_unicl.h).
    auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx(), nullptr, 0, &err));
    if (cltest::testing_unicl()) {
      CHECK(q() != nullptr);
      CHECK_CL(err, CL_SUCCESS);
    } else {
      CHECK(q() == nullptr);
      CHECK_CL(err, CL_INVALID_DEVICE);
    }
  }
  SECTION("null context") {
    auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(nullptr, dev(), 0, &err));
    CHECK(q() == nullptr);
    CHECK_CL(err, CL_INVALID_CONTEXT);
  }
}

TEST_CASE("queue: a device outside the context is CL_INVALID_DEVICE", "[queue][errors]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl::Device other = other_device(dev);
  if (!other()) return;
  cl_int err;
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx(), other(), 0, &err));
  CHECK(q() == nullptr);
  CHECK_CL(err, CL_INVALID_DEVICE);
}

TEST_CASE("queue: properties list errors", "[queue][errors]") {
  if (platform_version() < 300) return;
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl_int err;
  cl_queue_properties unknown[] = {0x7fff, 0, 0};
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueueWithProperties(ctx(), dev(), unknown, &err));
  CHECK(q() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

TEST_CASE("queue: flush and finish succeed on an empty queue", "[queue][oclgrind]") {
  Env env;
  CHECK_CL(clFlush(env.queue()), CL_SUCCESS);
  CHECK_CL(clFinish(env.queue()), CL_SUCCESS);
  CHECK_CL(clFlush(nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clFinish(nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("queue: retain and release count references", "[queue][oclgrind]") {
  Env env;
  cl_command_queue q = env.queue();
  REQUIRE_CL(clRetainCommandQueue(q), CL_SUCCESS);
  CHECK(queue_scalar<cl_uint>(q, CL_QUEUE_REFERENCE_COUNT) == 2);
  REQUIRE_CL(clReleaseCommandQueue(q), CL_SUCCESS);
  CHECK(queue_scalar<cl_uint>(q, CL_QUEUE_REFERENCE_COUNT) == 1);
}

TEST_CASE("queue: an in-order queue runs commands in order", "[queue][oclgrind]") {
  Env env;
  const size_t n = 256;
  auto data = iota_ints(n, 3);
  cl::Buffer a(env.context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  std::vector<cl_int> out(n, 0);
  // No events: the queue's order alone makes each command see the last.
  env.queue.enqueueWriteBuffer(a, CL_FALSE, 0, n * sizeof(cl_int), data.data());
  env.queue.enqueueCopyBuffer(a, b, 0, 0, n * sizeof(cl_int));
  env.queue.enqueueReadBuffer(b, CL_FALSE, 0, n * sizeof(cl_int), out.data());
  env.queue.finish();
  CHECK(out == data);
}

TEST_CASE("queue: finish completes every enqueued command", "[queue]") {
  Env env;
  cl::Buffer a(env.context, CL_MEM_READ_WRITE, 1024);
  std::vector<char> host(1024, 1);
  std::vector<cl::Event> events(8);
  for (auto &e : events) env.queue.enqueueWriteBuffer(a, CL_FALSE, 0, host.size(), host.data(), nullptr, &e);
  env.queue.finish();
  for (auto &e : events) CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
}

TEST_CASE("queue: two queues of one device share a buffer", "[queue]") {
  Env env;
  cl::CommandQueue second(env.context, env.device);
  cl::Buffer a(env.context, CL_MEM_READ_WRITE, sizeof(cl_int));
  cl_int v = 77, back = 0;
  env.queue.enqueueWriteBuffer(a, CL_TRUE, 0, sizeof v, &v);
  second.enqueueReadBuffer(a, CL_TRUE, 0, sizeof back, &back);
  CHECK(back == 77);
}

TEST_CASE("queue: info errors", "[queue][errors][oclgrind]") {
  Env env;
  cl_uint n = 0;
  CHECK_CL(clGetCommandQueueInfo(env.queue(), 0x7fffu, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetCommandQueueInfo(env.queue(), CL_QUEUE_REFERENCE_COUNT, 1, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetCommandQueueInfo(nullptr, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("queue: a queue keeps its context alive", "[queue]") {
  cl::Device dev = cltest::test_device();
  cl_device_id d = dev();
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  auto q = adopt<cl::CommandQueue>(clCreateCommandQueue(ctx, d, 0, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE_CL(clReleaseContext(ctx), CL_SUCCESS);
  CHECK(queue_scalar<cl_context>(q(), CL_QUEUE_CONTEXT) == ctx);
  cl_uint refs = 0;
  REQUIRE_CL(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr), CL_SUCCESS);
  CHECK(refs >= 1);
  CHECK_CL(clFinish(q()), CL_SUCCESS);
}

// Every release flushes (not only the last): a command's event keeps its
// queue alive, so a queue released with a kernel pending is not destroyed,
// and a vendor that runs commands only when flushed (oclgrind) would
// otherwise never run it.
TEST_CASE("queue: releasing a queue flushes it while its events still hold it", "[queue][oclgrind]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  cl::Program p = build(ctx, "kernel void one(global int *x) { x[get_global_id(0)] = 1; }");
  cl_int err;
  cl::Buffer buf(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  cl::Kernel k(p, "one");
  k.setArg(0, buf);
  cl_command_queue q = clCreateCommandQueue(ctx(), dev(), 0, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  size_t global = 64;
  cl_event done = nullptr;
  REQUIRE_CL(clEnqueueNDRangeKernel(q, k(), 1, nullptr, &global, nullptr, 0, nullptr, &done), CL_SUCCESS);
  REQUIRE_CL(clReleaseCommandQueue(q), CL_SUCCESS);
  // Poll without waiting: a wait would flush the queue itself.
  cl_int status = CL_QUEUED;
  for (int i = 0; i < 500 && status != CL_COMPLETE; ++i) {
    REQUIRE_CL(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
    if (status != CL_COMPLETE) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(status == CL_COMPLETE);
  clReleaseEvent(done);
}
