// Buffers: creation flags, read/write/copy/fill, rectangular transfers,
// map/unmap, sub-buffers, host access flags, info and destructor callbacks.
#include <array>
#include <cstring>
#include <numeric>

#include "conformance.hpp"

using namespace conformance;

namespace {

constexpr size_t kInts = 1024;
constexpr size_t kBytes = kInts * sizeof(cl_int);

std::vector<cl_int> read_all(Env &env, const cl::Buffer &b, size_t count) {
  std::vector<cl_int> out(count, -1);
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, count * sizeof(cl_int), out.data());
  return out;
}

cl_uint base_align_bytes(const cl::Device &d) { return d.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8; }

}  // namespace

TEST_CASE("buffers: write then read the whole buffer", "[buffers][oclgrind]") {
  Env env;
  auto data = iota_ints(256, 11);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, data.size() * sizeof(cl_int));
  env.queue.enqueueWriteBuffer(b, CL_TRUE, 0, data.size() * sizeof(cl_int), data.data());
  CHECK(read_all(env, b, data.size()) == data);
}

TEST_CASE("buffers: partial reads and writes at offsets", "[buffers][oclgrind]") {
  Env env;
  std::vector<cl_int> zeros(64, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, zeros.size() * sizeof(cl_int), zeros.data());
  cl_int five[5] = {1, 2, 3, 4, 5};
  env.queue.enqueueWriteBuffer(b, CL_TRUE, 10 * sizeof(cl_int), sizeof five, five);
  cl_int back[3] = {};
  env.queue.enqueueReadBuffer(b, CL_TRUE, 11 * sizeof(cl_int), sizeof back, back);
  CHECK(back[0] == 2);
  CHECK(back[1] == 3);
  CHECK(back[2] == 4);
  auto all = read_all(env, b, 64);
  CHECK(all[9] == 0);
  CHECK(all[15] == 0);
}

// A non-blocking write reads its host memory when it runs, not when it is
// enqueued: after a read into the same memory that was enqueued before it
// (on an in-order queue, or in its wait list), or after a user event the
// application sets once it has filled the memory.
TEST_CASE("buffers: a write sends the host memory as it is when the write runs", "[buffers][oclgrind]") {
  Env env;
  for (size_t ints : {size_t{64}, size_t{64} << 10}) {  // small, and larger than a message's inline bytes
    INFO(ints << " ints");
    auto data = iota_ints(ints, 7);
    const size_t bytes = ints * sizeof(cl_int);
    cl::Buffer from(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, data.data());
    cl::Buffer to(env.context, CL_MEM_READ_WRITE, bytes);
    cl::Buffer third(env.context, CL_MEM_READ_WRITE, bytes);
    std::vector<cl_int> host(ints, -1);
    // In queue order: read into `host`, then write `host` on.
    REQUIRE_CL(clEnqueueReadBuffer(env.queue(), from(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr),
               CL_SUCCESS);
    REQUIRE_CL(clEnqueueWriteBuffer(env.queue(), to(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr),
               CL_SUCCESS);
    env.queue.finish();
    CHECK(read_all(env, to, ints) == data);
    // Through a wait list, from another queue.
    cl::CommandQueue other(env.context, env.device);
    std::fill(host.begin(), host.end(), -1);
    cl_event read = nullptr;
    REQUIRE_CL(clEnqueueReadBuffer(env.queue(), from(), CL_FALSE, 0, bytes, host.data(), 0, nullptr, &read),
               CL_SUCCESS);
    REQUIRE_CL(clEnqueueWriteBuffer(other(), third(), CL_FALSE, 0, bytes, host.data(), 1, &read, nullptr), CL_SUCCESS);
    other.finish();
    clReleaseEvent(read);
    CHECK(read_all(env, third, ints) == data);
    // Behind a user event the application sets once the memory is filled.
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env.context(), &err);
    REQUIRE_CL(err, CL_SUCCESS);
    std::fill(host.begin(), host.end(), -1);
    REQUIRE_CL(clEnqueueWriteBuffer(env.queue(), to(), CL_FALSE, 0, bytes, host.data(), 1, &gate, nullptr), CL_SUCCESS);
    auto later = iota_ints(ints, 1000);
    std::copy(later.begin(), later.end(), host.begin());
    REQUIRE_CL(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    env.queue.finish();
    clReleaseEvent(gate);
    CHECK(read_all(env, to, ints) == later);
  }
}

TEST_CASE("buffers: COPY_HOST_PTR takes a snapshot of host memory", "[buffers][oclgrind]") {
  Env env;
  auto data = iota_ints(128, 100);
  cl::Buffer b(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
  auto expected = data;
  std::fill(data.begin(), data.end(), 0);  // later host changes do not reach the buffer
  CHECK(read_all(env, b, expected.size()) == expected);
  CHECK(mem_scalar<void *>(b, CL_MEM_HOST_PTR) == nullptr);
}

TEST_CASE("buffers: USE_HOST_PTR maps into the application's memory", "[buffers]") {
  Env env;
  std::vector<cl_int> host = iota_ints(kInts);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kBytes, host.data());
  CHECK(mem_scalar<void *>(b, CL_MEM_HOST_PTR) == host.data());
  cl_int err;
  void *p = env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 64, nullptr, nullptr, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(p == reinterpret_cast<char *>(host.data()) + 16);
  static_cast<cl_int *>(p)[0] = -7;
  env.queue.enqueueUnmapMemObject(b, p);
  cl_int back = 0;
  env.queue.enqueueReadBuffer(b, CL_TRUE, 16, sizeof back, &back);
  CHECK(back == -7);
}

TEST_CASE("buffers: USE_HOST_PTR contents are current after a kernel and map", "[buffers]") {
  Env env;
  std::vector<cl_int> host = iota_ints(64);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.size() * sizeof(cl_int), host.data());
  auto program = build(env.context, "kernel void neg(global int *a) { a[get_global_id(0)] = -a[get_global_id(0)]; }");
  cl::Kernel k(program, "neg");
  k.setArg(0, b);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(host.size()));
  void *p = env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, 0, host.size() * sizeof(cl_int));
  CHECK(p == host.data());
  for (size_t i = 0; i < host.size(); ++i) CHECK(host[i] == -static_cast<cl_int>(i));
  env.queue.enqueueUnmapMemObject(b, p);
  env.queue.finish();
}

