// Buffers: real bytes, and device memory accounting (timing.conf).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "sim_test.hpp"

using namespace simtest;

namespace {

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 31 + seed);
  return v;
}

}  // namespace

TEST_CASE("Write then read gives the bytes back", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "cpu0");
  auto ctx = context_for({d});
  auto q = queue_for(ctx.get(), d);
  auto in = pattern(1 << 20, 7);
  std::vector<unsigned char> out(in.size());
  auto b = buffer(ctx.get(), in.size());
  REQUIRE(clEnqueueWriteBuffer(q.get(), b.get(), CL_FALSE, 0, in.size(), in.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(in == out);

  SECTION("at an offset") {
    unsigned char part[100];
    REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 1000, 100, part, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(part, in.data() + 1000, 100) == 0);
    CHECK(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, in.size() - 10, 100, part, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
  }
}

TEST_CASE("Copy, fill, rectangles, maps and sub-buffers move real bytes", "[timing]") {
  cl_device_id d = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({d});
  auto q = queue_for(ctx.get(), d);
  const size_t n = 4096;
  auto in = pattern(n, 3);
  auto a = buffer(ctx.get(), n, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in.data());
  auto b = buffer(ctx.get(), n);
  std::vector<unsigned char> out(n);

  SECTION("copy between buffers") {
    REQUIRE(clEnqueueCopyBuffer(q.get(), a.get(), b.get(), 256, 512, 1024, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 512, 1024, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(out.data(), in.data() + 256, 1024) == 0);
    CHECK(clEnqueueCopyBuffer(q.get(), a.get(), a.get(), 0, 100, 200, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  }
  SECTION("fill with a pattern") {
    const cl_uint word = 0xdeadbeef;
    REQUIRE(clEnqueueFillBuffer(q.get(), b.get(), &word, sizeof word, 64, 128, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_uint> words(32);
    REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 64, 128, words.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    for (cl_uint w : words) CHECK(w == word);
    CHECK(clEnqueueFillBuffer(q.get(), b.get(), &word, 3, 0, 12, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  }
  SECTION("rectangles") {
    // A 16x8 box at (4, 2) of a buffer seen as 64-byte rows, to the host as 16-byte rows.
    size_t buffer_origin[3] = {4, 2, 0}, host_origin[3] = {0, 0, 0}, region[3] = {16, 8, 1};
    std::vector<unsigned char> box(16 * 8);
    REQUIRE(clEnqueueReadBufferRect(q.get(), a.get(), CL_TRUE, buffer_origin, host_origin, region, 64, 0, 16, 0,
                                    box.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    for (size_t y = 0; y < 8; ++y) CHECK(std::memcmp(&box[y * 16], &in[(2 + y) * 64 + 4], 16) == 0);
    REQUIRE(clEnqueueWriteBufferRect(q.get(), b.get(), CL_TRUE, buffer_origin, host_origin, region, 64, 0, 16, 0,
                                     box.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    size_t src_origin[3] = {4, 2, 0}, dst_origin[3] = {0, 0, 0};
    auto c = buffer(ctx.get(), n);
    REQUIRE(clEnqueueCopyBufferRect(q.get(), b.get(), c.get(), src_origin, dst_origin, region, 64, 0, 16, 0, 0,
                                    nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(q.get(), c.get(), CL_TRUE, 0, box.size(), out.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(std::memcmp(out.data(), box.data(), box.size()) == 0);
  }
  SECTION("map and unmap") {
    cl_int err = CL_SUCCESS;
    auto p = static_cast<unsigned char *>(
        clEnqueueMapBuffer(q.get(), a.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 128, 256, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(std::memcmp(p, in.data() + 128, 256) == 0);
    cl_uint maps = 0;
    REQUIRE(clGetMemObjectInfo(a.get(), CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr) == CL_SUCCESS);
    CHECK(maps == 1);
    p[0] = 0x5a;
    REQUIRE(clEnqueueUnmapMemObject(q.get(), a.get(), p, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueUnmapMemObject(q.get(), a.get(), p, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clEnqueueReadBuffer(q.get(), a.get(), CL_TRUE, 128, 1, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(out[0] == 0x5a);
  }
  SECTION("sub-buffers see their parent's bytes") {
    cl_buffer_region region{1024, 512};
    cl_int err = CL_SUCCESS;
    Mem sub(clCreateSubBuffer(a.get(), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(q.get(), sub.get(), CL_TRUE, 0, 512, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(out.data(), in.data() + 1024, 512) == 0);
    cl_buffer_region misaligned{100, 16};
    CHECK(clCreateSubBuffer(a.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err) == nullptr);
    CHECK(err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    // The sub-buffer keeps the bytes alive after its parent is released.
    a.reset();
    REQUIRE(clEnqueueReadBuffer(q.get(), sub.get(), CL_TRUE, 0, 512, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(out.data(), in.data() + 1024, 512) == 0);
  }
  SECTION("CL_MEM_USE_HOST_PTR works on the application's memory") {
    std::vector<unsigned char> host(n, 1);
    auto u = buffer(ctx.get(), n, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.data());
    REQUIRE(clEnqueueCopyBuffer(q.get(), a.get(), u.get(), 0, 0, n, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(q.get()) == CL_SUCCESS);
    CHECK(host == in);
    void *reported = nullptr;
    REQUIRE(clGetMemObjectInfo(u.get(), CL_MEM_HOST_PTR, sizeof reported, &reported, nullptr) == CL_SUCCESS);
    CHECK(reported == host.data());
  }
}

TEST_CASE("Allocating beyond a device's memory fails", "[timing]") {
  // small: memory_mb=64, so at most 64 MiB in all and per buffer.
  cl_platform_id p = sim_platform();
  cl_device_id small = device_named(p, "small");
  auto ctx = context_for({small});
  cl_int err = CL_SUCCESS;
  const size_t mib = 1 << 20;
  CHECK(clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE, 65 * mib, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);  // above CL_DEVICE_MAX_MEM_ALLOC_SIZE

  auto big = buffer(ctx.get(), 48 * mib);
  auto more = buffer(ctx.get(), 16 * mib);
  CHECK(clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE, 1, nullptr, &err) == nullptr);
  CHECK(err == CL_MEM_OBJECT_ALLOCATION_FAILURE);

  SECTION("other contexts on the device share its memory") {
    auto other = context_for({small});
    CHECK(clCreateBuffer(other.get(), CL_MEM_READ_WRITE, 1, nullptr, &err) == nullptr);
    CHECK(err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
  }
  SECTION("a multi-device context needs the memory on every device") {
    auto both = context_for({device_named(p, "cpu0"), small});
    CHECK(clCreateBuffer(both.get(), CL_MEM_READ_WRITE, mib, nullptr, &err) == nullptr);
    CHECK(err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    // cpu0 kept nothing of the failed attempt: all its 256 MiB are still free.
    auto cpu_only = context_for({device_named(p, "cpu0")});
    auto half = buffer(cpu_only.get(), 128 * mib);
    auto other_half = buffer(cpu_only.get(), 128 * mib);
  }
  SECTION("released memory is free again once no command uses it") {
    auto q = queue_for(ctx.get(), small);
    std::vector<unsigned char> bytes(mib);
    REQUIRE(clEnqueueWriteBuffer(q.get(), more.get(), CL_TRUE, 0, mib, bytes.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    more.reset();
    auto again = buffer(ctx.get(), 16 * mib);
  }
  SECTION("sub-buffers take no memory of their own") {
    cl_buffer_region region{0, mib};
    Mem sub(clCreateSubBuffer(big.get(), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
    CHECK(err == CL_SUCCESS);
  }
}

TEST_CASE("With move_bytes no, transfers take their modeled time and leave the bytes in place", "[nomove]") {
  cl_device_id d = device_named(sim_platform(), "cpu0");
  auto ctx = context_for({d});
  auto q = queue_for(ctx.get(), d);
  const size_t bytes = 1 << 20;
  auto in = pattern(bytes, 7);
  std::vector<unsigned char> out(bytes, 0);
  auto b = buffer(ctx.get(), bytes);
  const double modeled = 20e-3 + bytes / 0.5e9 * 1e3;  // ms, no_move.conf's link
  cl_event e = nullptr;
  REQUIRE(clEnqueueWriteBuffer(q.get(), b.get(), CL_TRUE, 0, bytes, in.data(), 0, nullptr, &e) == CL_SUCCESS);
  Event write(e);
  CHECK(profiled_ms(e) >= modeled * 0.99);
  REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, bytes, out.data(), 0, nullptr, &e) == CL_SUCCESS);
  Event read(e);
  CHECK(profiled_ms(e) >= modeled * 0.99);
  CHECK(std::count(out.begin(), out.end(), 0) == static_cast<long>(bytes));  // nothing came back
}
