// One check through UniCL: it loads the simulator as a vendor
// (UNICL_VENDORS) and lists, runs and moves data on its devices.
#include <cstring>

#include "listing.hpp"

using namespace simtest;

TEST_CASE("UniCL lists the simulated devices and runs on them", "[unicl]") {
  cl_platform_id unicl = platform_named("UniCL");
  check_timing_conf_devices(unicl);

  cl_device_id gpu = device_named(unicl, "gpu1");
  CHECK(device_string(gpu, CL_DEVICE_VENDOR) == "UniCL Simulator");
  auto ctx = context_for({gpu});
  auto q = queue_for(ctx.get(), gpu);
  std::vector<float> in(4096), out(4096);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) / 3;
  auto b = buffer(ctx.get(), in.size() * sizeof(float));
  REQUIRE(clEnqueueWriteBuffer(q.get(), b.get(), CL_TRUE, 0, in.size() * sizeof(float), in.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, out.size() * sizeof(float), out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(in == out);

  // A kernel of 3e6 work-items: 3e9 flops, 30 ms on a 100 GFLOPS gpu.
  auto prog = built_program(ctx.get(), kSource);
  auto k = kernel(prog.get(), "work");
  cl_mem arg = b.get();
  int n = static_cast<int>(in.size());
  REQUIRE(clSetKernelArg(k.get(), 0, sizeof arg, &arg) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k.get(), 1, sizeof n, &n) == CL_SUCCESS);
  size_t global = 3000000;
  check_modeled_retry(
      [&] {
        cl_event e = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(q.get(), k.get(), 1, nullptr, &global, nullptr, 0, nullptr, &e) == CL_SUCCESS);
        Event done(e);
        REQUIRE(clFinish(q.get()) == CL_SUCCESS);
        CHECK(status_of(e) == CL_COMPLETE);
        return profiled_ms(e);
      },
      30);
}
