// Profiling: command timestamps on queues with CL_QUEUE_PROFILING_ENABLE.
#include "conformance.hpp"

using namespace conformance;

namespace {

struct Times {
  cl_ulong queued, submit, start, end;
};

Times times_of(cl_event e) {
  Times t{};
  REQUIRE_CL(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof t.queued, &t.queued, nullptr), CL_SUCCESS);
  REQUIRE_CL(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_SUBMIT, sizeof t.submit, &t.submit, nullptr), CL_SUCCESS);
  REQUIRE_CL(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t.start, &t.start, nullptr), CL_SUCCESS);
  REQUIRE_CL(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t.end, &t.end, nullptr), CL_SUCCESS);
  return t;
}

void check_ordered(const Times &t) {
  CHECK(t.queued <= t.submit);
  CHECK(t.submit <= t.start);
  CHECK(t.start <= t.end);
  CHECK(t.queued > 0);
}

}  // namespace

TEST_CASE("profiling: timestamps of a transfer are ordered", "[profiling][oclgrind]") {
  Env env(CL_QUEUE_PROFILING_ENABLE);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 4096);
  std::vector<char> host(4096, 1);
  cl::Event write;
  env.queue.enqueueWriteBuffer(b, CL_TRUE, 0, host.size(), host.data(), nullptr, &write);
  check_ordered(times_of(write()));
}

TEST_CASE("profiling: timestamps of a kernel are ordered", "[profiling][oclgrind]") {
  Env env(CL_QUEUE_PROFILING_ENABLE);
  auto p = build(env.context, "kernel void k(global int *a) { a[get_global_id(0)] = 1; }");
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  cl::Kernel k(p, "k");
  k.setArg(0, b);
  cl::Event run;
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(64), cl::NullRange, nullptr, &run);
  run.wait();
  check_ordered(times_of(run()));
}

TEST_CASE("profiling: commands of an in-order queue follow each other", "[profiling]") {
  Env env(CL_QUEUE_PROFILING_ENABLE);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 1 << 16);
  std::vector<char> host(1 << 16, 2);
  cl::Event first, second;
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, host.size(), host.data(), nullptr, &first);
  env.queue.enqueueReadBuffer(b, CL_FALSE, 0, host.size(), host.data(), nullptr, &second);
  env.queue.finish();
  auto a = times_of(first()), c = times_of(second());
  CHECK(a.end <= c.start);
  CHECK(a.queued <= c.queued);
}

TEST_CASE("profiling: the complete timestamp is not before the end", "[profiling]") {
  if (device_version(cltest::test_device()) < 200) return;
  Env env(CL_QUEUE_PROFILING_ENABLE);
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  marker.wait();
  cl_ulong end = 0, complete = 0;
  REQUIRE_CL(clGetEventProfilingInfo(marker(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), CL_SUCCESS);
  REQUIRE_CL(clGetEventProfilingInfo(marker(), CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete, nullptr),
             CL_SUCCESS);
  CHECK(complete >= end);
}

// oclgrind hands out timestamps on any queue.
TEST_CASE("profiling: a queue without profiling has no timestamps", "[profiling][errors][oclgrind-unicl]") {
  Env env;
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  marker.wait();
  cl_ulong t = 0;
  CHECK_CL(clGetEventProfilingInfo(marker(), CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr),
           CL_PROFILING_INFO_NOT_AVAILABLE);
}

TEST_CASE("profiling: user events have no timestamps", "[profiling][errors][oclgrind]") {
  Env env(CL_QUEUE_PROFILING_ENABLE);
  cl_int err;
  auto e = adopt<cl::Event>(clCreateUserEvent(env.context(), &err));
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE_CL(clSetUserEventStatus(e(), CL_COMPLETE), CL_SUCCESS);
  cl_ulong t = 0;
  CHECK_CL(clGetEventProfilingInfo(e(), CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
           CL_PROFILING_INFO_NOT_AVAILABLE);
}

TEST_CASE("profiling: query errors", "[profiling][errors]") {
  Env env(CL_QUEUE_PROFILING_ENABLE);
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  marker.wait();
  cl_ulong t = 0;
  CHECK_CL(clGetEventProfilingInfo(marker(), 0x7fffu, sizeof t, &t, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetEventProfilingInfo(marker(), CL_PROFILING_COMMAND_END, 4, &t, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr), CL_INVALID_EVENT);
  size_t n = 0;
  CHECK_CL(clGetEventProfilingInfo(marker(), CL_PROFILING_COMMAND_END, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == sizeof(cl_ulong));
}

TEST_CASE("profiling: timestamps of a map and unmap", "[profiling]") {
  Env env(CL_QUEUE_PROFILING_ENABLE);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 256);
  cl::Event map, unmap;
  void *p = env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_WRITE, 0, 256, nullptr, &map);
  env.queue.enqueueUnmapMemObject(b, p, nullptr, &unmap);
  unmap.wait();
  check_ordered(times_of(map()));
  check_ordered(times_of(unmap()));
}

TEST_CASE("profiling: device and host timers advance", "[profiling]") {
  auto device = cltest::test_device();
  if (device_version(device) < 210 || platform_version() < 210) return;
  cl_ulong device_a = 0, host_a = 0, device_b = 0, host_b = 0;
  cl_int err = clGetDeviceAndHostTimer(device(), &device_a, &host_a);
  if (err == CL_INVALID_OPERATION) return;  // the timers are optional in 3.0
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE_CL(clGetDeviceAndHostTimer(device(), &device_b, &host_b), CL_SUCCESS);
  CHECK(device_b >= device_a);
  CHECK(host_b >= host_a);
  cl_ulong host_only = 0;
  REQUIRE_CL(clGetHostTimer(device(), &host_only), CL_SUCCESS);
  CHECK(host_only >= host_b);
}