TEST_CASE("buffers: ALLOC_HOST_PTR buffers map, write and read back", "[buffers]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, kBytes);
  auto *p = static_cast<cl_int *>(env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_WRITE, 0, kBytes));
  for (size_t i = 0; i < kInts; ++i) p[i] = static_cast<cl_int>(3 * i);
  env.queue.enqueueUnmapMemObject(b, p);
  auto back = read_all(env, b, kInts);
  for (size_t i = 0; i < kInts; ++i) CHECK(back[i] == static_cast<cl_int>(3 * i));
}

TEST_CASE("buffers: ALLOC_HOST_PTR with COPY_HOST_PTR copies the initial data", "[buffers]") {
  Env env;
  auto data = iota_ints(kInts, -50);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, kBytes, data.data());
  CHECK(read_all(env, b, kInts) == data);
}

TEST_CASE("buffers: memory object info", "[buffers][oclgrind]") {
  Env env;
  cl::Buffer b(env.context, 0, 4096);
  CHECK(mem_scalar<cl_mem_object_type>(b, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
  // The flags as given, or with READ_WRITE, the default access, filled in.
  auto flags = mem_scalar<cl_mem_flags>(b, CL_MEM_FLAGS);
  CHECK((flags == 0 || flags == CL_MEM_READ_WRITE));
  CHECK(mem_scalar<size_t>(b, CL_MEM_SIZE) == 4096);
  CHECK(mem_scalar<void *>(b, CL_MEM_HOST_PTR) == nullptr);
  CHECK(mem_scalar<cl_uint>(b, CL_MEM_MAP_COUNT) == 0);
  CHECK(mem_scalar<cl_uint>(b, CL_MEM_REFERENCE_COUNT) == 1);
  CHECK(mem_scalar<cl_context>(b, CL_MEM_CONTEXT) == env.context());
  CHECK(mem_scalar<cl_mem>(b, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
  CHECK(mem_scalar<size_t>(b, CL_MEM_OFFSET) == 0);
  cl::Buffer ro(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64);
  CHECK(mem_scalar<cl_mem_flags>(ro, CL_MEM_FLAGS) == (CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
}

TEST_CASE("buffers: info errors", "[buffers][errors][oclgrind]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  size_t size = 0;
  CHECK_CL(clGetMemObjectInfo(b(), 0x7fffu, sizeof size, &size, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetMemObjectInfo(b(), CL_MEM_SIZE, 1, &size, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
}

TEST_CASE("buffers: retain and release count references", "[buffers][oclgrind]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  REQUIRE_CL(clRetainMemObject(b()), CL_SUCCESS);
  CHECK(mem_scalar<cl_uint>(b, CL_MEM_REFERENCE_COUNT) == 2);
  REQUIRE_CL(clReleaseMemObject(b()), CL_SUCCESS);
  CHECK(mem_scalar<cl_uint>(b, CL_MEM_REFERENCE_COUNT) == 1);
}

TEST_CASE("buffers: fill with every pattern size", "[buffers]") {
  Env env;
  size_t pattern_size = GENERATE(1, 2, 4, 8, 16, 32, 64, 128);
  std::vector<unsigned char> pattern(pattern_size);
  for (size_t i = 0; i < pattern_size; ++i) pattern[i] = static_cast<unsigned char>(0xa0 + i);
  const size_t size = 1024;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, size);
  REQUIRE_CL(clEnqueueFillBuffer(env.queue(), b(), pattern.data(), pattern_size, 0, size, 0, nullptr, nullptr),
             CL_SUCCESS);
  std::vector<unsigned char> back(size);
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, size, back.data());
  for (size_t i = 0; i < size; ++i) REQUIRE(back[i] == pattern[i % pattern_size]);
}

TEST_CASE("buffers: fill a region leaves the rest", "[buffers][oclgrind]") {
  Env env;
  std::vector<cl_int> zeros(64, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), zeros.data());
  env.queue.enqueueFillBuffer(b, cl_int{9}, 8 * sizeof(cl_int), 4 * sizeof(cl_int));
  auto back = read_all(env, b, 64);
  for (size_t i = 0; i < 64; ++i) CHECK(back[i] == ((i >= 8 && i < 12) ? 9 : 0));
}

TEST_CASE("buffers: fill errors", "[buffers][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  unsigned char pattern[8] = {};
  CHECK_CL(clEnqueueFillBuffer(env.queue(), b(), pattern, 3, 0, 63, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueFillBuffer(env.queue(), b(), nullptr, 4, 0, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueFillBuffer(env.queue(), b(), pattern, 4, 2, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueFillBuffer(env.queue(), b(), pattern, 4, 0, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueFillBuffer(env.queue(), b(), pattern, 4, 60, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("buffers: copy between buffers with offsets", "[buffers][oclgrind]") {
  Env env;
  auto src_data = iota_ints(64, 1000);
  std::vector<cl_int> zeros(64, 0);
  cl::Buffer src(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), src_data.data());
  cl::Buffer dst(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), zeros.data());
  env.queue.enqueueCopyBuffer(src, dst, 4 * sizeof(cl_int), 20 * sizeof(cl_int), 10 * sizeof(cl_int));
  auto back = read_all(env, dst, 64);
  for (size_t i = 0; i < 64; ++i) CHECK(back[i] == ((i >= 20 && i < 30) ? 1000 + static_cast<cl_int>(i) - 16 : 0));
}

TEST_CASE("buffers: copy within one buffer without overlap", "[buffers]") {
  Env env;
  auto data = iota_ints(64);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), data.data());
  env.queue.enqueueCopyBuffer(b, b, 0, 32 * sizeof(cl_int), 32 * sizeof(cl_int));
  auto back = read_all(env, b, 64);
  for (size_t i = 0; i < 64; ++i) CHECK(back[i] == static_cast<cl_int>(i % 32));
}

TEST_CASE("buffers: copy errors", "[buffers][errors]") {
  Env env;
  cl::Buffer a(env.context, CL_MEM_READ_WRITE, 64);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), a(), a(), 0, 16, 32, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), a(), b(), 40, 0, 32, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), a(), b(), 0, 40, 32, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), a(), b(), 0, 0, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueCopyBuffer(env.queue(), a(), nullptr, 0, 0, 4, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
}

TEST_CASE("buffers: read and write errors", "[buffers][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  char host[128] = {};
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 32, 64, host, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueWriteBuffer(env.queue(), b(), CL_TRUE, 0, 65, host, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueReadBuffer(env.queue(), nullptr, CL_TRUE, 0, 16, host, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clEnqueueReadBuffer(nullptr, b(), CL_TRUE, 0, 16, host, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 0, 16, host, 1, nullptr, nullptr),
           CL_INVALID_EVENT_WAIT_LIST);
}

TEST_CASE("buffers: rectangular write and read of a 2D region", "[buffers][rect][oclgrind]") {
  Env env;
  // An 8x8 int matrix in the buffer; the host holds a 4x3 block.
  const size_t w = 8, h = 8;
  std::vector<cl_int> zeros(w * h, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, w * h * sizeof(cl_int), zeros.data());
  std::vector<cl_int> block = iota_ints(12, 1);
  std::array<size_t, 3> buffer_origin{2 * sizeof(cl_int), 3, 0}, host_origin{0, 0, 0},
      region{4 * sizeof(cl_int), 3, 1};
  env.queue.enqueueWriteBufferRect(b, CL_TRUE, buffer_origin, host_origin, region, w * sizeof(cl_int), 0,
                                   4 * sizeof(cl_int), 0, block.data());
  auto all = read_all(env, b, w * h);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      bool inside = x >= 2 && x < 6 && y >= 3 && y < 6;
      CHECK(all[y * w + x] == (inside ? block[(y - 3) * 4 + (x - 2)] : 0));
    }
  // Read the block back into the middle of a larger host array.
  std::vector<cl_int> host(6 * 5, -1);
  std::array<size_t, 3> into{1 * sizeof(cl_int), 1, 0};
  env.queue.enqueueReadBufferRect(b, CL_TRUE, buffer_origin, into, region, w * sizeof(cl_int), 0,
                                  6 * sizeof(cl_int), 0, host.data());
  for (size_t y = 0; y < 3; ++y)
    for (size_t x = 0; x < 4; ++x) CHECK(host[(y + 1) * 6 + x + 1] == block[y * 4 + x]);
  CHECK(host[0] == -1);
}

TEST_CASE("buffers: rectangular transfer of a 3D region with slice pitches", "[buffers][rect]") {
  Env env;
  const size_t w = 4, h = 4, d = 4;
  auto data = iota_ints(w * h * d);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
  std::array<size_t, 3> origin{1 * sizeof(cl_int), 1, 1}, zero{0, 0, 0}, region{2 * sizeof(cl_int), 2, 2};
  std::vector<cl_int> out(8, -1);
  env.queue.enqueueReadBufferRect(b, CL_TRUE, origin, zero, region, w * sizeof(cl_int), w * h * sizeof(cl_int),
                                  2 * sizeof(cl_int), 4 * sizeof(cl_int), out.data());
  size_t i = 0;
  for (size_t z = 1; z < 3; ++z)
    for (size_t y = 1; y < 3; ++y)
      for (size_t x = 1; x < 3; ++x) CHECK(out[i++] == data[z * w * h + y * w + x]);
}

TEST_CASE("buffers: rectangular copy between buffers", "[buffers][rect]") {
  Env env;
  const size_t w = 8, h = 4;
  auto data = iota_ints(w * h);
  std::vector<cl_int> zeros(w * h, 0);
  cl::Buffer src(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
  cl::Buffer dst(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, zeros.size() * sizeof(cl_int), zeros.data());
  std::array<size_t, 3> src_origin{0, 1, 0}, dst_origin{4 * sizeof(cl_int), 0, 0}, region{3 * sizeof(cl_int), 2, 1};
  env.queue.enqueueCopyBufferRect(src, dst, src_origin, dst_origin, region, w * sizeof(cl_int), 0,
                                  w * sizeof(cl_int), 0);
  auto back = read_all(env, dst, w * h);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      bool inside = x >= 4 && x < 7 && y < 2;
      CHECK(back[y * w + x] == (inside ? data[(y + 1) * w + (x - 4)] : 0));
    }
}

TEST_CASE("buffers: rectangular transfer errors", "[buffers][rect][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 256);
  std::vector<char> host(256);
  size_t origin[3] = {0, 0, 0};
  size_t zero_region[3] = {0, 1, 1};
  CHECK_CL(clEnqueueReadBufferRect(env.queue(), b(), CL_TRUE, origin, origin, zero_region, 0, 0, 0, 0, host.data(), 0,
                                   nullptr, nullptr),
           CL_INVALID_VALUE);
  size_t region[3] = {16, 4, 1};
  // A row pitch smaller than a row of the region.
  CHECK_CL(clEnqueueReadBufferRect(env.queue(), b(), CL_TRUE, origin, origin, region, 8, 0, 0, 0, host.data(), 0,
                                   nullptr, nullptr),
           CL_INVALID_VALUE);
  // A region reaching past the end of the buffer.
  size_t big[3] = {64, 8, 1};
  CHECK_CL(clEnqueueReadBufferRect(env.queue(), b(), CL_TRUE, origin, origin, big, 64, 0, 64, 0, host.data(), 0,
                                   nullptr, nullptr),
           CL_INVALID_VALUE);
  CHECK_CL(clEnqueueReadBufferRect(env.queue(), b(), CL_TRUE, nullptr, origin, region, 0, 0, 0, 0, host.data(), 0,
                                   nullptr, nullptr),
           CL_INVALID_VALUE);
}

TEST_CASE("buffers: map for reading sees written data", "[buffers][map][oclgrind]") {
  Env env;
  auto data = iota_ints(64, 7);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, data.size() * sizeof(cl_int));
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, data.size() * sizeof(cl_int), data.data());
  auto *p = static_cast<cl_int *>(
      env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, 8 * sizeof(cl_int), 8 * sizeof(cl_int)));
  for (size_t i = 0; i < 8; ++i) CHECK(p[i] == data[i + 8]);
  env.queue.enqueueUnmapMemObject(b, p);
  env.queue.finish();
}

TEST_CASE("buffers: map for writing updates the buffer at unmap", "[buffers][map][oclgrind]") {
  Env env;
  std::vector<cl_int> zeros(64, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), zeros.data());
  auto *p = static_cast<cl_int *>(env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_WRITE, 0, 64 * sizeof(cl_int)));
  for (int i = 0; i < 64; ++i) p[i] = i * i;
  env.queue.enqueueUnmapMemObject(b, p);
  auto back = read_all(env, b, 64);
  for (int i = 0; i < 64; ++i) CHECK(back[i] == i * i);
}

TEST_CASE("buffers: map count follows maps and unmaps", "[buffers][map]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 256);
  void *first = env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, 0, 64);
  void *second = env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, 64, 64);
  CHECK(mem_scalar<cl_uint>(b, CL_MEM_MAP_COUNT) == 2);
  env.queue.enqueueUnmapMemObject(b, first);
  env.queue.enqueueUnmapMemObject(b, second);
  env.queue.finish();
  CHECK(mem_scalar<cl_uint>(b, CL_MEM_MAP_COUNT) == 0);
}

