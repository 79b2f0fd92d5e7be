// Modeled durations (timing.conf): kernels take flops / (gflops * efficiency),
// transfers latency + bytes / bandwidth, devices run concurrently.
#include <thread>

#include "sim_test.hpp"

using namespace simtest;

TEST_CASE("A kernel takes flops / gflops, and a faster device is faster", "[timing]") {
  cl_platform_id p = sim_platform();
  cl_device_id cpu = device_named(p, "cpu0"), gpu = device_named(p, "gpu0");
  auto ctx = context_for({cpu, gpu});
  auto prog = built_program(ctx.get(), kSource);
  auto qc = queue_for(ctx.get(), cpu), qg = queue_for(ctx.get(), gpu);
  // work: 1000 * n flops; n = 1e6 -> 1e9 flops: 100 ms at 10 GFLOPS, 10 ms at 100.
  auto on_cpu = launch(ctx.get(), qc.get(), prog.get(), "work", 1000000);
  auto on_gpu = launch(ctx.get(), qg.get(), prog.get(), "work", 1000000);
  cl_event both[] = {on_cpu.get(), on_gpu.get()};
  REQUIRE(clWaitForEvents(2, both) == CL_SUCCESS);
  check_modeled(profiled_ms(on_cpu.get()), 100);
  check_modeled(profiled_ms(on_gpu.get()), 10);
  CHECK(profiled_ms(on_gpu.get()) < profiled_ms(on_cpu.get()));

  SECTION("efficiency factors multiply the device's gflops") {
    // sgemm: 2 * n^1.5 flops, n = 512 * 512 -> 268.4e6 flops; cpu=0.5, gpu=1.0.
    const double flops = 2 * 134217728.0;
    auto sc = launch(ctx.get(), qc.get(), prog.get(), "sgemm", 512 * 512);
    auto sg = launch(ctx.get(), qg.get(), prog.get(), "sgemm", 512 * 512);
    cl_event s[] = {sc.get(), sg.get()};
    REQUIRE(clWaitForEvents(2, s) == CL_SUCCESS);
    check_modeled(profiled_ms(sc.get()), flops / (10e9 * 0.5) * 1e3);
    check_modeled(profiled_ms(sg.get()), flops / 100e9 * 1e3);
  }
}

TEST_CASE("Transfers take latency + bytes / bandwidth", "[timing]") {
  cl_platform_id p = sim_platform();
  const size_t bytes = 16 << 20;
  std::vector<char> host(bytes, 1);
  struct Case {
    const char *device;
    double latency_us, gbps;
  };
  for (Case c : {Case{"gpu0", 500, 2}, Case{"cpu0", 20, 4}}) {
    INFO(c.device);
    cl_device_id d = device_named(p, c.device);
    auto ctx = context_for({d});
    auto q = queue_for(ctx.get(), d);
    auto b = buffer(ctx.get(), bytes);
    const double modeled = c.latency_us / 1e3 + bytes / (c.gbps * 1e9) * 1e3;
    cl_event w = nullptr, r = nullptr, cp = nullptr, f = nullptr;
    REQUIRE(clEnqueueWriteBuffer(q.get(), b.get(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, &w) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, &r) == CL_SUCCESS);
    auto b2 = buffer(ctx.get(), bytes);
    REQUIRE(clEnqueueCopyBuffer(q.get(), b.get(), b2.get(), 0, 0, bytes, 0, nullptr, &cp) == CL_SUCCESS);
    const char zero = 0;
    REQUIRE(clEnqueueFillBuffer(q.get(), b2.get(), &zero, 1, 0, bytes, 0, nullptr, &f) == CL_SUCCESS);
    Event we(w), re(r), ce(cp), fe(f);
    REQUIRE(clFinish(q.get()) == CL_SUCCESS);
    for (cl_event e : {w, r, cp, f}) check_modeled(profiled_ms(e), modeled);
    // An in-order queue: each command started after the previous one ended.
    cl_ulong end_w = 0, start_r = 0;
    clGetEventProfilingInfo(w, CL_PROFILING_COMMAND_END, sizeof end_w, &end_w, nullptr);
    clGetEventProfilingInfo(r, CL_PROFILING_COMMAND_START, sizeof start_r, &start_r, nullptr);
    CHECK(start_r >= end_w);
  }
}

TEST_CASE("Two devices run at the same time, one device one command at a time", "[timing]") {
  cl_platform_id p = sim_platform();
  cl_device_id g0 = device_named(p, "gpu0"), g1 = device_named(p, "gpu1");
  auto ctx = context_for({g0, g1});
  auto prog = built_program(ctx.get(), kSource);
  // n = 1e7: 1e10 flops, 100 ms on a 100 GFLOPS gpu.
  const size_t n = 10000000;

  SECTION("one kernel on each of two devices: the makespan of one") {
    auto q0 = queue_for(ctx.get(), g0), q1 = queue_for(ctx.get(), g1);
    auto t0 = std::chrono::steady_clock::now();
    auto a = launch(ctx.get(), q0.get(), prog.get(), "work", n);
    auto b = launch(ctx.get(), q1.get(), prog.get(), "work", n);
    REQUIRE(clFinish(q0.get()) == CL_SUCCESS);
    REQUIRE(clFinish(q1.get()) == CL_SUCCESS);
    check_modeled(ms_since(t0), 100);
  }
  SECTION("two queues on one device: the makespan of two") {
    auto qa = queue_for(ctx.get(), g0), qb = queue_for(ctx.get(), g0);
    auto t0 = std::chrono::steady_clock::now();
    auto a = launch(ctx.get(), qa.get(), prog.get(), "work", n);
    auto b = launch(ctx.get(), qb.get(), prog.get(), "work", n);
    REQUIRE(clFinish(qa.get()) == CL_SUCCESS);
    REQUIRE(clFinish(qb.get()) == CL_SUCCESS);
    check_modeled(ms_since(t0), 200);
  }
}

TEST_CASE("time_scale shortens every modeled duration; 64 devices run concurrently", "[many]") {
  // many.conf: time_scale 0.5, 64 gpus of 100 GFLOPS, the default 1000 * n flops.
  auto ds = devices(sim_platform());
  auto ctx = context_for(ds);
  auto prog = built_program(ctx.get(), kSource);
  std::vector<Queue> queues;
  for (cl_device_id d : ds) queues.push_back(queue_for(ctx.get(), d));
  std::vector<Event> events;
  auto t0 = std::chrono::steady_clock::now();
  for (auto &q : queues) events.push_back(launch(ctx.get(), q.get(), prog.get(), "work", 10000000));
  for (auto &q : queues) REQUIRE(clFinish(q.get()) == CL_SUCCESS);
  check_modeled(ms_since(t0), 50);
  for (auto &e : events) check_modeled(profiled_ms(e.get()), 50);
}
