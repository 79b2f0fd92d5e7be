// Coherence per byte range: two devices writing disjoint parts of one
// buffer (through sub-buffers, or with offsets) do not wait for each other,
// and UniCL moves the parts, not the whole buffer back and forth
// (CL_CONTEXT_BYTES_MOVED_UNICL counts every byte it copies).
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include <CL/cl_ext_unicl.h>

#include "multi_device.hpp"

namespace {

// Each work-item runs `rounds` steps of a linear congruential generator on
// its element: long on one device, short on the other.
const char *kSource = R"CL(
__kernel void churn(__global uint *a, uint rounds) {
  size_t i = get_global_id(0);
  uint v = a[i];
  for (uint r = 0; r < rounds; ++r) v = v * 1103515245u + 12345u;
  a[i] = v;
}
)CL";

cl_uint churn(cl_uint v, cl_uint rounds) {
  for (cl_uint r = 0; r < rounds; ++r) v = v * 1103515245u + 12345u;
  return v;
}

cl_ulong bytes_moved(const cl::Context &ctx) {
  cl_ulong moved = 0;
  REQUIRE(clGetContextInfo(ctx(), CL_CONTEXT_BYTES_MOVED_UNICL, sizeof moved, &moved, nullptr) == CL_SUCCESS);
  return moved;
}

cl_int status(const cl::Event &e) { return e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(); }

cl::Buffer sub_buffer(cl::Buffer &parent, size_t origin, size_t size) {
  cl_buffer_region region{origin, size};
  return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
}

clSetKernelSplitUNICL_fn set_split() {
  auto fn = reinterpret_cast<clSetKernelSplitUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(cltest::platform()(), "clSetKernelSplitUNICL"));
  REQUIRE(fn);
  return fn;
}


// How each device's kernel reaches its half of the buffer.
enum class Halves { kSubBuffers, kGlobalOffsets };

// PoCL pthread and `other` each update their half of one buffer: a long
// kernel on pthread, a short one on the other device. The short one is
// launched once the long one runs, and must finish while it still runs:
// it waited neither for it nor for its bytes; each half moves to its
// device once.
void update_halves(const char *other, Halves how) {
  INFO("pthread + " << other);
  cltest::MultiDevice md(std::vector<std::string>{"pthread", other});
  REQUIRE(md.size() == 2);
  size_t slow = md.find("pthread"), fast = 1 - slow;
  cl::Context &ctx = md.context;
  cl::Program program = cltest::build(ctx, kSource);
  // Halves of whole alignment units (sub-buffer origins must be aligned),
  // small enough for oclgrind, which simulates every work-item.
  const size_t half_bytes = std::max<size_t>(md.base_align(), 4096);
  const size_t half = half_bytes / sizeof(cl_uint);
  std::vector<cl_uint> initial(2 * half);
  for (size_t i = 0; i < initial.size(); ++i) initial[i] = static_cast<cl_uint>(i);
  cl::Buffer whole(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2 * half_bytes, initial.data());
  cl::CommandQueue queue[2] = {cl::CommandQueue(ctx, md.devices[slow], CL_QUEUE_PROFILING_ENABLE),
                               cl::CommandQueue(ctx, md.devices[fast], CL_QUEUE_PROFILING_ENABLE)};
  const cl_uint rounds[2] = {400000, 1};  // about a second on pthread; next to nothing on the other

  cl::Buffer part[2] = {sub_buffer(whole, 0, half_bytes), sub_buffer(whole, half_bytes, half_bytes)};
  cl::Event done[2];
  auto launch = [&](int d) {
    cl::Kernel k(program, "churn");
    k.setArg(1, rounds[d]);
    if (how == Halves::kSubBuffers) {
      k.setArg(0, part[d]);
      queue[d].enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(half), cl::NullRange, nullptr, &done[d]);
    } else {
      // Index i touches element i of `a` only.
      const cl_kernel_split_arg_unicl a{0, 0, sizeof(cl_uint), sizeof(cl_uint)};
      REQUIRE(set_split()(k(), 0, 1, &a) == CL_SUCCESS);
      k.setArg(0, whole);
      queue[d].enqueueNDRangeKernel(k, cl::NDRange(d * half), cl::NDRange(half), cl::NullRange, nullptr, &done[d]);
    }
    queue[d].flush();
  };
  launch(0);
  for (int i = 0; i < 2000 && status(done[0]) > CL_RUNNING; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  launch(1);
  queue[1].finish();
  CHECK(status(done[0]) != CL_COMPLETE);
  queue[0].finish();
  REQUIRE(status(done[0]) == CL_COMPLETE);
  REQUIRE(status(done[1]) == CL_COMPLETE);
  if (std::string(other) == "basic") {  // one vendor, one clock: the profiled runs overlap
    auto start = [](cl::Event &e) { return e.getProfilingInfo<CL_PROFILING_COMMAND_START>(); };
    auto end = [](cl::Event &e) { return e.getProfilingInfo<CL_PROFILING_COMMAND_END>(); };
    INFO("long " << start(done[0]) << ".." << end(done[0]) << ", short " << start(done[1]) << ".." << end(done[1]));
    CHECK(std::max(start(done[0]), start(done[1])) < std::min(end(done[0]), end(done[1])));
  }

  // Each half went up to its device once; reading the whole buffer reads
  // each half from the device that holds it, straight into `out`: nothing
  // more moves.
  CHECK(bytes_moved(ctx) == 2 * half_bytes);
  std::vector<cl_uint> out(2 * half);
  queue[0].enqueueReadBuffer(whole, CL_TRUE, 0, 2 * half_bytes, out.data());
  CHECK(bytes_moved(ctx) == 2 * half_bytes);
  bool right = true;
  for (size_t i = 0; i < 2 * half; ++i) right &= out[i] == churn(initial[i], rounds[i < half ? 0 : 1]);
  CHECK(right);
}

}  // namespace

