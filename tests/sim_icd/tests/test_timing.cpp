// Modeled durations (timing.conf): kernels take flops / (gflops * efficiency),
// transfers latency + bytes / bandwidth, devices run concurrently.
#include <algorithm>
#include <functional>
#include <thread>

#include "sim_test.hpp"

using namespace simtest;

TEST_CASE("A kernel takes flops / gflops, and a faster device is faster", "[timing]") {
  cl_platform_id p = sim_platform();
  cl_device_id cpu = device_named(p, "cpu0"), gpu = device_named(p, "gpu0");
  auto ctx = context_for({cpu, gpu});
  auto prog = built_program(ctx.get(), kSource);
  auto qc = queue_for(ctx.get(), cpu), qg = queue_for(ctx.get(), gpu);
  auto kernel_ms = [&](cl_command_queue q, const char *name, size_t items) {
    auto e = launch(ctx.get(), q, prog.get(), name, items);
    cl_event ev = e.get();
    REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
    return profiled_ms(ev);
  };
  // work: 1000 * n flops; n = 3e6 -> 3e9 flops: 300 ms at 10 GFLOPS, 30 ms at 100.
  check_modeled_retry([&] { return kernel_ms(qc.get(), "work", 3000000); }, 300);
  check_modeled_retry([&] { return kernel_ms(qg.get(), "work", 3000000); }, 30);

  // sgemm: 2 * n^1.5 flops with n = 768 * 768 -> 905.97e6 flops; the
  // efficiency factors are cpu=0.5 (5 GFLOPS here) and gpu=1.0.
  const double flops = 2 * 452984832.0;
  check_modeled_retry([&] { return kernel_ms(qc.get(), "sgemm", 768 * 768); }, flops / 5e9 * 1e3);
  check_modeled_retry([&] { return kernel_ms(qg.get(), "sgemm", 768 * 768); }, flops / 100e9 * 1e3);
}

