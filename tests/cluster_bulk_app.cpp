// For the cluster test of large reads and writes on a node's device: from
// 1 MiB a node whose device shares its memory maps the buffer and lets MPI
// move the bytes straight in or out; a write behind commands not yet run
// goes through staging memory instead. Both ways, with sizes off the 4 MiB
// parts and offsets off zero, the bytes must arrive right, in the order of
// the queue. A write right after a blocking read goes with its request (its
// bytes wait for nothing: the read has ended), counted by rank 0's link.
// Prints "result: OK" and exits 0, or names what failed.
#include <node_devices.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

const char *kSource = "__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }";

int fail(const char *what, cl_int err) {
  std::printf("failed: %s (%d)\n", what, err);
  return 1;
}

// Ints `i * 7 + salt` from `first` on.
std::vector<cl_int> pattern(size_t count, int salt) {
  std::vector<cl_int> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = static_cast<cl_int>(i * 7 + salt);
  return v;
}

}  // namespace

int main() {
  cl_device_id device = nullptr;
  for (auto [d, node] : devices_with_nodes())
    if (node != 0) {
      device = d;
      break;
    }
  if (!device) return fail("no device on a node", 0);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (err) return fail("context", err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  if (err) return fail("queue", err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  if ((err = clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr))) return fail("build", err);
  cl_kernel inc = clCreateKernel(program, "inc", &err);
  if (err) return fail("kernel", err);

  // 9 MiB + 12 bytes of ints: three parts, the last a short one.
  const size_t count = (size_t{9} << 18) + 3, bytes = count * sizeof(cl_int);
  cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes + 4096, nullptr, &err);
  if (err) return fail("buffer", err);
  int failures = 0;
  auto check = [&](const char *what, const std::vector<cl_int> &got, const std::vector<cl_int> &want) {
    if (got == want) return;
    size_t i = 0;
    while (i < got.size() && got[i] == want[i]) ++i;
    std::printf("wrong: %s, from int %zu of %zu\n", what, i, got.size());
    ++failures;
  };

  // Mapped both ways: the queue is idle, the write blocking, at an offset.
  const size_t offset = 4096 - 8;
  auto first = pattern(count, 1);
  if ((err = clEnqueueWriteBuffer(q, buffer, CL_TRUE, offset, bytes, first.data(), 0, nullptr, nullptr)))
    return fail("write at once", err);
  std::vector<cl_int> back(count);
  if ((err = clEnqueueReadBuffer(q, buffer, CL_TRUE, offset, bytes, back.data(), 0, nullptr, nullptr)))
    return fail("read", err);
  check("a write and a read mapped", back, first);

  // A kernel, then a read mapped after it: the read sees what it wrote.
  size_t global = count;
  cl_mem sub = nullptr;
  {
    cl_buffer_region region{4096, bytes - 4096 + offset};  // int-aligned, inside what was written
    sub = clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err) return fail("sub-buffer", err);
  }
  clSetKernelArg(inc, 0, sizeof sub, &sub);
  global = (bytes - 4096 + offset) / sizeof(cl_int);
  if ((err = clEnqueueNDRangeKernel(q, inc, 1, nullptr, &global, nullptr, 0, nullptr, nullptr)))
    return fail("kernel launch", err);
  std::vector<cl_int> after(global);
  if ((err = clEnqueueReadBuffer(q, sub, CL_TRUE, 0, global * sizeof(cl_int), after.data(), 0, nullptr, nullptr)))
    return fail("read after the kernel", err);
  std::vector<cl_int> want_after(global);
  for (size_t i = 0; i < global; ++i) want_after[i] = first[i + 2] + 1;  // 4096 bytes in: 8 bytes past `offset`
  check("a read mapped after a kernel", after, want_after);

  // A write held by a user event (staging: nothing runs before the event is
  // set), a mapped read queued behind it, then the event set.
  cl_event gate = clCreateUserEvent(ctx, &err);
  if (err) return fail("user event", err);
  auto second = pattern(count, 5);
  cl_event written = nullptr, read = nullptr;
  if ((err = clEnqueueWriteBuffer(q, buffer, CL_FALSE, 0, bytes, second.data(), 1, &gate, &written)))
    return fail("write behind an event", err);
  std::vector<cl_int> behind(count);
  if ((err = clEnqueueReadBuffer(q, buffer, CL_FALSE, 0, bytes, behind.data(), 1, &written, &read)))
    return fail("read behind the write", err);
  cl_int status = 0;
  clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  if (status == CL_COMPLETE) return fail("the read ended before its write's event was set", status);
  clSetUserEventStatus(gate, CL_COMPLETE);
  if ((err = clWaitForEvents(1, &read))) return fail("wait", err);
  check("a write behind an event, then a mapped read", behind, second);

  // Mapped again once the queue is idle: a write right after the rest.
  auto third = pattern(count, 9);
  if ((err = clEnqueueWriteBuffer(q, buffer, CL_TRUE, 0, bytes, third.data(), 0, nullptr, nullptr)))
    return fail("write once idle", err);
  if ((err = clEnqueueReadBuffer(q, buffer, CL_TRUE, 0, bytes, back.data(), 0, nullptr, nullptr)))
    return fail("last read", err);
  check("a write mapped after the rest", back, third);

  // A blocking read, then a write at once, five times: the write is one
  // request, its bytes following it (not a second request with them, sent
  // once the read's end is known, which it already is: the node would then
  // stage the bytes and copy them).
  using Counts = void (*)(uint64_t out[6]);
  void *client = dlopen("libunicl-remote.so", RTLD_NOW | RTLD_NOLOAD);
  auto counts = reinterpret_cast<Counts>(client ? dlsym(client, "unicl_cluster_counts") : nullptr);
  if (!counts) return fail("no unicl_cluster_counts in the node client", 0);
  constexpr size_t kLarge = size_t{64} << 20;
  cl_mem large = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kLarge, nullptr, &err);
  if (err) return fail("a 64 MiB buffer", err);
  std::vector<char> host(kLarge, 3);
  int as_one = 0;
  for (int round = 0; round < 5; ++round) {
    if ((err = clEnqueueReadBuffer(q, large, CL_TRUE, 0, kLarge, host.data(), 0, nullptr, nullptr)))
      return fail("read before a write", err);
    uint64_t before[6] = {}, after_write[6] = {};
    counts(before);
    if ((err = clEnqueueWriteBuffer(q, large, CL_TRUE, 0, kLarge, host.data(), 0, nullptr, nullptr)))
      return fail("write after a read", err);
    counts(after_write);
    const uint64_t requests = after_write[5] - before[5];
    if (requests == 1) ++as_one;
    else std::printf("a write after a read: %llu requests sent\n", static_cast<unsigned long long>(requests));
  }
  // Five of five: nothing else is asked of the node meanwhile (a liveness
  // ping only after a quarter of the timeout without news).
  if (as_one < 5) ++failures, std::printf("wrong: a write after a blocking read went as one request %d times of 5\n", as_one);
  clReleaseMemObject(large);
  clReleaseEvent(gate), clReleaseEvent(written), clReleaseEvent(read);
  clReleaseMemObject(sub), clReleaseMemObject(buffer);
  clReleaseKernel(inc), clReleaseProgram(program), clReleaseCommandQueue(q), clReleaseContext(ctx);
  if (failures) return 1;
  std::printf("result: OK\n");
  return 0;
}