TEST_CASE("buffers: map with WRITE_INVALIDATE_REGION then read back", "[buffers][map]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  auto *p = static_cast<cl_int *>(
      env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 64 * sizeof(cl_int)));
  for (int i = 0; i < 64; ++i) p[i] = 5 * i;
  env.queue.enqueueUnmapMemObject(b, p);
  auto back = read_all(env, b, 64);
  for (int i = 0; i < 64; ++i) CHECK(back[i] == 5 * i);
}

TEST_CASE("buffers: a non-blocking map completes with its event", "[buffers][map]") {
  Env env;
  auto data = iota_ints(32, 40);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 32 * sizeof(cl_int), data.data());
  cl::Event mapped;
  auto *p = static_cast<cl_int *>(
      env.queue.enqueueMapBuffer(b, CL_FALSE, CL_MAP_READ, 0, 32 * sizeof(cl_int), nullptr, &mapped));
  mapped.wait();
  CHECK(mapped.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_MAP_BUFFER);
  for (int i = 0; i < 32; ++i) CHECK(p[i] == 40 + i);
  cl::Event unmapped;
  env.queue.enqueueUnmapMemObject(b, p, nullptr, &unmapped);
  unmapped.wait();
  CHECK(unmapped.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_UNMAP_MEM_OBJECT);
}

