// One buffer updated in turn by every device of a multi-vendor context, in
// every order of the devices, over several rounds, with only events (no
// host waits) ordering the steps across queues. Each step computes
// a = a * 3 + step, so the result depends on every step having seen the
// previous one's output, in order. The result is then read on each device.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void advance(__global int *a, int k) {
  size_t i = get_global_id(0);
  a[i] = a[i] * 3 + k;
}
)CL";

constexpr size_t kCount = 64;
constexpr int kRounds = 3;

}  // namespace

TEST_CASE("a buffer updated by every device in every order stays coherent", "[coherence]") {
  cltest::MultiDevice md;
  REQUIRE(md.size() == 3);
  cl::Program program = cltest::build(md.context, kSource);

  std::vector<size_t> order(md.size());
  std::iota(order.begin(), order.end(), 0);
  do {
    std::string order_text;
    for (size_t d : order) order_text += md.name(d) + " -> ";
    INFO("order: " << order_text);

    std::vector<cl_int> initial(kCount), expected(kCount);
    for (size_t i = 0; i < kCount; ++i) initial[i] = expected[i] = static_cast<cl_int>(i % 7);
    cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
    cl::Event last;
    md.queues[order[0]].enqueueWriteBuffer(buffer, CL_FALSE, 0, kCount * sizeof(cl_int), initial.data(), nullptr, &last);

    int k = 0;
    for (int round = 0; round < kRounds; ++round) {
      for (size_t d : order) {
        ++k;
        cl::Kernel kernel(program, "advance");
        kernel.setArg(0, buffer);
        kernel.setArg(1, k);
        std::vector<cl::Event> wait{last};
        cl::Event done;
        md.queues[d].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &wait, &done);
        last = done;
        for (auto &v : expected) v = v * 3 + k;
      }
    }

    std::vector<std::vector<cl_int>> results(md.size(), std::vector<cl_int>(kCount, -1));
    std::vector<cl::Event> reads(md.size());
    for (size_t d = 0; d < md.size(); ++d) {
      std::vector<cl::Event> wait{last};
      md.queues[d].enqueueReadBuffer(buffer, CL_FALSE, 0, kCount * sizeof(cl_int), results[d].data(), &wait, &reads[d]);
    }
    cl::Event::waitForEvents(reads);
    for (size_t d = 0; d < md.size(); ++d) {
      INFO("read on " << md.name(d));
      CHECK(results[d] == expected);
    }
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_CASE("device-to-device hand-over ordered by host waits", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  std::vector<cl_int> data(kCount, 1), expected(kCount, 1);
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kCount * sizeof(cl_int), data.data());
  int k = 0;
  for (int round = 0; round < 2; ++round) {
    for (size_t d = 0; d < md.size(); ++d) {
      ++k;
      cl::Kernel kernel(program, "advance");
      kernel.setArg(0, buffer);
      kernel.setArg(1, k);
      md.queues[d].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount));
      md.queues[d].finish();
      for (auto &v : expected) v = v * 3 + k;
    }
  }
  for (size_t d = 0; d < md.size(); ++d) {
    std::vector<cl_int> result(kCount, -1);
    md.queues[d].enqueueReadBuffer(buffer, CL_TRUE, 0, kCount * sizeof(cl_int), result.data());
    INFO("read on " << md.name(d));
    CHECK(result == expected);
  }
}
