// Platform and device entry points.
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "backend/vendor_objects.hpp"
#include "core/device_info.hpp"
#include "core/info.hpp"
#include "core/runtime.hpp"
#include "core/refusal.hpp"

namespace unicl::api {

namespace {

constexpr const char *kPlatformVersion = "OpenCL 3.0 UniCL 0.1";

}  // namespace

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return refuse(CL_INVALID_VALUE, "num_entries is 0 with platforms given, or both platforms and num_platforms are NULL");
  if (platforms) platforms[0] = Runtime::get().platform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  return api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                                     size_t *size_ret) {
  if (!platform_or_default(platform)) return refuse(CL_INVALID_PLATFORM, "platform is not the UniCL platform");
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
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  if (!platform_or_default(platform)) return refuse(CL_INVALID_PLATFORM, "platform is not the UniCL platform");
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return refuse(CL_INVALID_VALUE, "num_entries is 0 with devices given, or both devices and num_devices are NULL");
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
  if (!live(device)) return refuse(CL_INVALID_DEVICE, "device is NULL or not a live device");
  return device_info(device, param, size, value, size_ret);
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                                      cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices) {
  if (!live(in_device)) return refuse(CL_INVALID_DEVICE, "in_device is NULL or not a live device");
  if (!properties) return refuse(CL_INVALID_VALUE, "properties is NULL");
  if (out_devices && num_entries == 0) return refuse(CL_INVALID_VALUE, "num_entries is 0 with out_devices given");
  // Its CL_DEVICE_PARTITION_PROPERTIES lists no way to partition it.
  if (in_device->is_composite()) return refuse(CL_INVALID_VALUE, "the composite device cannot be partitioned");
  if (in_device->vendor_version < 120) return refuse(CL_INVALID_DEVICE_PARTITION_COUNT, "the device's vendor implements OpenCL before 1.2 (no sub-devices)");
  cl_uint n = 0;
  cl_device_id vdev = in_device->vendor;
  if (cl_int err = vendor_sub_devices(vdev, properties, nullptr, n); err != CL_SUCCESS) return err;
  if (num_devices) *num_devices = n;
  if (!out_devices) return CL_SUCCESS;
  if (num_entries < n) return refuse(CL_INVALID_VALUE, "num_entries is below the number of devices made");
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
  return platform_or_default(platform) && platform ? CL_SUCCESS : refuse(CL_INVALID_PLATFORM, "platform is NULL or not UniCL's");
}

}  // namespace unicl::api