TEST_CASE("two devices update disjoint sub-buffers of one buffer at the same time", "[coherence][ranges]") {
  for (const char *other : {"basic", "Oclgrind"}) update_halves(other, Halves::kSubBuffers);
}

TEST_CASE("two devices update disjoint halves of one buffer through global offsets at the same time",
          "[coherence][ranges][split]") {
  for (const char *other : {"basic", "Oclgrind"}) update_halves(other, Halves::kGlobalOffsets);
}

TEST_CASE("a declared halo moves with its part; an undeclared argument is taken whole", "[coherence][ranges][split]") {
  auto split = set_split();
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  REQUIRE(md.size() == 2);
  cl::Context &ctx = md.context;
  // out[i] = in[i-1] + in[i] + in[i+1], inside the buffer.
  cl::Program program = cltest::build(ctx, R"CL(
__kernel void blur(__global const uint *in, __global uint *out, uint n) {
  size_t i = get_global_id(0);
  out[i] = (i > 0 ? in[i - 1] : 0u) + in[i] + (i + 1 < n ? in[i + 1] : 0u);
}
)CL");
  const size_t n = 4096, bytes = n * sizeof(cl_uint);
  std::vector<cl_uint> initial(n);
  for (size_t i = 0; i < n; ++i) initial[i] = static_cast<cl_uint>(7 * i + 3);
  cl::Buffer in(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, initial.data());
  cl::Buffer out(ctx, CL_MEM_WRITE_ONLY, bytes);
  cl::Kernel k(program, "blur");
  const cl_kernel_split_arg_unicl parts[] = {{0, -static_cast<cl_long>(sizeof(cl_uint)), sizeof(cl_uint),
                                              3 * sizeof(cl_uint)},
                                             {1, 0, sizeof(cl_uint), sizeof(cl_uint)}};
  REQUIRE(split(k(), 0, 2, parts) == CL_SUCCESS);
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, static_cast<cl_uint>(n));
  // A quarter in the middle on device 1: its part of `in` and one element
  // either side go up; `out` is only written, nothing of it moves.
  const size_t quarter = n / 4;
  md.queues[1].enqueueNDRangeKernel(k, cl::NDRange(quarter), cl::NDRange(quarter), cl::NullRange);
  md.queues[1].finish();
  CHECK(bytes_moved(ctx) == (quarter + 2) * sizeof(cl_uint));
  std::vector<cl_uint> got(quarter);
  md.queues[1].enqueueReadBuffer(out, CL_TRUE, quarter * sizeof(cl_uint), quarter * sizeof(cl_uint), got.data());
  bool right = true;
  for (size_t i = 0; i < quarter; ++i) right &= got[i] == initial[quarter + i - 1] + initial[quarter + i] +
                                                           initial[quarter + i + 1];
  CHECK(right);

  // Without the declaration the launch takes its buffers whole: all of
  // `in` that is not on device 0 yet goes up (it was made from host memory).
  REQUIRE(split(k(), 0, 0, nullptr) == CL_SUCCESS);
  cl_ulong before = bytes_moved(ctx);
  md.queues[0].enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(quarter), cl::NullRange);
  md.queues[0].finish();
  CHECK(bytes_moved(ctx) - before >= bytes);
}

TEST_CASE("writes and fills at offsets on two devices move only the other part", "[coherence][ranges]") {
  for (const char *other : {"basic", "Oclgrind"}) {
    INFO("pthread + " << other);
    cltest::MultiDevice md(std::vector<std::string>{"pthread", other});
    REQUIRE(md.size() == 2);
    cl::Context &ctx = md.context;
    const size_t half = 1 << 16, half_bytes = half * sizeof(cl_uint);
    cl::Buffer buf(ctx, CL_MEM_READ_WRITE, 2 * half_bytes);
    std::vector<cl_uint> first(half);
    for (size_t i = 0; i < half; ++i) first[i] = static_cast<cl_uint>(3 * i + 1);
    cl_uint pattern = 0xabcdef01u;
    // Each command writes every byte of its part: nothing moves in first.
    md.queues[0].enqueueWriteBuffer(buf, CL_FALSE, 0, half_bytes, first.data());
    md.queues[1].enqueueFillBuffer(buf, pattern, half_bytes, half_bytes);
    md.queues[0].finish();
    md.queues[1].finish();
    CHECK(bytes_moved(ctx) == 0);

    // Reading a part where it was written moves nothing either.
    std::vector<cl_uint> part(half);
    md.queues[1].enqueueReadBuffer(buf, CL_TRUE, half_bytes, half_bytes, part.data());
    CHECK(bytes_moved(ctx) == 0);
    CHECK(std::all_of(part.begin(), part.end(), [&](cl_uint v) { return v == pattern; }));

    // Reading all of it on the second device reads each part where it was
    // written: still nothing moves.
    std::vector<cl_uint> out(2 * half);
    md.queues[1].enqueueReadBuffer(buf, CL_TRUE, 0, 2 * half_bytes, out.data());
    CHECK(bytes_moved(ctx) == 0);
    CHECK(std::equal(first.begin(), first.end(), out.begin()));
    CHECK(std::all_of(out.begin() + half, out.end(), [&](cl_uint v) { return v == pattern; }));
  }
}
