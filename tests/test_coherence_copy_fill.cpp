// Copies and fills in a multi-vendor context: a copy between buffers last
// written on different devices, issued on a third, and a fill whose result
// is read and used elsewhere.
#include <catch2/catch.hpp>

#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void set(__global int *a, int v) { a[get_global_id(0)] = v + (int)get_global_id(0); }
__kernel void twice(__global int *a) { a[get_global_id(0)] *= 2; }
)CL";

constexpr size_t kCount = 48;
constexpr size_t kBytes = kCount * sizeof(cl_int);

}  // namespace

TEST_CASE("copy between buffers written on different devices", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  for (size_t src_dev = 0; src_dev < md.size(); ++src_dev) {
    size_t dst_dev = (src_dev + 1) % md.size();
    size_t copy_dev = (src_dev + 2) % md.size();
    INFO("source written on " << md.name(src_dev) << ", destination on " << md.name(dst_dev) << ", copy on "
                              << md.name(copy_dev));
    cl::Buffer src(md.context, CL_MEM_READ_WRITE, kBytes), dst(md.context, CL_MEM_READ_WRITE, kBytes);
    cl::Kernel set_src(program, "set"), set_dst(program, "set");
    set_src.setArg(0, src);
    set_src.setArg(1, 100);
    set_dst.setArg(0, dst);
    set_dst.setArg(1, -100);
    std::vector<cl::Event> written(2);
    md.queues[src_dev].enqueueNDRangeKernel(set_src, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &written[0]);
    md.queues[dst_dev].enqueueNDRangeKernel(set_dst, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &written[1]);
    // Copy the middle half of src over the first half of dst.
    cl::Event copied;
    md.queues[copy_dev].enqueueCopyBuffer(src, dst, kBytes / 4, 0, kBytes / 2, &written, &copied);
    for (size_t reader = 0; reader < md.size(); ++reader) {
      INFO("read on " << md.name(reader));
      std::vector<cl_int> got(kCount, 0);
      std::vector<cl::Event> wait{copied};
      md.queues[reader].enqueueReadBuffer(dst, CL_TRUE, 0, kBytes, got.data(), &wait);
      int wrong = 0;
      for (size_t i = 0; i < kCount / 2; ++i) wrong += got[i] != static_cast<cl_int>(100 + kCount / 4 + i);
      for (size_t i = kCount / 2; i < kCount; ++i) wrong += got[i] != static_cast<cl_int>(-100 + i);
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("fill on one device, read and used on the others", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  for (size_t filler = 0; filler < md.size(); ++filler) {
    size_t user = (filler + 1) % md.size();
    size_t reader = (filler + 2) % md.size();
    INFO("fill on " << md.name(filler) << ", kernel on " << md.name(user) << ", read on " << md.name(reader));
    std::vector<cl_int> initial(kCount, 1);
    cl::Buffer buffer(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
    cl::Event filled;
    // Fill the second half only: the first keeps its initial bytes.
    md.queues[filler].enqueueFillBuffer(buffer, cl_int{21}, kBytes / 2, kBytes / 2, nullptr, &filled);

    std::vector<cl_int> seen(kCount, 0);
    std::vector<cl::Event> after_fill{filled};
    md.queues[reader].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, seen.data(), &after_fill);
    int wrong = 0;
    for (size_t i = 0; i < kCount; ++i) wrong += seen[i] != (i < kCount / 2 ? 1 : 21);
    CHECK(wrong == 0);

    cl::Kernel twice(program, "twice");
    twice.setArg(0, buffer);
    cl::Event doubled;
    md.queues[user].enqueueNDRangeKernel(twice, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &after_fill, &doubled);
    std::vector<cl::Event> after_kernel{doubled};
    md.queues[reader].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, seen.data(), &after_kernel);
    wrong = 0;
    for (size_t i = 0; i < kCount; ++i) wrong += seen[i] != (i < kCount / 2 ? 2 : 42);
    CHECK(wrong == 0);
  }
}