TEST_CASE("Transfers take latency + bytes / bandwidth", "[timing]") {
  cl_platform_id p = sim_platform();
  // Bandwidths well below this machine's memcpy: the real copy is the floor
  // of a transfer's duration (README.md, "Timing").
  const size_t bytes = 8 << 20;
  std::vector<char> host(bytes, 1);
  struct Case {
    const char *device;
    double latency_us, gbps;
  };
  for (Case c : {Case{"gpu0", 500, 0.25}, Case{"cpu0", 20, 0.5}}) {
    INFO(c.device);
    cl_device_id d = device_named(p, c.device);
    auto ctx = context_for({d});
    auto q = queue_for(ctx.get(), d);
    auto b = buffer(ctx.get(), bytes), b2 = buffer(ctx.get(), bytes);
    // Untimed first writes: the first touch of fresh pages costs real time
    // (page faults), which the model does not know about.
    for (cl_mem m : {b.get(), b2.get()})
      REQUIRE(clEnqueueWriteBuffer(q.get(), m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);

    const double modeled = c.latency_us / 1e3 + bytes / (c.gbps * 1e9) * 1e3, latency = c.latency_us / 1e3;
    // Enqueues one command (its event in *e), waits, returns its duration.
    auto timed = [&](const std::function<cl_int(cl_event *)> &enqueue) {
      cl_event e = nullptr;
      REQUIRE(enqueue(&e) == CL_SUCCESS);
      Event owned(e);
      REQUIRE(clFinish(q.get()) == CL_SUCCESS);
      return profiled_ms(e);
    };
    const char zero = 0;
    check_modeled_retry([&] { return timed([&](cl_event *e) {
      return clEnqueueWriteBuffer(q.get(), b.get(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, e); }); }, modeled);
    check_modeled_retry([&] { return timed([&](cl_event *e) {
      return clEnqueueReadBuffer(q.get(), b.get(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, e); }); }, modeled);
    check_modeled_retry([&] { return timed([&](cl_event *e) {
      return clEnqueueCopyBuffer(q.get(), b.get(), b2.get(), 0, 0, bytes, 0, nullptr, e); }); }, modeled);
    check_modeled_retry([&] { return timed([&](cl_event *e) {
      return clEnqueueFillBuffer(q.get(), b2.get(), &zero, 1, 0, bytes, 0, nullptr, e); }); }, modeled);

    // A map costs the transfer unless the region is to be overwritten; an
    // unmap costs it when the host wrote.
    for (cl_map_flags flags : {CL_MAP_READ, CL_MAP_WRITE_INVALIDATE_REGION}) {
      const bool fetch = flags == CL_MAP_READ;
      // Each attempt maps and unmaps; one of the two is timed.
      auto map_unmap_ms = [&](bool time_the_map) {
        cl_event map_event = nullptr, unmap_event = nullptr;
        cl_int err = CL_SUCCESS;
        void *ptr = clEnqueueMapBuffer(q.get(), b.get(), CL_FALSE, flags, 0, bytes, 0, nullptr, &map_event, &err);
        REQUIRE(err == CL_SUCCESS);
        REQUIRE(clEnqueueUnmapMemObject(q.get(), b.get(), ptr, 0, nullptr, &unmap_event) == CL_SUCCESS);
        Event m(map_event), u(unmap_event);
        REQUIRE(clFinish(q.get()) == CL_SUCCESS);
        return profiled_ms(time_the_map ? map_event : unmap_event);
      };
      check_modeled_retry([&] { return map_unmap_ms(true); }, fetch ? modeled : latency);
      check_modeled_retry([&] { return map_unmap_ms(false); }, fetch ? latency : modeled);
    }
  }
}

TEST_CASE("An in-order queue starts each command after the previous one ended", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu1");
  auto ctx = context_for({d});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), d);
  auto a = launch(ctx.get(), q.get(), prog.get(), "work", 100000);
  auto b = launch(ctx.get(), q.get(), prog.get(), "work", 100000);
  REQUIRE(clFinish(q.get()) == CL_SUCCESS);
  cl_ulong end_a = 0, start_b = 0;
  REQUIRE(clGetEventProfilingInfo(a.get(), CL_PROFILING_COMMAND_END, sizeof end_a, &end_a, nullptr) == CL_SUCCESS);
  REQUIRE(clGetEventProfilingInfo(b.get(), CL_PROFILING_COMMAND_START, sizeof start_b, &start_b, nullptr) ==
          CL_SUCCESS);
  CHECK(start_b >= end_a);
}

TEST_CASE("Two devices run at the same time, one device one command at a time", "[timing]") {
  cl_platform_id p = sim_platform();
  cl_device_id g0 = device_named(p, "gpu0"), g1 = device_named(p, "gpu1");
  auto ctx = context_for({g0, g1});
  auto prog = built_program(ctx.get(), kSource);
  // n = 1e7: 1e10 flops, 100 ms on a 100 GFLOPS gpu.
  const size_t n = 10000000;
  auto makespan_ms = [&](cl_device_id da, cl_device_id db) {
    auto qa = queue_for(ctx.get(), da), qb = queue_for(ctx.get(), db);
    auto t0 = std::chrono::steady_clock::now();
    auto a = launch(ctx.get(), qa.get(), prog.get(), "work", n);
    auto b = launch(ctx.get(), qb.get(), prog.get(), "work", n);
    REQUIRE(clFinish(qa.get()) == CL_SUCCESS);
    REQUIRE(clFinish(qb.get()) == CL_SUCCESS);
    return ms_since(t0);
  };
  // One kernel on each of two devices: the makespan of one.
  check_modeled_retry([&] { return makespan_ms(g0, g1); }, 100);
  // Two queues on one device: the makespan of two.
  check_modeled_retry([&] { return makespan_ms(g0, g0); }, 200);
}

TEST_CASE("A copy engine moves data while a kernel runs; without one they take turns", "[timing]") {
  cl_platform_id p = sim_platform();
  struct Case {
    const char *device;
    size_t items, bytes;  // a 100 ms kernel and a 100 ms write on that device
    double makespan_ms;
  };
  // small: 50 GFLOPS, 0.1 GB/s, copy_engine=1; gpu0: 100 GFLOPS, 0.25 GB/s + 0.5 ms, none.
  for (Case c : {Case{"small", 5000000, 10000000, 100}, Case{"gpu0", 10000000, 24875000, 200}}) {
    INFO(c.device);
    cl_device_id d = device_named(p, c.device);
    auto ctx = context_for({d});
    auto prog = built_program(ctx.get(), kSource);
    auto kq = queue_for(ctx.get(), d), tq = queue_for(ctx.get(), d);
    auto b = buffer(ctx.get(), c.bytes);
    std::vector<char> host(c.bytes, 1);
    REQUIRE(clEnqueueWriteBuffer(tq.get(), b.get(), CL_TRUE, 0, c.bytes, host.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);  // first touch of the pages, untimed
    check_modeled_retry([&] {
      auto t0 = std::chrono::steady_clock::now();
      auto k = launch(ctx.get(), kq.get(), prog.get(), "work", c.items);
      REQUIRE(clEnqueueWriteBuffer(tq.get(), b.get(), CL_FALSE, 0, c.bytes, host.data(), 0, nullptr, nullptr) ==
              CL_SUCCESS);
      REQUIRE(clFinish(kq.get()) == CL_SUCCESS);
      REQUIRE(clFinish(tq.get()) == CL_SUCCESS);
      return ms_since(t0);
    }, c.makespan_ms);
  }
}

TEST_CASE("time_scale shortens every modeled duration; 64 devices run concurrently", "[many]") {
  // many.conf: time_scale 0.5, 64 gpus of 100 GFLOPS, the default 1000 * n flops.
  auto ds = devices(sim_platform());
  auto ctx = context_for(ds);
  auto prog = built_program(ctx.get(), kSource);
  std::vector<Queue> queues;
  for (cl_device_id d : ds) queues.push_back(queue_for(ctx.get(), d));
  // n = 1e7: 100 ms modeled, 50 ms scaled, on every device at once.
  check_modeled_retry(
      [&] {
        std::vector<Event> events;
        auto t0 = std::chrono::steady_clock::now();
        for (auto &q : queues) events.push_back(launch(ctx.get(), q.get(), prog.get(), "work", 10000000));
        for (auto &q : queues) REQUIRE(clFinish(q.get()) == CL_SUCCESS);
        double makespan = ms_since(t0);
        for (auto &e : events) CHECK(profiled_ms(e.get()) >= 0.8 * 50);
        return makespan;
      },
      50);
}
