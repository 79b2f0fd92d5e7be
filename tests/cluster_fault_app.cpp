// For the cluster fault tests: runs an increment kernel over a buffer on
// every device of the UniCL platform, each in a context of its own, for a
// number of rounds, and reports per device whether its commands kept
// working ("device <name>|ok|<rounds>") or failed ("device <name>|failed|
// <round>|<error>|available <0/1>|in flight <n>"). A failed device is left
// alone; the run goes on with the others and ends.
//
//   cluster-fault-app [rounds] [launches per round]
//
// Each round enqueues its launches (each with an event, none waited for),
// then reads the buffer back (blocking). "in flight": how many of the
// failed round's launches ended with CL_DEVICE_NOT_AVAILABLE (posted to a
// node that was lost before it ran them).
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char *kSource = "__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }";
constexpr size_t kItems = 1024;

struct Lane {
  cl_device_id device;
  std::string name;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_kernel kernel = nullptr;
  cl_mem buffer = nullptr;
  int failed_round = -1;
  cl_int error = CL_SUCCESS;
  int lost_in_flight = 0;
};

}  // namespace

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  const int launches = argc > 2 ? std::atoi(argv[2]) : 1;
  cl_platform_id platform = nullptr;
  cl_uint n = 0;
  clGetPlatformIDs(1, &platform, nullptr);
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
  std::vector<cl_device_id> ids(n);
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr);
  std::vector<Lane> lanes;
  for (cl_device_id d : ids) {
    Lane l{d};
    char name[256] = {};
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, nullptr);
    l.name = name;
    cl_int err = CL_SUCCESS;
    l.context = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
    l.queue = clCreateCommandQueue(l.context, d, 0, &err);
    cl_program p = clCreateProgramWithSource(l.context, 1, &kSource, nullptr, &err);
    clBuildProgram(p, 1, &d, nullptr, nullptr, nullptr);
    l.kernel = clCreateKernel(p, "inc", &err);
    clReleaseProgram(p);
    std::vector<int> zeros(kItems, 0);
    l.buffer = clCreateBuffer(l.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kItems * 4, zeros.data(), &err);
    clSetKernelArg(l.kernel, 0, sizeof l.buffer, &l.buffer);
    if (err != CL_SUCCESS) l.failed_round = 0, l.error = err;
    lanes.push_back(l);
  }
  std::vector<int> host(kItems);
  for (int r = 1; r <= rounds; ++r)
    for (auto &l : lanes) {
      if (l.failed_round >= 0) continue;
      const size_t global = kItems;
      std::vector<cl_event> events;
      cl_int err = CL_SUCCESS;
      for (int i = 0; i < launches && err == CL_SUCCESS; ++i) {
        cl_event e = nullptr;
        err = clEnqueueNDRangeKernel(l.queue, l.kernel, 1, nullptr, &global, nullptr, 0, nullptr, &e);
        if (e) events.push_back(e);
      }
      if (err == CL_SUCCESS) err = clEnqueueReadBuffer(l.queue, l.buffer, CL_TRUE, 0, kItems * 4, host.data(), 0,
                                                       nullptr, nullptr);
      if (err == CL_SUCCESS && host[kItems - 1] != r * launches) err = 1;  // a wrong value
      if (err != CL_SUCCESS) {
        l.failed_round = r, l.error = err;
        clWaitForEvents(static_cast<cl_uint>(events.size()), events.data());  // ends, whatever their status
        for (cl_event e : events) {
          cl_int status = CL_COMPLETE;
          clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
          if (status == CL_DEVICE_NOT_AVAILABLE) ++l.lost_in_flight;
        }
      }
      for (cl_event e : events) clReleaseEvent(e);
    }
  for (auto &l : lanes) {
    if (l.failed_round < 0) {
      std::printf("device %s|ok|%d\n", l.name.c_str(), rounds);
    } else {
      cl_bool available = CL_TRUE;
      clGetDeviceInfo(l.device, CL_DEVICE_AVAILABLE, sizeof available, &available, nullptr);
      std::printf("device %s|failed|%d|%d|available %d|in flight %d\n", l.name.c_str(), l.failed_round, l.error,
                  available ? 1 : 0, l.lost_in_flight);
    }
  }
  std::fflush(stdout);
  return 0;
}
