// For the cluster test of staged copies (src/cluster/node/staged_bytes.hpp): a
// read-only buffer written whole on a device of node 1 is then read by
// kernels on a device of node 2 and on another device of node 1. The test
// makes node 1's device reads slow (the simulator's injected delay): copies
// served from node 1's host copy need none, so that part ends quickly
// ("copies without reads: N ms"). Then, each time after another whole
// write, the buffer is changed on node 1 in a way that must drop the host
// copy (a partial write, a fill, a copy into it, a write through a
// sub-buffer) and used on node 2: each result must show the change. Prints "result: OK" and exits 0, or names
// what failed.
#include <node_devices.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const char *kSource = "__kernel void twice(__global const int *in, __global int *out) {"
                      "  size_t i = get_global_id(0); out[i] = 2 * in[i]; }";

int fail(const char *what, cl_int err) {
  std::printf("failed: %s (%d)\n", what, err);
  return 1;
}

}  // namespace

int main() {
  // Node 1's first two devices, node 2's first.
  std::vector<cl_device_id> one, two;
  for (auto [d, node] : devices_with_nodes()) {
    if (node == 1) one.push_back(d);
    if (node == 2) two.push_back(d);
  }
  if (one.size() < 2 || two.empty()) return fail("two devices on node 1 and one on node 2", CL_DEVICE_NOT_FOUND);
  cl_device_id devices[3] = {one[0], one[1], two[0]};
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 3, devices, nullptr, nullptr, &err);
  if (err) return fail("context", err);
  cl_command_queue q[3];
  for (int i = 0; i < 3; ++i) {
    q[i] = clCreateCommandQueueWithProperties(ctx, devices[i], nullptr, &err);
    if (err) return fail("queue", err);
  }
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  if ((err = clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr))) return fail("build", err);
  cl_kernel twice = clCreateKernel(program, "twice", &err);
  if (err) return fail("kernel", err);

  // 8 MiB of ints: two of the transfers' 4 MiB parts.
  const size_t count = size_t{2} << 20, bytes = count * sizeof(cl_int), part = count / 2;
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, nullptr, &err);
  cl_mem out[3] = {};  // by the device that writes it
  for (int i = 1; i < 3; ++i) out[i] = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  cl_mem other = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (err) return fail("buffers", err);
  std::vector<cl_int> want(count);

  int failures = 0;
  // twice(in) on device `d`, into out[d].
  auto run_on = [&](int d) -> cl_int {
    clSetKernelArg(twice, 0, sizeof in, &in);
    clSetKernelArg(twice, 1, sizeof out[d], &out[d]);
    size_t global = count;
    if (cl_int e = clEnqueueNDRangeKernel(q[d], twice, 1, nullptr, &global, nullptr, 0, nullptr, nullptr)) return e;
    return clFinish(q[d]);
  };
  // out[d] read back and compared with 2 x `want`.
  auto check = [&](int d, const char *what) {
    std::vector<cl_int> got(count);
    if (cl_int e = clEnqueueReadBuffer(q[d], out[d], CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr)) {
      std::printf("failed: reading %s (%d)\n", what, e);
      ++failures;
      return;
    }
    for (size_t i = 0; i < count; ++i)
      if (got[i] != 2 * want[i]) {
        std::printf("wrong: %s, from int %zu (%d, not %d)\n", what, i, got[i], 2 * want[i]);
        ++failures;
        return;
      }
  };
  // All of `in` written on node 1: the node keeps the bytes it received.
  auto write_whole = [&](int salt) {
    for (size_t i = 0; i < count; ++i) want[i] = static_cast<cl_int>(i * 3 + salt);
    return clEnqueueWriteBuffer(q[0], in, CL_TRUE, 0, bytes, want.data(), 0, nullptr, nullptr);
  };

  if ((err = write_whole(1))) return fail("write on node 1", err);
  // To node 2, then to node 1's other device: no read on node 1.
  auto since = [](auto start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  // The span on the system clock too: the test counts node 1's reads in it.
  auto epoch_ns = [] {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
  };
  const long long span_start = epoch_ns();
  const auto start = std::chrono::steady_clock::now();
  if ((err = run_on(2))) return fail("kernel on node 2", err);
  const double to_node_2 = since(start);
  if ((err = run_on(1))) return fail("kernel on node 1's other device", err);
  std::printf("copies without reads: %.0f ms (to node 2 %.0f ms, then within node 1)\n", since(start), to_node_2);
  std::printf("span of the copies without reads: %lld %lld\n", span_start, epoch_ns());
  check(2, "the copy to node 2");
  check(1, "the copy within node 1");  // out[1] comes from node 1: a read there (slow, but right)

  // Each change of `in` on node 1 drops its host copy: the copy to node 2
  // after it must carry the change.
  if ((err = write_whole(2))) return fail("whole write", err);
  for (size_t i = part; i < count; ++i) want[i] = -static_cast<cl_int>(i);
  if ((err = clEnqueueWriteBuffer(q[0], in, CL_TRUE, part * 4, part * 4, want.data() + part, 0, nullptr, nullptr)) ||
      (err = run_on(2)))
    return fail("a partial write, then the kernel", err);
  check(2, "after a partial write");

  if ((err = write_whole(3))) return fail("whole write", err);
  const cl_int seven = 7;
  for (size_t i = 0; i < part; ++i) want[i] = seven;
  if ((err = clEnqueueFillBuffer(q[0], in, &seven, sizeof seven, 0, part * 4, 0, nullptr, nullptr)) ||
      (err = clFinish(q[0])) || (err = run_on(2)))
    return fail("a fill, then the kernel", err);
  check(2, "after a fill");

  std::vector<cl_int> copied(count);
  for (size_t i = 0; i < count; ++i) copied[i] = static_cast<cl_int>(i ^ 0x5a5a);
  if ((err = clEnqueueWriteBuffer(q[0], other, CL_TRUE, 0, bytes, copied.data(), 0, nullptr, nullptr)) ||
      (err = write_whole(4)))
    return fail("writes", err);
  want = copied;
  if ((err = clEnqueueCopyBuffer(q[0], other, in, 0, 0, bytes, 0, nullptr, nullptr)) || (err = clFinish(q[0])) ||
      (err = run_on(2)))
    return fail("a copy into it, then the kernel", err);
  check(2, "after a copy into it");

  // A sub-buffer shares its parent's storage: a write through it changes
  // the parent's bytes.
  if ((err = write_whole(5))) return fail("whole write", err);
  cl_buffer_region region{0, part * 4};
  cl_mem sub = clCreateSubBuffer(in, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  if (err) return fail("sub-buffer", err);
  for (size_t i = 0; i < part; ++i) want[i] = 11;
  if ((err = clEnqueueWriteBuffer(q[0], sub, CL_TRUE, 0, part * 4, want.data(), 0, nullptr, nullptr)) ||
      (err = run_on(2)))
    return fail("a write through a sub-buffer, then the kernel", err);
  check(2, "after a write through a sub-buffer");

  clReleaseMemObject(sub), clReleaseMemObject(in), clReleaseMemObject(out[1]), clReleaseMemObject(out[2]);
  clReleaseMemObject(other);
  clReleaseKernel(twice), clReleaseProgram(program);
  for (cl_command_queue x : q) clReleaseCommandQueue(x);
  clReleaseContext(ctx);
  if (failures) return 1;
  std::printf("result: OK\n");
  return 0;
}
