// Bad input to the map, unmap and migrate enqueues.
#include <array>

#include "bad_input_targets.hpp"

using namespace bad;

namespace {
// A map call that may wrongly succeed: its pointer is unmapped again.
struct MapResult {
  cl_int err = kUnset;
  void *ptr = nullptr;
};
cl_int settle(cl_command_queue q, cl_mem m, MapResult r) {
  if (r.ptr) {
    clEnqueueUnmapMemObject(q, m, r.ptr, 0, nullptr, nullptr);
    clFinish(q);
  }
  if (r.err != CL_SUCCESS) CHECK(r.ptr == nullptr);
  return r.err;
}
}  // namespace

TEST_CASE("clEnqueueMapBuffer", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    const size_t n = bad::kBufferSize;
    auto map = [&](cl_command_queue x, cl_mem m, cl_map_flags f, size_t off, size_t size, cl_uint k,
                   const cl_event *l) {
      MapResult r;
      r.ptr = clEnqueueMapBuffer(x, m, CL_TRUE, f, off, size, k, l, nullptr, &r.err);
      return settle(t.queue(), m, r);
    };
    check_queues([&](cl_command_queue x) { return map(x, b, CL_MAP_READ, 0, 16, 0, nullptr); });
    check_buffers([&](cl_mem m) { return map(q, m, CL_MAP_READ, 0, 16, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return map(q, b, CL_MAP_READ, 0, 16, k, l); });
    CHECK(map(q, t.image(), CL_MAP_READ, 0, 16, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(map(q, b, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(q, b, cl_map_flags{1} << 10, 0, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(q, b, CL_MAP_READ, n - 8, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(q, b, CL_MAP_READ, 0, 0, 0, nullptr) == CL_INVALID_VALUE);
    cl::Buffer no_access(t.context, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 64);
    CHECK(map(q, no_access(), CL_MAP_READ, 0, 16, 0, nullptr) == CL_INVALID_OPERATION);
    cl::Buffer write_only(t.context, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, 64);
    CHECK(map(q, write_only(), CL_MAP_READ, 0, 16, 0, nullptr) == CL_INVALID_OPERATION);
  }
}

TEST_CASE("clEnqueueMapImage", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image();
    size_t zero[3] = {0, 0, 0}, region[3] = {4, 4, 1};
    auto map = [&](cl_command_queue x, cl_mem m, cl_map_flags f, const size_t *o, const size_t *r, bool pitch,
                   cl_uint k, const cl_event *l) {
      MapResult res;
      size_t row_pitch = 0;
      res.ptr = clEnqueueMapImage(x, m, CL_TRUE, f, o, r, pitch ? &row_pitch : nullptr, nullptr, k, l, nullptr, &res.err);
      return settle(t.queue(), m, res);
    };
    check_queues([&](cl_command_queue x) { return map(x, img, CL_MAP_READ, zero, region, true, 0, nullptr); });
    CHECK(map(q, nullptr, CL_MAP_READ, zero, region, true, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(map(q, as<cl_mem>(world().sampler()), CL_MAP_READ, zero, region, true, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(map(q, bad::dead_mem(), CL_MAP_READ, zero, region, true, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(map(q, t.buffer(), CL_MAP_READ, zero, region, true, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return map(q, img, CL_MAP_READ, zero, region, true, k, l); });
    CHECK(map(q, img, CL_MAP_READ, zero, region, false, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(q, img, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, zero, region, true, 0, nullptr) ==
          CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueMapImage outside the image", "[bad_input]") {
  FOR_EACH_TARGET {
    size_t zero[3] = {0, 0, 0}, region[3] = {4, 4, 1}, past_edge[3] = {6, 0, 0}, deep[3] = {4, 4, 2};
    using Box = std::array<const size_t *, 2>;  // origin, region
    for (Box origin_region : {Box{past_edge, region}, Box{zero, deep}}) {
      MapResult res;
      size_t row_pitch = 0;
      res.ptr = clEnqueueMapImage(t.queue(), t.image(), CL_TRUE, CL_MAP_READ, origin_region[0], origin_region[1],
                                  &row_pitch, nullptr, 0, nullptr, nullptr, &res.err);
      CHECK(settle(t.queue(), t.image(), res) == CL_INVALID_VALUE);
    }
  }
}

TEST_CASE("clEnqueueUnmapMemObject", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    cl_int err = kUnset;
    void *mapped = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    check_queues([&](cl_command_queue x) { return clEnqueueUnmapMemObject(x, b, mapped, 0, nullptr, nullptr); });
    CHECK(clEnqueueUnmapMemObject(q, nullptr, mapped, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueUnmapMemObject(q, as<cl_mem>(world().kernel()), mapped, 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueUnmapMemObject(q, bad::dead_mem(), mapped, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return clEnqueueUnmapMemObject(q, b, mapped, k, l, nullptr); });
    // A pointer this buffer did not hand out, and a buffer that is not mapped.
    CHECK(clEnqueueUnmapMemObject(q, b, host, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueUnmapMemObject(q, t.buffer2(), mapped, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueUnmapMemObject(q, b, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    clFinish(q);
    CHECK(clEnqueueUnmapMemObject(q, b, mapped, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueMigrateMemObjects", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    auto migrate = [&](cl_command_queue x, cl_uint n, const cl_mem *list, cl_mem_migration_flags f, cl_uint k,
                       const cl_event *l) { return clEnqueueMigrateMemObjects(x, n, list, f, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return migrate(x, 1, &b, 0, 0, nullptr); });
    check_buffers([&](cl_mem m) { return migrate(q, 1, &m, 0, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return migrate(q, 1, &b, 0, k, l); });
    CHECK(migrate(q, 0, &b, 0, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(migrate(q, 1, nullptr, 0, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(migrate(q, 1, &b, cl_mem_migration_flags{1} << 10, 0, nullptr) == CL_INVALID_VALUE);
  }
}
