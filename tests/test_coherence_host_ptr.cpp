// CL_MEM_USE_HOST_PTR buffers in a multi-vendor context: whichever device
// last wrote, mapping hands back the application's own memory (host_ptr plus
// offset) holding the current bytes, and host writes through a map reach the
// next device.
#include <catch2/catch.hpp>

#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void add(__global int *a, int k) { a[get_global_id(0)] += k; }
)CL";

constexpr size_t kCount = 32;
constexpr size_t kBytes = kCount * sizeof(cl_int);

}  // namespace

TEST_CASE("USE_HOST_PTR buffer written on each device maps to host_ptr", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  alignas(4096) static cl_int host[kCount];
  for (size_t i = 0; i < kCount; ++i) host[i] = static_cast<cl_int>(i);
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kBytes, host);

  cl_int expected_add = 0;
  cl::Event last;
  for (int round = 0; round < 2; ++round) {
    for (size_t d = 0; d < md.size(); ++d) {
      // Map on the next device's queue: another vendor must see the result.
      size_t mapper = (d + 1) % md.size();
      INFO("kernel on " << md.name(d) << ", mapped on " << md.name(mapper));
      cl::Kernel kernel(program, "add");
      kernel.setArg(0, buffer);
      kernel.setArg(1, static_cast<cl_int>(d + 1) * 10);
      std::vector<cl::Event> after_last;
      if (last()) after_last.push_back(last);
      cl::Event ran;
      md.queues[d].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange,
                                        after_last.empty() ? nullptr : &after_last, &ran);
      expected_add += static_cast<cl_int>(d + 1) * 10;

      std::vector<cl::Event> after_kernel{ran};
      auto *mapped = static_cast<cl_int *>(md.queues[mapper].enqueueMapBuffer(
          buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kBytes, &after_kernel));
      CHECK(mapped == host);
      int wrong = 0;
      for (size_t i = 0; i < kCount; ++i) wrong += mapped[i] != static_cast<cl_int>(i) + expected_add;
      CHECK(wrong == 0);
      // A host write through the map is what the next kernel must see.
      for (size_t i = 0; i < kCount; ++i) mapped[i] += 1000;
      expected_add += 1000;
      md.queues[mapper].enqueueUnmapMemObject(buffer, mapped, nullptr, &last);
    }
  }
  last.wait();
  std::vector<cl_int> result(kCount, -1);
  md.queues[0].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, result.data());
  CHECK(result[kCount - 1] == static_cast<cl_int>(kCount - 1) + expected_add);
}

TEST_CASE("USE_HOST_PTR map with an offset returns host_ptr plus offset", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  alignas(4096) static cl_int host[kCount];
  for (size_t i = 0; i < kCount; ++i) host[i] = 1;
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kBytes, host);
  size_t last = md.size() - 1;
  cl::Kernel kernel(program, "add");
  kernel.setArg(0, buffer);
  kernel.setArg(1, 5);
  cl::Event ran;
  md.queues[last].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &ran);
  std::vector<cl::Event> wait{ran};
  const size_t offset = 8 * sizeof(cl_int);
  auto *mapped = static_cast<cl_int *>(
      md.queues[0].enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ, offset, 4 * sizeof(cl_int), &wait));
  CHECK(mapped == host + 8);
  for (int i = 0; i < 4; ++i) CHECK(mapped[i] == 6);
  md.queues[0].enqueueUnmapMemObject(buffer, mapped);
  md.queues[0].finish();
}

TEST_CASE("USE_HOST_PTR buffer written on the host before use reaches every device", "[coherence]") {
  cltest::MultiDevice md;
  alignas(4096) static cl_int host[kCount];
  for (size_t i = 0; i < kCount; ++i) host[i] = static_cast<cl_int>(100 + i);
  cl::Buffer buffer(md.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, kBytes, host);
  for (size_t d = 0; d < md.size(); ++d) {
    std::vector<cl_int> result(kCount, -1);
    md.queues[d].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, result.data());
    INFO("read on " << md.name(d));
    CHECK(std::equal(result.begin(), result.end(), host));
  }
}
