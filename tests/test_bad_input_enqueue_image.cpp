// Bad input to the image enqueues.
#include "bad_input_targets.hpp"

using namespace bad;

namespace {
// The image checks: `call(mem)` with an image expected.
void check_images(const std::function<cl_int(cl_mem)> &call, cl_mem buffer) {
  CHECK(call(nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(call(as<cl_mem>(world().queue())) == CL_INVALID_MEM_OBJECT);
  CHECK(call(bad::dead_mem()) == CL_INVALID_MEM_OBJECT);
  CHECK(call(buffer) == CL_INVALID_MEM_OBJECT);
}
size_t zero[3] = {0, 0, 0};
size_t region[3] = {4, 4, 1};
size_t past_edge[3] = {6, 0, 0};
size_t deep[3] = {4, 4, 2};     // depth 2 in a 2D image
size_t layered[3] = {0, 0, 1};  // origin[2] != 0 in a 2D image
}  // namespace

TEST_CASE("clEnqueueReadImage", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image();
    auto read = [&](cl_command_queue x, cl_mem m, const size_t *o, const size_t *r, size_t pitch, void *p, cl_uint k,
                    const cl_event *l) { return clEnqueueReadImage(x, m, CL_FALSE, o, r, pitch, 0, p, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return read(x, img, zero, region, 0, host, 0, nullptr); });
    check_images([&](cl_mem m) { return read(q, m, zero, region, 0, host, 0, nullptr); }, t.buffer());
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return read(q, img, zero, region, 0, host, k, l); });
    CHECK(read(q, img, past_edge, region, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(read(q, img, zero, deep, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(read(q, img, layered, region, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(read(q, img, zero, region, 0, nullptr, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(read(q, world().other_buffer(), zero, region, 0, host, 0, nullptr) != CL_SUCCESS);
  }
}

TEST_CASE("clEnqueueWriteImage", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image();
    auto write = [&](cl_command_queue x, cl_mem m, const size_t *o, const size_t *r, const void *p, cl_uint k,
                     const cl_event *l) { return clEnqueueWriteImage(x, m, CL_FALSE, o, r, 0, 0, p, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return write(x, img, zero, region, host, 0, nullptr); });
    check_images([&](cl_mem m) { return write(q, m, zero, region, host, 0, nullptr); }, t.buffer());
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return write(q, img, zero, region, host, k, l); });
    CHECK(write(q, img, past_edge, region, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(write(q, img, zero, deep, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(write(q, img, zero, region, nullptr, 0, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueCopyImage", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image();
    cl::Image2D second(t.context, CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_FLOAT), 8, 8);
    cl_mem dst = second();
    size_t shifted[3] = {2, 0, 0};
    auto copy = [&](cl_command_queue x, cl_mem s, cl_mem d, const size_t *so, const size_t *dst_o, const size_t *r,
                    cl_uint k, const cl_event *l) { return clEnqueueCopyImage(x, s, d, so, dst_o, r, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return copy(x, img, dst, zero, zero, region, 0, nullptr); });
    check_images([&](cl_mem m) { return copy(q, m, dst, zero, zero, region, 0, nullptr); }, t.buffer());
    check_images([&](cl_mem m) { return copy(q, img, m, zero, zero, region, 0, nullptr); }, t.buffer());
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return copy(q, img, dst, zero, zero, region, k, l); });
    CHECK(copy(q, img, t.image_rgba8(), zero, zero, region, 0, nullptr) == CL_IMAGE_FORMAT_MISMATCH);
    CHECK(copy(q, img, dst, zero, zero, deep, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(copy(q, img, img, zero, shifted, region, 0, nullptr) == CL_MEM_COPY_OVERLAP);
  }
}

TEST_CASE("clEnqueueCopyImage outside the images", "[bad_input]") {
  FOR_EACH_TARGET {
    cl::Image2D second(t.context, CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_FLOAT), 8, 8);
    CHECK(clEnqueueCopyImage(t.queue(), t.image(), second(), past_edge, zero, region, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueCopyImage(t.queue(), t.image(), second(), zero, past_edge, region, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueFillImage", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image();
    cl_float4 color{{1, 2, 3, 4}};
    auto fill = [&](cl_command_queue x, cl_mem m, const void *c, const size_t *o, const size_t *r, cl_uint k,
                    const cl_event *l) { return clEnqueueFillImage(x, m, c, o, r, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return fill(x, img, &color, zero, region, 0, nullptr); });
    check_images([&](cl_mem m) { return fill(q, m, &color, zero, region, 0, nullptr); }, t.buffer());
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return fill(q, img, &color, zero, region, k, l); });
    CHECK(fill(q, img, nullptr, zero, region, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(q, img, &color, past_edge, region, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(q, img, &color, zero, deep, 0, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueCopyImageToBuffer", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image(), b = t.buffer();
    const size_t n = bad::kBufferSize;
    auto copy = [&](cl_command_queue x, cl_mem s, cl_mem d, const size_t *o, const size_t *r, size_t off, cl_uint k,
                    const cl_event *l) { return clEnqueueCopyImageToBuffer(x, s, d, o, r, off, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return copy(x, img, b, zero, region, 0, 0, nullptr); });
    check_images([&](cl_mem m) { return copy(q, m, b, zero, region, 0, 0, nullptr); }, t.buffer2());
    check_buffers([&](cl_mem m) { return copy(q, img, m, zero, region, 0, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return copy(q, img, b, zero, region, 0, k, l); });
    CHECK(copy(q, img, t.image_rgba8(), zero, region, 0, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(copy(q, img, b, zero, region, n - 16, 0, nullptr) == CL_INVALID_VALUE);  // 256 bytes do not fit
  }
}

TEST_CASE("clEnqueueCopyImageToBuffer outside the image", "[bad_input]") {
  FOR_EACH_TARGET {
    CHECK(clEnqueueCopyImageToBuffer(t.queue(), t.image(), t.buffer(), past_edge, region, 0, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueCopyImageToBuffer(t.queue(), t.image(), t.buffer(), zero, deep, 0, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueCopyBufferToImage", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem img = t.image(), b = t.buffer();
    const size_t n = bad::kBufferSize;
    auto copy = [&](cl_command_queue x, cl_mem s, cl_mem d, size_t off, const size_t *o, const size_t *r, cl_uint k,
                    const cl_event *l) { return clEnqueueCopyBufferToImage(x, s, d, off, o, r, k, l, nullptr); };
    check_queues([&](cl_command_queue x) { return copy(x, b, img, 0, zero, region, 0, nullptr); });
    check_buffers([&](cl_mem m) { return copy(q, m, img, 0, zero, region, 0, nullptr); });
    check_images([&](cl_mem m) { return copy(q, b, m, 0, zero, region, 0, nullptr); }, t.buffer2());
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return copy(q, b, img, 0, zero, region, k, l); });
    CHECK(copy(q, t.image_rgba8(), img, 0, zero, region, 0, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(copy(q, b, img, n - 16, zero, region, 0, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueCopyBufferToImage outside the image", "[bad_input]") {
  FOR_EACH_TARGET {
    CHECK(clEnqueueCopyBufferToImage(t.queue(), t.buffer(), t.image(), 0, past_edge, region, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBufferToImage(t.queue(), t.buffer(), t.image(), 0, zero, deep, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
  }
}
