// For the cluster tests' applications: the UniCL platform's devices, each
// with the node that holds it (CL_DEVICE_NODE_UNICL; 0 for this machine).
#pragma once
#include <CL/cl.h>
#include <CL/cl_ext_unicl.h>

#include <utility>
#include <vector>

inline std::vector<std::pair<cl_device_id, cl_uint>> devices_with_nodes() {
  cl_platform_id platform = nullptr;
  clGetPlatformIDs(1, &platform, nullptr);
  cl_uint n = 0;
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
  std::vector<cl_device_id> all(n);
  if (n) clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, all.data(), nullptr);
  std::vector<std::pair<cl_device_id, cl_uint>> out;
  for (cl_device_id d : all) {
    cl_uint node = 0;
    clGetDeviceInfo(d, CL_DEVICE_NODE_UNICL, sizeof node, &node, nullptr);
    out.emplace_back(d, node);
  }
  return out;
}
