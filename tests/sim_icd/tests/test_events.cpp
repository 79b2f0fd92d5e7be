// Event ordering, user events, callbacks, markers and barriers (timing.conf).
#include <atomic>
#include <mutex>
#include <thread>

#include "sim_test.hpp"

using namespace simtest;

TEST_CASE("A user event gates commands of an out-of-order queue", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), d, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(ctx.get(), &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(status_of(gate.get()) == CL_SUBMITTED);
  cl_event g = gate.get();
  auto gated = launch(ctx.get(), q.get(), prog.get(), "work", 1000000, 1, &g);  // 10 ms
  auto ungated = launch(ctx.get(), q.get(), prog.get(), "work", 1000000);
  cl_event f = ungated.get();
  REQUIRE(clWaitForEvents(1, &f) == CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(status_of(gated.get()) == CL_SUBMITTED);  // still waiting for the gate

  SECTION("completing the gate runs it") {
    REQUIRE(clSetUserEventStatus(g, CL_COMPLETE) == CL_SUCCESS);
    CHECK(clSetUserEventStatus(g, CL_COMPLETE) == CL_INVALID_OPERATION);
    REQUIRE(clFinish(q.get()) == CL_SUCCESS);
    CHECK(status_of(gated.get()) == CL_COMPLETE);
    cl_ulong free_end = 0, gated_start = 0;
    clGetEventProfilingInfo(f, CL_PROFILING_COMMAND_END, sizeof free_end, &free_end, nullptr);
    clGetEventProfilingInfo(gated.get(), CL_PROFILING_COMMAND_START, sizeof gated_start, &gated_start, nullptr);
    CHECK(gated_start > free_end);
  }
  SECTION("failing the gate fails what waits for it") {
    REQUIRE(clSetUserEventStatus(g, -42) == CL_SUCCESS);
    cl_event e = gated.get();
    CHECK(clWaitForEvents(1, &e) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status_of(e) < 0);
  }
}

TEST_CASE("An in-order queue waits behind a gated command", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu1");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), d);
  auto other = queue_for(ctx.get(), d);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(ctx.get(), &err));
  cl_event g = gate.get();
  auto first = launch(ctx.get(), q.get(), prog.get(), "work", 1000, 1, &g);
  auto second = launch(ctx.get(), q.get(), prog.get(), "work", 1000);
  // The device itself is free: another queue's command runs meanwhile.
  auto elsewhere = launch(ctx.get(), other.get(), prog.get(), "work", 1000);
  REQUIRE(clFinish(other.get()) == CL_SUCCESS);
  CHECK(status_of(second.get()) == CL_SUBMITTED);
  REQUIRE(clSetUserEventStatus(g, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(q.get()) == CL_SUCCESS);
  CHECK(status_of(second.get()) == CL_COMPLETE);
}

namespace {

struct Seen {
  std::mutex mutex;
  std::vector<cl_int> statuses;
  std::vector<std::thread::id> threads;
};

void CL_CALLBACK record(cl_event, cl_int status, void *user) {
  auto seen = static_cast<Seen *>(user);
  std::lock_guard lock(seen->mutex);
  seen->statuses.push_back(status);
  seen->threads.push_back(std::this_thread::get_id());
}

}  // namespace

TEST_CASE("Event callbacks fire for submitted, running and complete", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "cpu0");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), d);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(ctx.get(), &err));
  cl_event g = gate.get();
  auto k = launch(ctx.get(), q.get(), prog.get(), "work", 1000, 1, &g);
  Seen seen;
  REQUIRE(clSetEventCallback(k.get(), CL_COMPLETE, record, &seen) == CL_SUCCESS);
  REQUIRE(clSetEventCallback(k.get(), CL_RUNNING, record, &seen) == CL_SUCCESS);
  // Already submitted: this one is called at once.
  REQUIRE(clSetEventCallback(k.get(), CL_SUBMITTED, record, &seen) == CL_SUCCESS);
  {
    std::lock_guard lock(seen.mutex);
    REQUIRE(seen.statuses == std::vector<cl_int>{CL_SUBMITTED});
  }
  REQUIRE(clSetUserEventStatus(g, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(q.get()) == CL_SUCCESS);
  // clFinish may return between the status change and the callback's end.
  for (int i = 0; i < 100; ++i) {
    {
      std::lock_guard lock(seen.mutex);
      if (seen.statuses.size() == 3) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard lock(seen.mutex);
  REQUIRE(seen.statuses == std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE});
  CHECK(seen.threads[1] != std::this_thread::get_id());  // from the device's worker
  CHECK(seen.threads[2] == seen.threads[1]);
  CHECK(clSetEventCallback(k.get(), CL_QUEUED, record, &seen) == CL_INVALID_VALUE);
}

TEST_CASE("Markers and barriers order an out-of-order queue", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), d, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(ctx.get(), &err));
  cl_event g = gate.get();
  auto gated = launch(ctx.get(), q.get(), prog.get(), "work", 1000, 1, &g);
  cl_event marker = nullptr, barrier = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(q.get(), 0, nullptr, &marker) == CL_SUCCESS);
  REQUIRE(clEnqueueBarrierWithWaitList(q.get(), 0, nullptr, &barrier) == CL_SUCCESS);
  Event me(marker), be(barrier);
  auto after = launch(ctx.get(), q.get(), prog.get(), "work", 1000);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(status_of(marker) == CL_SUBMITTED);
  CHECK(status_of(barrier) == CL_SUBMITTED);
  CHECK(status_of(after.get()) == CL_SUBMITTED);
  REQUIRE(clSetUserEventStatus(g, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(q.get()) == CL_SUCCESS);
  for (cl_event e : {marker, barrier, after.get()}) CHECK(status_of(e) == CL_COMPLETE);
  cl_command_type type = 0;
  REQUIRE(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_COMMAND_MARKER);
}

