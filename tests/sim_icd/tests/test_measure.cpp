// Not a test: a hidden case that prints how closely commands keep their
// modeled durations (timing.conf), for README.md's table. Run from the
// build folder with OCL_ICD_VENDORS=tests/sim_icd/vendors and
// UNICL_SIM_CONFIG=../tests/sim_icd/tests/timing.conf:
//   tests/sim_icd/test_sim_icd '[measure]'
#include <algorithm>
#include <cstdio>
#include <functional>

#include "sim_test.hpp"

using namespace simtest;

namespace {

void report(const char *what, double modeled_ms, const std::function<double()> &measure, int runs = 10) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) ms.push_back(measure());
  std::sort(ms.begin(), ms.end());
  std::printf("%-58s modeled %8.3f ms  observed min %8.3f  median %8.3f  max %8.3f\n", what, modeled_ms, ms.front(),
              ms[ms.size() / 2], ms.back());
}

}  // namespace

TEST_CASE("Modeled against observed durations", "[.][measure]") {
  cl_platform_id p = sim_platform();
  cl_device_id cpu = device_named(p, "cpu0"), g0 = device_named(p, "gpu0"), g1 = device_named(p, "gpu1");
  auto ctx = context_for({cpu, g0, g1});
  auto prog = built_program(ctx.get(), kSource);
  auto qc = queue_for(ctx.get(), cpu), q0 = queue_for(ctx.get(), g0), q1 = queue_for(ctx.get(), g1);
  auto kernel_ms = [&](cl_command_queue q, const char *name, size_t items) {
    auto e = launch(ctx.get(), q, prog.get(), name, items);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    return profiled_ms(e.get());
  };
  report("kernel work, 3e9 flops, cpu0 10 GFLOPS", 300, [&] { return kernel_ms(qc.get(), "work", 3000000); });
  report("kernel work, 3e9 flops, gpu0 100 GFLOPS", 30, [&] { return kernel_ms(q0.get(), "work", 3000000); });
  report("kernel work, 1e8 flops, gpu0 100 GFLOPS", 1, [&] { return kernel_ms(q0.get(), "work", 100000); });
  const double sgemm = 2 * 452984832.0;
  report("kernel sgemm 768x768, cpu0 (cpu=0.5: 5 GFLOPS)", sgemm / 5e6,
         [&] { return kernel_ms(qc.get(), "sgemm", 768 * 768); });
  report("kernel sgemm 768x768, gpu0", sgemm / 100e6, [&] { return kernel_ms(q0.get(), "sgemm", 768 * 768); });

  const size_t bytes = 8 << 20;
  std::vector<char> host(bytes, 1);
  auto b = buffer(ctx.get(), bytes), b2 = buffer(ctx.get(), bytes);
  for (cl_mem m : {b.get(), b2.get()})
    REQUIRE(clEnqueueWriteBuffer(q0.get(), m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  auto timed = [](cl_command_queue q, const std::function<cl_int(cl_event *)> &enqueue) {
    cl_event e = nullptr;
    REQUIRE(enqueue(&e) == CL_SUCCESS);
    Event owned(e);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    return profiled_ms(e);
  };
  for (auto [q, name, modeled] : {std::tuple{q0.get(), "gpu0 (0.25 GB/s, 500 us)", 0.5 + bytes / 0.25e6},
                                  std::tuple{qc.get(), "cpu0 (0.5 GB/s, 20 us)", 0.02 + bytes / 0.5e6}}) {
    std::string w = std::string("8 MiB write, ") + name, c = std::string("8 MiB copy, ") + name;
    report(w.c_str(), modeled, [&, q = q] {
      return timed(q, [&](cl_event *e) {
        return clEnqueueWriteBuffer(q, b.get(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, e);
      });
    });
    report(c.c_str(), modeled, [&, q = q] {
      return timed(q, [&](cl_event *e) { return clEnqueueCopyBuffer(q, b.get(), b2.get(), 0, 0, bytes, 0, nullptr, e); });
    });
  }
  report("1 kernel of 100 ms on each of gpu0, gpu1: wall makespan", 100, [&] {
    auto t0 = std::chrono::steady_clock::now();
    auto a = launch(ctx.get(), q0.get(), prog.get(), "work", 10000000);
    auto c = launch(ctx.get(), q1.get(), prog.get(), "work", 10000000);
    clFinish(q0.get());
    clFinish(q1.get());
    return ms_since(t0);
  }, 5);
}
