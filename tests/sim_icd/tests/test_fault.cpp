// Injected failures (UNICL_SIM_FAIL): the rules' parser, and the rules of
// the [fail] scenario (run_scenarios.py) seen through the ICD loader:
//   clEnqueueReadBuffer:CL_OUT_OF_RESOURCES:after=2,clEnqueueMapBuffer:CL_MAP_FAILURE
#include <chrono>
#include <string>
#include <vector>

#include "sim_test.hpp"  // first: it picks the OpenCL version of the headers
#include "../fault.hpp"

using namespace simtest;

namespace {

std::string error_of(const std::string &spec) {
  try {
    sim::parse_faults(spec);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("UNICL_SIM_FAIL rules", "[parser]") {
  auto rules = sim::parse_faults("clEnqueueReadBuffer:CL_OUT_OF_RESOURCES:after=2,clEnqueueMapBuffer:-12");
  REQUIRE(rules.size() == 2);
  CHECK(std::string(sim::entry_name(rules[0].entry)) == "clEnqueueReadBuffer");
  CHECK(rules[0].error == CL_OUT_OF_RESOURCES);
  CHECK(rules[0].after == 2);
  CHECK(std::string(sim::entry_name(rules[1].entry)) == "clEnqueueMapBuffer");
  CHECK(rules[1].error == CL_MAP_FAILURE);
  CHECK(rules[1].after == 0);
  CHECK(sim::parse_faults("").empty());

  CHECK_THAT(error_of("clEnqueueReadImage:CL_OUT_OF_RESOURCES"), Catch::Contains("not an entry point"));
  CHECK_THAT(error_of("clEnqueueReadBuffer"), Catch::Contains("expected entry:error"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:-5:after=1:x"), Catch::Contains("expected entry:error"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:-5,,clFinish:-5"), Catch::Contains("expected entry:error"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:CL_NO_SUCH_ERROR"), Catch::Contains("unknown error name"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:5"), Catch::Contains("not a negative"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:0x5"), Catch::Contains("not an integer"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:-5:after=x"), Catch::Contains("not an integer"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:-5:after=-1"), Catch::Contains("not be negative"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:-5:times=2"), Catch::Contains("unknown option"));
  CHECK_THAT(error_of("clEnqueueReadBuffer:-5,clEnqueueReadBuffer:-6"), Catch::Contains("given twice"));
}

TEST_CASE("A delay rule lets the call run after waiting", "[parser]") {
  auto rules = sim::parse_faults("clEnqueueMarkerWithWaitList:delay=30:after=1");
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].error == CL_SUCCESS);
  CHECK(rules[0].delay_ms == 30);
  CHECK(rules[0].after == 1);
  sim::Faults faults(rules);
  sim::Entry marker = rules[0].entry;
  CHECK(faults.injected(marker) == CL_SUCCESS);  // let through at once
  faults.succeeded(marker);
  auto start = std::chrono::steady_clock::now();
  CHECK(faults.injected(marker) == CL_SUCCESS);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(30));
  CHECK_THAT(error_of("clFinish:delay=0"), Catch::Contains("1 to 60000"));
  CHECK_THAT(error_of("clFinish:delay=x"), Catch::Contains("not an integer"));
}

TEST_CASE("A rule lets `after` successful calls through, then fails every call", "[parser]") {
  auto rules = sim::parse_faults("clEnqueueWriteBuffer:CL_OUT_OF_HOST_MEMORY:after=2");
  sim::Faults faults(rules);
  sim::Entry write = rules[0].entry;
  CHECK(faults.injected(write) == CL_SUCCESS);
  faults.succeeded(write);
  CHECK(faults.injected(write) == CL_SUCCESS);  // a call that failed on its own is not counted
  CHECK(faults.injected(write) == CL_SUCCESS);
  faults.succeeded(write);
  CHECK(faults.injected(write) == CL_OUT_OF_HOST_MEMORY);
  CHECK(faults.injected(write) == CL_OUT_OF_HOST_MEMORY);
  CHECK(faults.injected(write + 1) == CL_SUCCESS);  // another entry point
  CHECK(sim::Faults().injected(write) == CL_SUCCESS);
}

TEST_CASE("UNICL_SIM_FAIL fails the calls an application makes", "[fail]") {
  cl_device_id gpu = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({gpu});
  auto q = queue_for(ctx.get(), gpu);
  std::vector<char> bytes(1024, 'x');
  auto b = buffer(ctx.get(), bytes.size());
  REQUIRE(clEnqueueWriteBuffer(q.get(), b.get(), CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);

  // A read the simulator refuses on its own (no bytes) is not one of the two let through.
  CHECK(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, 0, bytes.data(), 0, nullptr, nullptr) == CL_INVALID_VALUE);
  for (int i = 0; i < 2; ++i)
    CHECK(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  // Then every read fails, enqueuing nothing.
  for (int i = 0; i < 3; ++i) {
    cl_event e = nullptr;
    CHECK(clEnqueueReadBuffer(q.get(), b.get(), CL_FALSE, 0, bytes.size(), bytes.data(), 0, nullptr, &e) ==
          CL_OUT_OF_RESOURCES);
    CHECK(e == nullptr);
  }
  // Entry points without a rule are unaffected.
  CHECK(clEnqueueWriteBuffer(q.get(), b.get(), CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clFinish(q.get()) == CL_SUCCESS);

  // An entry point returning a pointer fails as such: null, and errcode_ret
  // set; nothing is mapped.
  cl_int err = CL_SUCCESS;
  cl_event e = nullptr;
  CHECK(clEnqueueMapBuffer(q.get(), b.get(), CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, &e, &err) == nullptr);
  CHECK(err == CL_MAP_FAILURE);
  CHECK(e == nullptr);
  cl_uint maps = 42;
  REQUIRE(clGetMemObjectInfo(b.get(), CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr) == CL_SUCCESS);
  CHECK(maps == 0);
}
