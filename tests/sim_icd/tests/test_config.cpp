// The configuration parser, compiled into the test (config.cpp).
#include <sstream>

#include "sim_test.hpp"  // first: it picks the OpenCL version of the headers
#include "../config.hpp"

namespace {

sim::Config parse(const std::string &text) {
  std::istringstream in(text);
  return sim::parse_config(in);
}

std::string error_of(const std::string &text) {
  try {
    parse(text);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Configuration lines", "[parser]") {
  auto c = parse(
      "# a machine\n"
      "mode correctness\n"
      "time_scale 0.1   # faster\n"
      "device name=cpu0 type=cpu gflops=20 memory_mb=2048 bandwidth_gbps=20 latency_us=1 units=4\n"
      "device count=3 name=gpu type=gpu gflops=200 memory_mb=0.5 copy_engine=1\n"
      "device type=accelerator\n"
      "kernel name=sgemm flops=2*n^1.5 gpu=1.0 cpu=0.5\n"
      "kernel name=* flops=1000*n+5e6\n");
  CHECK(c.correctness);
  CHECK(c.move_bytes);  // the default
  CHECK(!parse("move_bytes no\n").move_bytes);
  CHECK(c.time_scale == Approx(0.1));
  REQUIRE(c.devices.size() == 5);
  CHECK(c.devices[0].name == "cpu0");
  CHECK(c.devices[0].type == CL_DEVICE_TYPE_CPU);
  CHECK(c.devices[0].memory_bytes == 2048ull << 20);
  CHECK(c.devices[0].bandwidth == Approx(20e9));
  CHECK(c.devices[0].latency == Approx(1e-6));
  CHECK(c.devices[0].units == 4);
  CHECK(!c.devices[0].copy_engine);
  CHECK(c.devices[3].copy_engine);
  CHECK(c.devices[3].name == "gpu2");
  CHECK(c.devices[3].memory_bytes == 512ull << 10);
  CHECK(c.devices[4].name == "accelerator4");  // unnamed: type and position
  CHECK(c.devices[4].type == CL_DEVICE_TYPE_ACCELERATOR);

  // sgemm on cpu0: 2 * (1e6)^1.5 = 2e9 flops at 20 * 0.5 GFLOPS = 0.2 s, scaled by 0.1.
  CHECK(c.kernel_seconds("sgemm", c.devices[0], 1e6) == Approx(0.02));
  CHECK(c.kernel_seconds("other", c.devices[1], 1000) == Approx((1e6 + 5e6) / 200e9 * 0.1));
  CHECK(c.transfer_seconds(c.devices[0], 20000) == Approx((1e-6 + 1e-6) * 0.1));
}

TEST_CASE("Cost expressions", "[parser]") {
  CHECK(sim::parse_cost("n")(7) == Approx(7));
  CHECK(sim::parse_cost("3*n^2")(10) == Approx(300));
  CHECK(sim::parse_cost("n^2*3")(10) == Approx(300));
  CHECK(sim::parse_cost("2*n*n")(10) == Approx(200));
  CHECK(sim::parse_cost("1e6")(123) == Approx(1e6));
  CHECK(sim::parse_cost("n^0.5+10")(100) == Approx(20));
  CHECK_THROWS(sim::parse_cost("2n"));
  CHECK_THROWS(sim::parse_cost("n^"));
  CHECK_THROWS(sim::parse_cost("log(n)"));
}

TEST_CASE("Without a kernel line, kernels cost 1000 * n", "[parser]") {
  auto c = parse("device name=d gflops=1\n");
  CHECK(c.kernel_seconds("anything", c.devices[0], 1e6) == Approx(1.0));
}

TEST_CASE("Configuration errors name their line", "[parser]") {
  CHECK(error_of("mode fast\n") == "line 1: mode must be timing or correctness");
  CHECK(error_of("\ndevice name=x colour=red\n") == "line 2: unknown device key 'colour'");
  CHECK(error_of("device gflops=-1\n") == "line 1: gflops must be positive");
  CHECK(error_of("kernel flops=n\n") == "line 1: kernel needs name= (or name=*)");
  CHECK(error_of("device name=a name=b\n") == "line 1: 'name' given twice");
  CHECK(error_of("frobnicate\n") == "line 1: unknown keyword 'frobnicate'");
  CHECK(error_of("device type=fpga\n") == "line 1: type must be cpu, gpu or accelerator, not 'fpga'");
  CHECK(error_of("device copy_engine=2\n") == "line 1: copy_engine takes 0 or 1");
  CHECK(error_of("move_bytes maybe\n") == "line 1: move_bytes must be yes or no");
}
