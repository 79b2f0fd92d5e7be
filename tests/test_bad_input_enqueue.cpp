// Bad input to the buffer transfer enqueues.
#include "bad_input_targets.hpp"

using namespace bad;

TEST_CASE("clEnqueueReadBuffer", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    const size_t n = bad::kBufferSize;
    check_queues([&](cl_command_queue x) { return clEnqueueReadBuffer(x, b, CL_FALSE, 0, 4, host, 0, nullptr, nullptr); });
    check_buffers([&](cl_mem m) { return clEnqueueReadBuffer(q, m, CL_FALSE, 0, 4, host, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return clEnqueueReadBuffer(q, b, CL_FALSE, 0, 4, host, k, l, nullptr); });
    CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, n - 2, 4, host, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, n + 4, 4, host, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, 4, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    cl::Buffer write_only(t.context, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, 64);
    CHECK(clEnqueueReadBuffer(q, write_only(), CL_FALSE, 0, 4, host, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  }
}

TEST_CASE("clEnqueueReadBuffer from an image", "[bad_input]") {
  // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object".
  FOR_EACH_TARGET {
    CHECK(clEnqueueReadBuffer(t.queue(), t.image(), CL_FALSE, 0, 4, host, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  }
}

TEST_CASE("clEnqueueWriteBuffer", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    const size_t n = bad::kBufferSize;
    check_queues([&](cl_command_queue x) { return clEnqueueWriteBuffer(x, b, CL_FALSE, 0, 4, host, 0, nullptr, nullptr); });
    check_buffers([&](cl_mem m) { return clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, host, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return clEnqueueWriteBuffer(q, b, CL_FALSE, 0, 4, host, k, l, nullptr); });
    CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, n - 2, 4, host, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, 4, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    cl::Buffer read_only(t.context, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, 64);
    CHECK(clEnqueueWriteBuffer(q, read_only(), CL_FALSE, 0, 4, host, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  }
}

TEST_CASE("clEnqueueReadBufferRect", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    size_t zero[3] = {0, 0, 0}, region[3] = {16, 4, 1}, empty[3] = {0, 4, 1};
    size_t far[3] = {0, 1000, 0};
    auto read = [&](cl_command_queue x, cl_mem m, const size_t *bo, const size_t *r, size_t brp, size_t bsp, size_t hrp,
                    void *ptr, cl_uint k, const cl_event *l) {
      return clEnqueueReadBufferRect(x, m, CL_FALSE, bo, zero, r, brp, bsp, hrp, 0, ptr, k, l, nullptr);
    };
    check_queues([&](cl_command_queue x) { return read(x, b, zero, region, 0, 0, 0, host, 0, nullptr); });
    check_buffers([&](cl_mem m) { return read(q, m, zero, region, 0, 0, 0, host, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return read(q, b, zero, region, 0, 0, 0, host, k, l); });
    CHECK(read(q, b, zero, empty, 0, 0, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(read(q, b, far, region, 0, 0, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(read(q, b, zero, region, 8, 0, 0, host, 0, nullptr) == CL_INVALID_VALUE);   // row pitch < region[0]
    CHECK(read(q, b, zero, region, 0, 0, 8, host, 0, nullptr) == CL_INVALID_VALUE);   // host row pitch < region[0]
    CHECK(read(q, b, zero, region, 16, 32, 0, host, 0, nullptr) == CL_INVALID_VALUE); // slice pitch < rows
    CHECK(read(q, b, zero, region, 0, 0, 0, nullptr, 0, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueWriteBufferRect", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    size_t zero[3] = {0, 0, 0}, region[3] = {16, 4, 1}, empty[3] = {16, 0, 1};
    size_t far[3] = {bad::kBufferSize, 0, 0};
    auto write = [&](cl_command_queue x, cl_mem m, const size_t *bo, const size_t *r, size_t brp, const void *ptr,
                     cl_uint k, const cl_event *l) {
      return clEnqueueWriteBufferRect(x, m, CL_FALSE, bo, zero, r, brp, 0, 0, 0, ptr, k, l, nullptr);
    };
    check_queues([&](cl_command_queue x) { return write(x, b, zero, region, 0, host, 0, nullptr); });
    check_buffers([&](cl_mem m) { return write(q, m, zero, region, 0, host, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return write(q, b, zero, region, 0, host, k, l); });
    CHECK(write(q, b, zero, empty, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(write(q, b, far, region, 0, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(write(q, b, zero, region, 4, host, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(write(q, b, zero, region, 0, nullptr, 0, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueCopyBuffer", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem a = t.buffer(), b = t.buffer2();
    const size_t n = bad::kBufferSize;
    check_queues([&](cl_command_queue x) { return clEnqueueCopyBuffer(x, a, b, 0, 0, 4, 0, nullptr, nullptr); });
    check_buffers([&](cl_mem m) { return clEnqueueCopyBuffer(q, m, b, 0, 0, 4, 0, nullptr, nullptr); });
    check_buffers([&](cl_mem m) { return clEnqueueCopyBuffer(q, a, m, 0, 0, 4, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return clEnqueueCopyBuffer(q, a, b, 0, 0, 4, k, l, nullptr); });
    CHECK(clEnqueueCopyBuffer(q, a, b, n - 2, 0, 4, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBuffer(q, a, b, 0, n - 2, 4, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBuffer(q, a, b, 0, 0, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBuffer(q, a, a, 0, 8, 16, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  }
}

TEST_CASE("clEnqueueCopyBufferRect", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem a = t.buffer(), b = t.buffer2();
    size_t zero[3] = {0, 0, 0}, shifted[3] = {8, 0, 0}, region[3] = {16, 4, 1}, empty[3] = {16, 4, 0};
    size_t far[3] = {0, 0, 100};
    auto copy = [&](cl_command_queue x, cl_mem s, cl_mem d, const size_t *so, const size_t *dst_o, const size_t *r,
                    cl_uint k, const cl_event *l) {
      return clEnqueueCopyBufferRect(x, s, d, so, dst_o, r, 0, 0, 0, 0, k, l, nullptr);
    };
    check_queues([&](cl_command_queue x) { return copy(x, a, b, zero, zero, region, 0, nullptr); });
    check_buffers([&](cl_mem m) { return copy(q, m, b, zero, zero, region, 0, nullptr); });
    check_buffers([&](cl_mem m) { return copy(q, a, m, zero, zero, region, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return copy(q, a, b, zero, zero, region, k, l); });
    CHECK(copy(q, a, b, zero, zero, empty, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(copy(q, a, b, far, zero, region, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(copy(q, a, b, zero, far, region, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(copy(q, a, a, zero, shifted, region, 0, nullptr) == CL_MEM_COPY_OVERLAP);
  }
}

TEST_CASE("clEnqueueFillBuffer", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_mem b = t.buffer();
    cl_int pattern = 7;
    const size_t n = bad::kBufferSize;
    check_queues([&](cl_command_queue x) { return clEnqueueFillBuffer(x, b, &pattern, 4, 0, 16, 0, nullptr, nullptr); });
    check_buffers([&](cl_mem m) { return clEnqueueFillBuffer(q, m, &pattern, 4, 0, 16, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return clEnqueueFillBuffer(q, b, &pattern, 4, 0, 16, k, l, nullptr); });
    CHECK(clEnqueueFillBuffer(q, b, nullptr, 4, 0, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(q, b, &pattern, 0, 0, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(q, b, &pattern, 3, 0, 12, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(q, b, &pattern, 4, 2, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(q, b, &pattern, 4, 0, 6, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(q, b, &pattern, 4, n - 8, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  }
}
