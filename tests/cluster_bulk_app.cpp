// For the cluster test of large reads and writes on a node's device: from
// 1 MiB a node whose device shares its memory maps the buffer and lets MPI
// move the bytes straight in or out; a write behind commands not yet run
// goes through staging memory instead. Both ways, with sizes off the 4 MiB
// parts and offsets off zero, the bytes must arrive right, in the order of
// the queue. A write right after a blocking read goes with its request (its
// bytes wait for nothing: the read has ended), counted by rank 0's link;
// small blocking writes each read back cost one report a round.
// With --returns-when-sent (a device whose writes take long): a blocking
// write with neither a wait list nor an event to hand out returns once its
// bytes left, before the node's device ended it, and what is read after it
// is what it wrote; with either it returns at its end.
// Prints "result: OK" and exits 0, or names what failed.
#include <node_devices.hpp>

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
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

// The blocking writes of --returns-when-sent, on `q` of `ctx`.
int returns_when_sent(cl_context ctx, cl_command_queue q) {
  constexpr size_t kBytes = size_t{16} << 20;  // 335 ms on the device, at 0.05 GB/s
  const size_t count = kBytes / sizeof(cl_int);
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kBytes, nullptr, &err);
  if (err) return fail("buffer", err);
  int failures = 0;
  auto expect = [&](bool ok, const char *what) {
    if (!ok) ++failures, std::printf("wrong: %s\n", what);
  };
  auto status_of = [](cl_event e) {
    cl_int status = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    return status;
  };
  for (int round = 0; round < 3; ++round) {
    auto bytes = pattern(count, round);
    if ((err = clEnqueueWriteBuffer(q, buffer, CL_TRUE, 0, kBytes, bytes.data(), 0, nullptr, nullptr)))
      return fail("blocking write", err);
    bytes.assign(count, -1);  // the application may reuse its memory at once
    // A marker after it ends with it: long after the call returned (were
    // the write over, within a round trip).
    cl_event marker = nullptr;
    if ((err = clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker))) return fail("marker", err);
    const auto asked = std::chrono::steady_clock::now();
    if ((err = clWaitForEvents(1, &marker))) return fail("wait for the marker", err);
    const double waited_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
    if (waited_ms < 100) ++failures, std::printf("wrong: the write had ended %.1f ms after its call returned\n", waited_ms);
    clReleaseEvent(marker);
    std::vector<cl_int> back(count);
    if ((err = clEnqueueReadBuffer(q, buffer, CL_TRUE, 0, kBytes, back.data(), 0, nullptr, nullptr)))
      return fail("read after the write", err);
    expect(back == pattern(count, round), "the read after a blocking write saw other bytes than it wrote");
  }
  // Handing out its event, or with a wait list, the call returns at the
  // end: its event is complete (its times there to ask).
  cl_event written = nullptr;
  auto bytes = pattern(count, 5);
  if ((err = clEnqueueWriteBuffer(q, buffer, CL_TRUE, 0, kBytes, bytes.data(), 0, nullptr, &written)))
    return fail("blocking write with an event", err);
  expect(status_of(written) == CL_COMPLETE, "a blocking write handing out its event returned before its end");
  clReleaseEvent(written);
  cl_event set = clCreateUserEvent(ctx, &err);
  clSetUserEventStatus(set, CL_COMPLETE);
  bytes = pattern(count, 7);
  if ((err = clEnqueueWriteBuffer(q, buffer, CL_TRUE, 0, kBytes, bytes.data(), 1, &set, &written)))
    return fail("blocking write with a wait list", err);
  expect(status_of(written) == CL_COMPLETE, "a blocking write with a wait list returned before its end");
  clReleaseEvent(written), clReleaseEvent(set), clReleaseMemObject(buffer);
  return failures;
}

}  // namespace

int main(int argc, char **argv) {
  const bool when_sent = argc > 1 && std::string(argv[1]) == "--returns-when-sent";
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
  if (when_sent) {
    const int failures = returns_when_sent(ctx, q);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    if (failures) return 1;
    std::printf("result: OK\n");
    return 0;
  }
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

  // Small blocking writes, each read back at once: the write's end, which
  // nobody waits for, goes to rank 0 in the read's report (the node holds
  // an end nobody awaits up to a millisecond for others to share its
  // report), not in one of its own: one report a round instead of two.
  {
    uint64_t before[6] = {}, after_rounds[6] = {};
    std::vector<char> small(4096, 5), small_back(4096);
    counts(before);
    for (int round = 0; round < 10; ++round) {
      if ((err = clEnqueueWriteBuffer(q, large, CL_TRUE, 0, small.size(), small.data(), 0, nullptr, nullptr)))
        return fail("small write", err);
      if ((err = clEnqueueReadBuffer(q, large, CL_TRUE, 0, small.size(), small_back.data(), 0, nullptr, nullptr)))
        return fail("small read", err);
      if (small_back != small) ++failures, std::printf("wrong: a small read saw other bytes than the write before it\n");
    }
    counts(after_rounds);
    const uint64_t reports = after_rounds[2] - before[2];
    std::printf("small write and read: %llu messages received in 10 rounds\n", static_cast<unsigned long long>(reports));
    // Two a round would be a report per end; a liveness answer or a late
    // read may add one now and then.
    if (reports > 15) ++failures, std::printf("wrong: %llu messages for 10 rounds\n", static_cast<unsigned long long>(reports));
  }
  clReleaseMemObject(large);
  clReleaseEvent(gate), clReleaseEvent(written), clReleaseEvent(read);
  clReleaseMemObject(sub), clReleaseMemObject(buffer);
  clReleaseKernel(inc), clReleaseProgram(program), clReleaseCommandQueue(q), clReleaseContext(ctx);
  if (failures) return 1;
  std::printf("result: OK\n");
  return 0;
}
