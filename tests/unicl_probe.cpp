// unicl-probe: prints what the ICD loader shows this process, one line per
// platform and per device, for the discovery tests (which run it as a child
// process under different vendor settings). Output:
//   platform <name>|<device count>
//   device <platform name>|<device name>|<1 if CL_DEVICE_PLATFORM is that platform>
// Exit 0 whenever the OpenCL calls behave, also when there is no platform.
#include <CL/cl.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "?";
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  s.resize(n - 1);
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "?";
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  s.resize(n - 1);
  return s;
}

}  // namespace

int main() {
  cl_uint count = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || count == 0) {
    std::printf("no platforms\n");
    return 0;
  }
  if (err != CL_SUCCESS) {
    std::printf("clGetPlatformIDs failed: %d\n", err);
    return 1;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    std::string name = platform_string(p, CL_PLATFORM_NAME);
    cl_uint ndev = 0;
    err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &ndev);
    if (err != CL_SUCCESS && err != CL_DEVICE_NOT_FOUND) {
      std::printf("clGetDeviceIDs failed on %s: %d\n", name.c_str(), err);
      return 1;
    }
    if (err == CL_DEVICE_NOT_FOUND) ndev = 0;
    std::printf("platform %s|%u\n", name.c_str(), ndev);
    std::vector<cl_device_id> devices(ndev);
    if (ndev) clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, ndev, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      cl_platform_id owner = nullptr;
      clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof owner, &owner, nullptr);
      std::printf("device %s|%s|%d\n", name.c_str(), device_string(d, CL_DEVICE_NAME).c_str(), owner == p ? 1 : 0);
    }
  }
  return 0;
}