TEST_CASE("buffers: map errors", "[buffers][map][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  cl_int err = CL_SUCCESS;
  void *p = clEnqueueMapBuffer(env.queue(), b(), CL_TRUE, CL_MAP_READ, 32, 64, 0, nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  p = clEnqueueMapBuffer(env.queue(), b(), CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  p = clEnqueueMapBuffer(env.queue(), nullptr, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_MEM_OBJECT);
}

// PoCL maps with these flags; the specification makes WRITE_INVALIDATE_REGION
// exclusive of READ and WRITE, and UniCL refuses the mix on every context.
TEST_CASE("buffers: contradictory map flags are CL_INVALID_VALUE", "[buffers][map][errors][unicl]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  cl_int err = CL_SUCCESS;
  void *p = clEnqueueMapBuffer(env.queue(), b(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0,
                               nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  p = clEnqueueMapBuffer(env.queue(), b(), CL_TRUE, cl_map_flags{1} << 10, 0, 64, 0, nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

TEST_CASE("buffers: unmapping a pointer that was not mapped", "[buffers][map][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  void *p = env.queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, 0, 64);
  int unrelated = 0;
  CHECK_CL(clEnqueueUnmapMemObject(env.queue(), b(), &unrelated, 0, nullptr, nullptr), CL_INVALID_VALUE);
  env.queue.enqueueUnmapMemObject(b, p);
  env.queue.finish();
}

TEST_CASE("buffers: sub-buffer info and reads through it", "[buffers][subbuffers][oclgrind]") {
  Env env;
  const size_t align = base_align_bytes(env.device);
  const size_t n = 4 * align / sizeof(cl_int);
  auto data = iota_ints(n);
  cl::Buffer parent(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), data.data());
  cl_buffer_region region{align, 2 * align};
  cl_int err;
  auto sub = adopt<cl::Buffer>(
      clCreateSubBuffer(parent(), CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(mem_scalar<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent());
  CHECK(mem_scalar<size_t>(sub, CL_MEM_OFFSET) == align);
  CHECK(mem_scalar<size_t>(sub, CL_MEM_SIZE) == 2 * align);
  // Host pointer flags are inherited from the parent.
  CHECK(mem_scalar<cl_mem_flags>(sub, CL_MEM_FLAGS) == (CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  // The sub-buffer holds a reference to its parent.
  CHECK(mem_scalar<cl_uint>(parent, CL_MEM_REFERENCE_COUNT) == 2);
  std::vector<cl_int> back(2 * align / sizeof(cl_int));
  env.queue.enqueueReadBuffer(sub, CL_TRUE, 0, 2 * align, back.data());
  for (size_t i = 0; i < back.size(); ++i) CHECK(back[i] == data[align / sizeof(cl_int) + i]);
}

TEST_CASE("buffers: sub-buffer inherits unspecified flags from its parent", "[buffers][subbuffers]") {
  Env env;
  const size_t align = base_align_bytes(env.device);
  cl::Buffer parent(env.context, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 4 * align);
  cl_buffer_region region{0, align};
  cl_int err;
  auto sub = adopt<cl::Buffer>(clCreateSubBuffer(parent(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(mem_scalar<cl_mem_flags>(sub, CL_MEM_FLAGS) == (CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY));
}

TEST_CASE("buffers: writes through a sub-buffer reach the parent", "[buffers][subbuffers][oclgrind]") {
  Env env;
  const size_t align = base_align_bytes(env.device);
  const size_t n = 2 * align / sizeof(cl_int);
  std::vector<cl_int> zeros(n, 0);
  cl::Buffer parent(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), zeros.data());
  cl::Buffer sub = parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                          std::array<size_t, 2>{align, align}.data());
  cl_int v = 31;
  env.queue.enqueueWriteBuffer(sub, CL_TRUE, sizeof(cl_int), sizeof v, &v);
  auto back = read_all(env, parent, n);
  for (size_t i = 0; i < n; ++i) CHECK(back[i] == (i == align / sizeof(cl_int) + 1 ? 31 : 0));
}

TEST_CASE("buffers: a kernel on a sub-buffer touches only its region", "[buffers][subbuffers]") {
  Env env;
  const size_t align = base_align_bytes(env.device);
  const size_t n = 3 * align / sizeof(cl_int), sub_n = align / sizeof(cl_int);
  std::vector<cl_int> ones(n, 1);
  cl::Buffer parent(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), ones.data());
  cl_buffer_region region{align, align};
  cl::Buffer sub = parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  auto program = build(env.context, "kernel void inc(global int *a) { a[get_global_id(0)] += 1; }");
  cl::Kernel k(program, "inc");
  k.setArg(0, sub);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(sub_n));
  auto back = read_all(env, parent, n);
  for (size_t i = 0; i < n; ++i) CHECK(back[i] == ((i >= sub_n && i < 2 * sub_n) ? 2 : 1));
}

TEST_CASE("buffers: sub-buffer errors", "[buffers][subbuffers][errors]") {
  Env env;
  const size_t align = base_align_bytes(env.device);
  cl::Buffer parent(env.context, CL_MEM_READ_WRITE, 4 * align);
  cl_int err = CL_SUCCESS;
  auto make = [&](cl_mem from, cl_mem_flags flags, cl_buffer_region region) {
    return adopt<cl::Buffer>(clCreateSubBuffer(from, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  };
  SECTION("misaligned origin") {
    auto b = make(parent(), 0, {1, 16});
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  }
  SECTION("region past the end") {
    auto b = make(parent(), 0, {2 * align, 3 * align});
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("empty region") {
    auto b = make(parent(), 0, {0, 0});
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_BUFFER_SIZE);
  }
  SECTION("a sub-buffer of a sub-buffer") {
    auto sub = make(parent(), 0, {0, 2 * align});
    REQUIRE_CL(err, CL_SUCCESS);
    auto b = make(sub(), 0, {0, align});
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_MEM_OBJECT);
  }
  SECTION("unknown create type") {
    cl_buffer_region region{0, align};
    auto b = adopt<cl::Buffer>(clCreateSubBuffer(parent(), 0, 0x7fff, &region, &err));
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("host pointer flags") {
    auto b = make(parent(), CL_MEM_USE_HOST_PTR, {0, align});
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("access wider than the parent's") {
    cl::Buffer read_only(env.context, CL_MEM_READ_ONLY, 4 * align);
    auto b = make(read_only(), CL_MEM_READ_WRITE, {0, align});
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
}

TEST_CASE("buffers: creation errors", "[buffers][errors]") {
  Env env;
  cl_int err = CL_SUCCESS;
  int host[16] = {};
  auto make = [&](cl_mem_flags flags, size_t size, void *ptr) {
    return adopt<cl::Buffer>(clCreateBuffer(env.context(), flags, size, ptr, &err));
  };
  SECTION("size zero") {
    CHECK(make(CL_MEM_READ_WRITE, 0, nullptr)() == nullptr);
    CHECK_CL(err, CL_INVALID_BUFFER_SIZE);
  }
  SECTION("two access flags") {
    CHECK(make(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr)() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("USE_HOST_PTR without a pointer") {
    CHECK(make(CL_MEM_USE_HOST_PTR, 64, nullptr)() == nullptr);
    CHECK_CL(err, CL_INVALID_HOST_PTR);
  }
  SECTION("a pointer without a host pointer flag") {
    CHECK(make(CL_MEM_READ_WRITE, 64, host)() == nullptr);
    CHECK_CL(err, CL_INVALID_HOST_PTR);
  }
  SECTION("USE_HOST_PTR with COPY_HOST_PTR") {
    CHECK(make(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host)() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("null context") {
    auto b = adopt<cl::Buffer>(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err));
    CHECK(b() == nullptr);
    CHECK_CL(err, CL_INVALID_CONTEXT);
  }
}

TEST_CASE("buffers: more than the largest allocation is CL_INVALID_BUFFER_SIZE", "[buffers][errors]") {
  Env env;
  auto max_alloc = env.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  cl_int err = CL_SUCCESS;
  auto b = adopt<cl::Buffer>(
      clCreateBuffer(env.context(), CL_MEM_READ_WRITE, static_cast<size_t>(max_alloc) + 1, nullptr, &err));
  CHECK(b() == nullptr);
  CHECK_CL(err, CL_INVALID_BUFFER_SIZE);
}

TEST_CASE("buffers: unknown or conflicting flags are CL_INVALID_VALUE", "[buffers][errors]") {
  Env env;
  cl_int err = CL_SUCCESS;
  auto unknown = adopt<cl::Buffer>(
      clCreateBuffer(env.context(), cl_mem_flags{1} << 40, 64, nullptr, &err));
  CHECK(unknown() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  auto host_flags = adopt<cl::Buffer>(
      clCreateBuffer(env.context(), CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, nullptr, &err));
  CHECK(host_flags() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

TEST_CASE("buffers: host access flags restrict host transfers", "[buffers][errors]") {
  Env env;
  cl_int v = 0;
  cl::Buffer read_only(env.context, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, 64);
  CHECK_CL(clEnqueueWriteBuffer(env.queue(), read_only(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr),
           CL_INVALID_OPERATION);
  CHECK_CL(clEnqueueReadBuffer(env.queue(), read_only(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr), CL_SUCCESS);
  cl::Buffer write_only(env.context, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, 64);
  CHECK_CL(clEnqueueReadBuffer(env.queue(), write_only(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr),
           CL_INVALID_OPERATION);
  CHECK_CL(clEnqueueWriteBuffer(env.queue(), write_only(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr), CL_SUCCESS);
  cl::Buffer none(env.context, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 64);
  cl_int err = CL_SUCCESS;
  void *p = clEnqueueMapBuffer(env.queue(), none(), CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_OPERATION);
}

namespace {
struct DestructorCalls {
  std::atomic<int> count{0};
  cl_mem seen = nullptr;
};
void CL_CALLBACK on_mem_destroyed(cl_mem m, void *data) {
  auto *calls = static_cast<DestructorCalls *>(data);
  calls->seen = m;
  calls->count.fetch_add(1);
}
}  // namespace

TEST_CASE("buffers: destructor callback runs once the buffer is released", "[buffers][oclgrind]") {
  Env env;
  DestructorCalls calls;
  cl_mem raw = nullptr;
  {
    cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
    raw = b();
    REQUIRE_CL(clSetMemObjectDestructorCallback(b(), on_mem_destroyed, &calls), CL_SUCCESS);
    CHECK(calls.count.load() == 0);
  }
  env.queue.finish();
  CHECK(wait_until(calls.count, 1));
  CHECK(calls.count.load() == 1);
  CHECK(calls.seen == raw);
  CHECK_CL(clSetMemObjectDestructorCallback(nullptr, on_mem_destroyed, &calls), CL_INVALID_MEM_OBJECT);
}

TEST_CASE("buffers: migrate to the device and to the host keeps contents", "[buffers]") {
  Env env;
  auto data = iota_ints(64, 9);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), data.data());
  std::vector<cl::Memory> objects{b};
  env.queue.enqueueMigrateMemObjects(objects, 0);
  env.queue.enqueueMigrateMemObjects(objects, CL_MIGRATE_MEM_OBJECT_HOST);
  CHECK(read_all(env, b, 64) == data);
  cl_mem raw = b();
  CHECK_CL(clEnqueueMigrateMemObjects(env.queue(), 1, &raw, cl_mem_migration_flags{1} << 20, 0, nullptr, nullptr),
           CL_INVALID_VALUE);
  CHECK_CL(clEnqueueMigrateMemObjects(env.queue(), 0, nullptr, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("buffers: created with an empty properties list", "[buffers]") {
  if (platform_version() < 300) return;
  Env env;
  cl_mem_properties props[] = {0};
  cl_int err;
  auto b = adopt<cl::Buffer>(clCreateBufferWithProperties(env.context(), props, CL_MEM_READ_WRITE, 64, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  size_t n = 99;
  REQUIRE_CL(clGetMemObjectInfo(b(), CL_MEM_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  CHECK((n == 0 || n == sizeof(cl_mem_properties)));
  cl_mem_properties unknown[] = {0x7fff, 1, 0};
  auto bad = adopt<cl::Buffer>(
      clCreateBufferWithProperties(env.context(), unknown, CL_MEM_READ_WRITE, 64, nullptr, &err));
  CHECK(bad() == nullptr);
  CHECK_CL(err, CL_INVALID_PROPERTY);
}

TEST_CASE("buffers: a kernel reads one buffer and writes another", "[buffers][oclgrind]") {
  Env env;
  auto data = iota_ints(32);
  cl::Buffer in(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 32 * sizeof(cl_int), data.data());
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 32 * sizeof(cl_int));
  auto program = build(env.context,
                       "kernel void sq(global const int *a, global int *b) {"
                       "  size_t i = get_global_id(0); b[i] = a[i] * a[i]; }");
  cl::Kernel k(program, "sq");
  k.setArg(0, in);
  k.setArg(1, out);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(32));
  auto back = read_all(env, out, 32);
  for (int i = 0; i < 32; ++i) CHECK(back[i] == i * i);
}
