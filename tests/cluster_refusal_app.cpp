// For the cluster test of a posted creation that fails on the node: the
// node's vendor (the simulator, told to) refuses the second buffer this
// program makes on node 1's device. The creation returned at once on rank
// 0, so the failure comes with the commands that use the buffer: each one's
// event fails with the vendor's error, and what waits for them fails too;
// the other buffer keeps working. Prints one line per check,
//   <what>|<returned>|<event status>
// and "result: OK" when every line is as the specification says.
#include <node_devices.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

const char *kSource = "__kernel void add1(__global int *p) { p[get_global_id(0)] += 1; }";
constexpr size_t kInts = 1024;

cl_int status_of(cl_event e) {
  cl_int s = CL_QUEUED;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
  return s;
}

}  // namespace

int main() {
  cl_device_id device = nullptr;
  for (auto [d, node] : devices_with_nodes())
    if (node == 1 && !device) device = d;
  if (!device) {
    std::printf("no device on node 1\n");
    return 1;
  }
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr);
  cl_kernel kernel = clCreateKernel(program, "add1", &err);
  std::vector<cl_int> zeros(kInts, 0), host(kInts, -1);
  cl_mem good = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kInts * 4, zeros.data(), &err);
  cl_int refused_ret = CL_SUCCESS;
  cl_mem refused = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kInts * 4, nullptr, &refused_ret);

  bool ok = true;
  auto line = [&](const char *what, cl_int returned, cl_int status, cl_int want_returned, cl_int want_status) {
    std::printf("%s|%d|%d\n", what, returned, status);
    if (returned != want_returned || status != want_status) {
      std::printf("  expected %d|%d\n", want_returned, want_status);
      ok = false;
    }
  };
  line("create the refused buffer", refused_ret, 0, CL_SUCCESS, 0);
  // A write into it: enqueued, then failed with the creation's error.
  cl_event write = nullptr;
  cl_int ret = clEnqueueWriteBuffer(q, refused, CL_FALSE, 0, kInts * 4, zeros.data(), 0, nullptr, &write);
  cl_int waited = write ? clWaitForEvents(1, &write) : CL_SUCCESS;
  line("write into it", ret, write ? status_of(write) : 0, CL_SUCCESS, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  line("wait for that write", waited, 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, 0);
  // A kernel on it.
  const size_t global = kInts;
  clSetKernelArg(kernel, 0, sizeof refused, &refused);
  cl_event launch = nullptr;
  ret = clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &launch);
  if (launch) clWaitForEvents(1, &launch);
  line("kernel on it", ret, launch ? status_of(launch) : 0, CL_SUCCESS, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  // What waits for that kernel fails too.
  cl_event after = nullptr;
  ret = launch ? clEnqueueMarkerWithWaitList(q, 1, &launch, &after) : CL_INVALID_EVENT;
  if (after) clWaitForEvents(1, &after);
  line("marker after the kernel", ret, after ? status_of(after) : 0, CL_SUCCESS,
       CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // A blocking read of it.
  ret = clEnqueueReadBuffer(q, refused, CL_TRUE, 0, kInts * 4, host.data(), 0, nullptr, nullptr);
  line("blocking read of it", ret, 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, 0);
  // The other buffer works.
  clSetKernelArg(kernel, 0, sizeof good, &good);
  ret = clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
  if (ret == CL_SUCCESS) ret = clEnqueueReadBuffer(q, good, CL_TRUE, 0, kInts * 4, host.data(), 0, nullptr, nullptr);
  cl_int right = 1;
  for (cl_int v : host) right = right && v == 1;
  line("kernel and read on the other buffer", ret, right, CL_SUCCESS, 1);
  for (cl_event e : {write, launch, after})
    if (e) clReleaseEvent(e);
  clReleaseMemObject(good);
  clReleaseMemObject(refused);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  std::printf("result: %s\n", ok ? "OK" : "WRONG");
  std::fflush(stdout);
  return ok ? 0 : 1;
}