TEST_CASE("Profiling timestamps are ordered and need a profiling queue", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), d);
  auto e = launch(ctx.get(), q.get(), prog.get(), "work", 100000);
  REQUIRE(clFinish(q.get()) == CL_SUCCESS);
  cl_ulong t[4] = {};
  cl_profiling_info what[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                              CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i)
    REQUIRE(clGetEventProfilingInfo(e.get(), what[i], sizeof t[i], &t[i], nullptr) == CL_SUCCESS);
  CHECK(t[0] <= t[1]);
  CHECK(t[1] <= t[2]);
  CHECK(t[2] < t[3]);

  auto plain = queue_for(ctx.get(), d, 0);
  auto e2 = launch(ctx.get(), plain.get(), prog.get(), "work", 1000);
  REQUIRE(clFinish(plain.get()) == CL_SUCCESS);
  CHECK(clGetEventProfilingInfo(e2.get(), CL_PROFILING_COMMAND_START, sizeof t[0], t, nullptr) ==
        CL_PROFILING_INFO_NOT_AVAILABLE);
}

TEST_CASE("Several threads enqueue, wait and release at once", "[timing]") {
  // Catch's assertions are not thread-safe: the threads count failures.
  cl_platform_id p = sim_platform();
  std::vector<cl_device_id> ds = {device_named(p, "gpu0"), device_named(p, "gpu1"), device_named(p, "cpu0")};
  auto ctx = context_for(ds);
  auto prog = built_program(ctx.get(), kSource);
  std::atomic<int> failures{0}, callbacks{0};
  auto worker = [&](int t) {
    cl_int err = CL_SUCCESS;
    cl_device_id d = ds[t % ds.size()];
    cl_command_queue q = clCreateCommandQueue(ctx.get(), d, t % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
    cl_kernel k = clCreateKernel(prog.get(), "work", &err);
    cl_mem m = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE, 4096, nullptr, &err);
    if (!q || !k || !m) ++failures;
    int n = 1024;
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof n, &n);
    std::vector<char> bytes(4096, static_cast<char>(t));
    cl_event previous = nullptr;
    for (int i = 0; i < 50; ++i) {
      size_t global = 1000;
      cl_event e = nullptr, w = nullptr;
      if (clEnqueueWriteBuffer(q, m, CL_FALSE, 0, bytes.size(), bytes.data(), previous ? 1 : 0,
                               previous ? &previous : nullptr, &w) != CL_SUCCESS)
        ++failures;
      if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 1, &w, &e) != CL_SUCCESS) ++failures;
      clSetEventCallback(
          e, CL_COMPLETE, [](cl_event, cl_int, void *c) { ++*static_cast<std::atomic<int> *>(c); }, &callbacks);
      if (previous) clReleaseEvent(previous);
      clReleaseEvent(w);
      previous = e;
    }
    if (clWaitForEvents(1, &previous) != CL_SUCCESS) ++failures;
    clReleaseEvent(previous);
    std::vector<char> back(4096);
    if (clEnqueueReadBuffer(q, m, CL_TRUE, 0, back.size(), back.data(), 0, nullptr, nullptr) != CL_SUCCESS ||
        back != bytes)
      ++failures;
    clReleaseMemObject(m);  // while the callbacks may still run
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) threads.emplace_back(worker, t);
  for (auto &t : threads) t.join();
  CHECK(failures == 0);
  for (int i = 0; i < 100 && callbacks < 300; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(callbacks == 300);
}
