#pragma once
#include <vector>

#include "core/device.hpp"

namespace unicl {
cl_platform_id platform_or_default(cl_platform_id p);
cl_int devices_of_type(cl_device_type type, std::vector<cl_device_id> &out);
cl_device_id default_device();
cl_device_type vendor_device_type(cl_device_id d);
// clGetDeviceInfo: forwarded to the vendor, with handles rewritten to UniCL
// objects, features UniCL does not wrap reported absent, and 3.0 queries a
// 1.x vendor cannot answer given the spec's answer.
cl_int device_info(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret);
// True when UniCL passes extension `name` of a vendor device through.
bool extension_passes(const std::string &name);
}  // namespace unicl
