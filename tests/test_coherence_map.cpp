// Mapping in a multi-vendor context: data written through a map on one
// queue is what a kernel on another vendor's device reads once the unmap is
// done, and a read map on one queue sees a kernel's output from another.
#include <catch2/catch.hpp>

#include <cstring>

#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void add_one(__global int *a) { a[get_global_id(0)] += 1; }
)CL";

constexpr size_t kCount = 40;
constexpr size_t kBytes = kCount * sizeof(cl_int);

}  // namespace

TEST_CASE("map for write on one queue, kernel on another device", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  for (size_t mapper = 0; mapper < md.size(); ++mapper) {
    for (cl_map_flags flags : {cl_map_flags{CL_MAP_WRITE}, cl_map_flags{CL_MAP_WRITE_INVALIDATE_REGION}}) {
      size_t runner = (mapper + 1) % md.size();
      INFO("mapped on " << md.name(mapper) << " with flags " << flags << ", kernel on " << md.name(runner));
      cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
      auto *p = static_cast<cl_int *>(md.queues[mapper].enqueueMapBuffer(buffer, CL_TRUE, flags, 0, kBytes));
      for (size_t i = 0; i < kCount; ++i) p[i] = static_cast<cl_int>(i * i);
      cl::Event unmapped;
      md.queues[mapper].enqueueUnmapMemObject(buffer, p, nullptr, &unmapped);

      cl::Kernel kernel(program, "add_one");
      kernel.setArg(0, buffer);
      std::vector<cl::Event> wait{unmapped};
      cl::Event ran;
      md.queues[runner].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &wait, &ran);

      // Read the result back through a map on a third queue.
      size_t reader = (mapper + 2) % md.size();
      std::vector<cl::Event> after{ran};
      auto *r = static_cast<cl_int *>(md.queues[reader].enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ, 0, kBytes, &after));
      int wrong = 0;
      for (size_t i = 0; i < kCount; ++i) wrong += r[i] != static_cast<cl_int>(i * i + 1);
      CHECK(wrong == 0);
      md.queues[reader].enqueueUnmapMemObject(buffer, r);
      md.queues[reader].finish();
    }
  }
}

TEST_CASE("partial write map keeps the bytes outside the mapped range", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  size_t writer = 0, mapper = 1 % md.size(), reader = 2 % md.size();
  std::vector<cl_int> zeros(kCount, 0);
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  cl::Kernel kernel(program, "add_one");
  kernel.setArg(0, buffer);
  cl::Event written, ran;
  md.queues[writer].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, zeros.data(), nullptr, &written);
  std::vector<cl::Event> w{written};
  md.queues[writer].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &w, &ran);
  std::vector<cl::Event> after{ran};
  // Map only the second quarter for writing on another device's queue.
  auto *p = static_cast<cl_int *>(
      md.queues[mapper].enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_WRITE, kBytes / 4, kBytes / 4, &after));
  for (size_t i = 0; i < kCount / 4; ++i) p[i] = 77;
  cl::Event unmapped;
  md.queues[mapper].enqueueUnmapMemObject(buffer, p, nullptr, &unmapped);
  std::vector<cl_int> got(kCount, -1);
  std::vector<cl::Event> wait{unmapped};
  md.queues[reader].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, got.data(), &wait);
  int wrong = 0;
  for (size_t i = 0; i < kCount; ++i) wrong += got[i] != ((i >= kCount / 4 && i < kCount / 2) ? 77 : 1);
  CHECK(wrong == 0);
}
