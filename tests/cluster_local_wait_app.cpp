// For the cluster test of waits on the nodes: a kernel on node 1's first
// device writes a buffer for a long while (a spinning kernel, about a
// second), and a kernel on node 1's second device (or, with --across, on
// node 2's first) reads it. Rank 0 copies the buffer between the two
// devices; the copy waits on node 1 for the writing kernel, so the
// reader's commands reach their node while the writer still runs, instead
// of once rank 0 has heard of its end. Prints whether the reading kernel
// was queued on its node before the writing one ended ("queued before the
// writer ended: yes"), and "result: OK" with the right bytes, or names
// what failed. With --event the reader reads a buffer of its own and
// follows the writer through its wait list alone (two devices of node 1):
// the node waits for the writer there, and the reader must still start
// after the writer's end ("started after the writer ended: yes"). With
// --relay the "writer" is UniCL's own copy of a 64 MiB buffer from rank 0
// to node 1's first device (a migration, its event the writer's; the test
// slows the node's writes), and the reader on node 1's second device reads
// that buffer: its copy from the first device waits on the node for the
// bytes to land there, so the reader is queued before the migration ends.
#include <node_devices.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

const char *kSource =
    "__kernel void slow(__global int *x, int spins) {"
    "  volatile int sink = 0; for (int k = 0; k < spins; ++k) sink += k;"
    "  size_t i = get_global_id(0); x[i] = 3 * (int)i; }"
    "__kernel void twice(__global const int *in, __global int *out) {"
    "  size_t i = get_global_id(0); out[i] = 2 * in[i]; }";

int fail(const char *what, cl_int err) {
  std::printf("failed: %s (%d)\n", what, err);
  return 1;
}

// 0 when the time is not known.
cl_ulong profiled(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  if (cl_int err = clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr); err != CL_SUCCESS) {
    std::printf("profiling query %#x: error %d\n", what, err);
    return 0;
  }
  return t;
}

}  // namespace

int main(int argc, char **argv) {
  // Node 1's first two devices, or (--across) node 1's first and node 2's.
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool across = mode == "--across", by_event = mode == "--event", relay = mode == "--relay";
  std::vector<cl_device_id> one, two;
  for (auto [d, node] : devices_with_nodes()) {
    if (node == 1) one.push_back(d);
    if (node == 2) two.push_back(d);
  }
  if (across && !one.empty() && !two.empty()) one.resize(1), one.push_back(two.front());
  if (one.size() < 2) return fail(across ? "a device on node 1 and one on node 2" : "two devices on node 1", CL_DEVICE_NOT_FOUND);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 2, one.data(), nullptr, nullptr, &err);
  if (err) return fail("context", err);
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q[2];
  for (int i = 0; i < 2; ++i) {
    q[i] = clCreateCommandQueueWithProperties(ctx, one[i], profiling, &err);
    if (err) return fail("queue", err);
  }
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  if ((err = clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr))) return fail("build", err);
  cl_kernel slow = clCreateKernel(program, "slow", &err);
  cl_kernel twice = clCreateKernel(program, "twice", &err);
  if (err) return fail("kernels", err);
  const size_t count = relay ? size_t{16} << 20 : 1024;
  cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, count * sizeof(cl_int), nullptr, &err);
  cl_mem y = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, count * sizeof(cl_int), nullptr, &err);
  if (err) return fail("buffers", err);
  std::vector<cl_int> thrice(count);
  for (size_t i = 0; i < count; ++i) thrice[i] = 3 * static_cast<cl_int>(i);
  cl_mem own = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(cl_int), thrice.data(), &err);
  if (err) return fail("the reader's own buffer", err);
  if (by_event) {
    // Its bytes on the reader's device before the writer starts: the
    // reader then waits for nothing but the writer's event.
    if ((err = clEnqueueMigrateMemObjects(q[1], 1, &own, 0, 0, nullptr, nullptr)) || (err = clFinish(q[1])))
      return fail("moving the reader's buffer", err);
  }
  const cl_int spins = 300 * 1000;  // each of the 1024 work-items
  clSetKernelArg(slow, 0, sizeof x, &x);
  clSetKernelArg(slow, 1, sizeof spins, &spins);
  clSetKernelArg(twice, 0, sizeof x, by_event || relay ? &own : &x);
  clSetKernelArg(twice, 1, sizeof y, &y);

  cl_event writer = nullptr, reader = nullptr;
  if (relay) {
    if ((err = clEnqueueMigrateMemObjects(q[0], 1, &own, 0, 0, nullptr, &writer)))
      return fail("moving the buffer to the first device", err);
  } else if ((err = clEnqueueNDRangeKernel(q[0], slow, 1, nullptr, &count, nullptr, 0, nullptr, &writer))) {
    return fail("the writing kernel", err);
  }
  clFlush(q[0]);
  if ((err = clEnqueueNDRangeKernel(q[1], twice, 1, nullptr, &count, nullptr, by_event ? 1 : 0,
                                    by_event ? &writer : nullptr, &reader)))
    return fail("the reading kernel", err);
  std::vector<cl_int> got(count);
  if ((err = clEnqueueReadBuffer(q[1], y, CL_TRUE, 0, count * sizeof(cl_int), got.data(), 0, nullptr, nullptr)))
    return fail("the read", err);
  for (size_t i = 0; i < count; ++i)
    if (got[i] != 6 * static_cast<cl_int>(i)) return fail("a result", static_cast<cl_int>(i));
  cl_event both[2] = {writer, reader};
  if ((err = clWaitForEvents(2, both))) return fail("the kernels' events", err);
  // Both times on rank 0's clock (the node client moves its node's there).
  const cl_ulong writer_end = profiled(writer, CL_PROFILING_COMMAND_END);
  const cl_ulong reader_queued = profiled(reader, CL_PROFILING_COMMAND_QUEUED);
  std::printf("writer ran %.1f ms; reader queued %.1f ms after the writer's end\n",
              (writer_end - profiled(writer, CL_PROFILING_COMMAND_START)) / 1e6,
              (static_cast<double>(reader_queued) - static_cast<double>(writer_end)) / 1e6);
  if (!writer_end || !reader_queued) return fail("the profiling times", CL_PROFILING_INFO_NOT_AVAILABLE);
  std::printf("queued before the writer ended: %s\n", reader_queued < writer_end ? "yes" : "no");
  if (by_event)
    std::printf("started after the writer ended: %s\n", profiled(reader, CL_PROFILING_COMMAND_START) >= writer_end ? "yes" : "no");
  std::printf("result: OK\n");
  clReleaseEvent(writer), clReleaseEvent(reader);
  clReleaseMemObject(x), clReleaseMemObject(y), clReleaseMemObject(own);
  clReleaseKernel(slow), clReleaseKernel(twice), clReleaseProgram(program);
  clReleaseCommandQueue(q[0]), clReleaseCommandQueue(q[1]), clReleaseContext(ctx);
  return 0;
}
