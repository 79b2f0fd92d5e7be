// Sub-buffers in a multi-vendor context: a region written through a
// sub-buffer on one device is read through the sub-buffer, and through the
// parent, on other devices; the parts of the parent outside the region keep
// their bytes.
#include <catch2/catch.hpp>

#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void set(__global int *a, int v) { a[get_global_id(0)] = v + (int)get_global_id(0); }
)CL";

cl::Buffer sub_buffer(cl::Buffer &parent, size_t origin, size_t size) {
  cl_buffer_region region{origin, size};
  return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
}

}  // namespace

TEST_CASE("sub-buffers written on one device are read on another", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  const size_t region_bytes = md.base_align();
  const size_t region_ints = region_bytes / sizeof(cl_int);
  const size_t parts = md.size();
  const size_t total_ints = region_ints * (parts + 1);  // one untouched region at the end
  std::vector<cl_int> initial(total_ints, -7);
  cl::Buffer parent(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total_ints * sizeof(cl_int), initial.data());

  // Region r is written by device r with a kernel and read by device r+1.
  std::vector<cl::Buffer> subs;
  std::vector<cl::Event> written(parts);
  for (size_t r = 0; r < parts; ++r) {
    subs.push_back(sub_buffer(parent, r * region_bytes, region_bytes));
    cl::Kernel kernel(program, "set");
    kernel.setArg(0, subs[r]);
    kernel.setArg(1, static_cast<cl_int>(1000 * (r + 1)));
    md.queues[r].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(region_ints), cl::NullRange, nullptr,
                                      &written[r]);
  }
  for (size_t r = 0; r < parts; ++r) {
    size_t reader = (r + 1) % parts;
    INFO("region written on " << md.name(r) << ", read on " << md.name(reader));
    std::vector<cl_int> got(region_ints, -1);
    std::vector<cl::Event> wait{written[r]};
    md.queues[reader].enqueueReadBuffer(subs[r], CL_TRUE, 0, region_bytes, got.data(), &wait);
    int wrong = 0;
    for (size_t i = 0; i < region_ints; ++i) wrong += got[i] != static_cast<cl_int>(1000 * (r + 1) + i);
    CHECK(wrong == 0);
  }
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("parent read on " << md.name(d));
    std::vector<cl_int> whole(total_ints, -1);
    md.queues[d].enqueueReadBuffer(parent, CL_TRUE, 0, total_ints * sizeof(cl_int), whole.data(), &written);
    int wrong = 0;
    for (size_t r = 0; r < parts; ++r)
      for (size_t i = 0; i < region_ints; ++i)
        wrong += whole[r * region_ints + i] != static_cast<cl_int>(1000 * (r + 1) + i);
    for (size_t i = parts * region_ints; i < total_ints; ++i) wrong += whole[i] != -7;
    CHECK(wrong == 0);
  }
}

TEST_CASE("parent written on one device is seen through a sub-buffer on another", "[coherence]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  const size_t align = md.base_align();
  const size_t total_ints = 2 * align / sizeof(cl_int);
  cl::Buffer parent(md.context, CL_MEM_READ_WRITE, total_ints * sizeof(cl_int));
  cl::Kernel kernel(program, "set");
  kernel.setArg(0, parent);
  kernel.setArg(1, 5);
  size_t writer = md.size() - 1;
  cl::Event written;
  md.queues[writer].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(total_ints), cl::NullRange, nullptr,
                                         &written);
  cl::Buffer second_half = sub_buffer(parent, align, align);
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("parent written on " << md.name(writer) << ", sub-buffer read on " << md.name(d));
    std::vector<cl_int> got(align / sizeof(cl_int), -1);
    std::vector<cl::Event> wait{written};
    md.queues[d].enqueueReadBuffer(second_half, CL_TRUE, 0, align, got.data(), &wait);
    int wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != static_cast<cl_int>(5 + align / sizeof(cl_int) + i);
    CHECK(wrong == 0);
  }
}
