// Platform and device entry points.
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "api_decls.hpp"
#include "api/api_util.hpp"
#include "backend/vendor_objects.hpp"
#include "core/device_info.hpp"
#include "core/info.hpp"
#include "core/runtime.hpp"

namespace unicl {

template <>
void release<_cl_device_id>(_cl_device_id *d) {
  if (d->is_root()) return;
  if (d->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  cl_device_id parent = d->parent;
  d->kind.store(Kind::Dead, std::memory_order_release);
  std::destroy_at(d);
  void *slot = static_cast<void *>(d);
  std::construct_at(static_cast<ObjectHeader *>(slot), Kind::Dead);
  pool_for(Kind::Device, sizeof(_cl_device_id)).give_back(slot);
  release(parent);  // a sub-device holds its parent
}

namespace {

constexpr const char *kPlatformVersion = "OpenCL 3.0 UniCL 0.1";

bool valid_device_type(cl_device_type t) {
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  return t == CL_DEVICE_TYPE_ALL || (t != 0 && (t & ~known) == 0);
}

}  // namespace

cl_platform_id platform_or_default(cl_platform_id p) {
  cl_platform_id ours = Runtime::get().platform();
  return (p == nullptr || p == ours) ? ours : nullptr;
}

cl_int devices_of_type(cl_device_type type, std::vector<cl_device_id> &out) {
  if (!valid_device_type(type)) return CL_INVALID_DEVICE_TYPE;
  const auto &all = Runtime::get().platform()->devices;
  if (type == CL_DEVICE_TYPE_DEFAULT) {
    if (cl_device_id d = default_device()) out.push_back(d);
  } else {
    for (cl_device_id d : all) {
      cl_device_type t = vendor_device_type(d);
      bool match = type == CL_DEVICE_TYPE_ALL ? !(t & CL_DEVICE_TYPE_CUSTOM) : (t & type) != 0;
      if (type & CL_DEVICE_TYPE_DEFAULT && d == default_device()) match = true;
      if (match) out.push_back(d);
    }
  }
  return out.empty() ? CL_DEVICE_NOT_FOUND : CL_SUCCESS;
}

}  // namespace unicl

namespace unicl::api {

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = Runtime::get().platform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  return api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                                     size_t *size_ret) {
  if (!platform_or_default(platform)) return CL_INVALID_PLATFORM;
  switch (param) {
    case CL_PLATFORM_PROFILE: return info_string(size, value, size_ret, "FULL_PROFILE");
    case CL_PLATFORM_VERSION: return info_string(size, value, size_ret, kPlatformVersion);
    case CL_PLATFORM_NUMERIC_VERSION: return info_value<cl_version>(size, value, size_ret, CL_MAKE_VERSION(3, 0, 0));
    // SOCL programs look for their platform by these strings.
    case CL_PLATFORM_NAME:
      return info_string(size, value, size_ret, Runtime::get().config().socl_compat ? "SOCL Platform" : "UniCL");
    case CL_PLATFORM_VENDOR:
      return info_string(size, value, size_ret, Runtime::get().config().socl_compat ? "Inria" : "UniCL");
    case CL_PLATFORM_EXTENSIONS: return info_string(size, value, size_ret, "cl_khr_icd cl_unicl_split cl_unicl_divide");
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
      const cl_name_version ext[] = {{CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
                                     {CL_MAKE_VERSION(1, 0, 0), "cl_unicl_split"},
                                     {CL_MAKE_VERSION(1, 0, 0), "cl_unicl_divide"}};
      return info_value(size, value, size_ret, ext);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return info_value<cl_ulong>(size, value, size_ret, 0);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return info_string(size, value, size_ret, "UNICL");
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  if (!platform_or_default(platform)) return CL_INVALID_PLATFORM;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  std::vector<cl_device_id> found;
  if (cl_int err = devices_of_type(type, found); err != CL_SUCCESS) {
    if (num_devices) *num_devices = 0;
    return err;
  }
  if (devices)
    for (cl_uint i = 0; i < std::min<size_t>(num_entries, found.size()); ++i) devices[i] = found[i];
  if (num_devices) *num_devices = static_cast<cl_uint>(found.size());
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void *value,
                                   size_t *size_ret) {
  if (!live(device)) return CL_INVALID_DEVICE;
  return device_info(device, param, size, value, size_ret);
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                                      cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices) {
  if (!live(in_device)) return CL_INVALID_DEVICE;
  if (!properties) return CL_INVALID_VALUE;
  if (out_devices && num_entries == 0) return CL_INVALID_VALUE;
  if (in_device->vendor_version < 120) return CL_INVALID_DEVICE_PARTITION_COUNT;
  cl_uint n = 0;
  cl_device_id vdev = in_device->vendor;
  if (cl_int err = vendor_sub_devices(vdev, properties, nullptr, n); err != CL_SUCCESS) return err;
  if (num_devices) *num_devices = n;
  if (!out_devices) return CL_SUCCESS;
  if (num_entries < n) return CL_INVALID_VALUE;
  std::vector<cl_device_id> vendor_subs;
  if (cl_int err = vendor_sub_devices(vdev, properties, &vendor_subs, n); err != CL_SUCCESS) return err;
  for (cl_uint i = 0; i < n; ++i) {
    retain(in_device);  // released with the sub-device
    out_devices[i] = make_object_raw<_cl_device_id>(vendor_subs[i], in_device->vendor_platform,
                                                    in_device->vendor_version, in_device);
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) { return retain_handle(device, CL_INVALID_DEVICE); }
cl_int CL_API_CALL clReleaseDevice(cl_device_id device) { return release_handle(device, CL_INVALID_DEVICE); }

void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) { return extension_function_address(name); }

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name) {
  if (!platform_or_default(platform)) return nullptr;
  return extension_function_address(name);
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return platform_or_default(platform) && platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

}  // namespace unicl::api
