// The platform and its devices.
#include <cstring>
#include <string>

#include "api.hpp"
#include "info.hpp"
#include "objects.hpp"

namespace sim::api {
namespace {

constexpr const char *kVersion = "OpenCL 1.2 sim";

template <class T>
cl_int scalar(size_t size, void *value, size_t *size_ret, T v) {
  return info_value(size, value, size_ret, v);
}

}  // namespace

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  Platform *p = platform();
  if (num_platforms) *num_platforms = p ? 1 : 0;
  if (platforms && p) platforms[0] = handle(p);
  return p ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  return api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p_handle, cl_platform_info param, size_t size, void *value,
                                     size_t *size_ret) {
  auto *p = remote(p_handle);
  if (!p || p != platform()) return CL_INVALID_PLATFORM;
  switch (param) {
    case CL_PLATFORM_PROFILE: return info_string(size, value, size_ret, "FULL_PROFILE");
    case CL_PLATFORM_VERSION: return info_string(size, value, size_ret, kVersion);
    case CL_PLATFORM_NAME: return info_string(size, value, size_ret, "UniCL Simulator");
    case CL_PLATFORM_VENDOR: return info_string(size, value, size_ret, "UniCL");
    case CL_PLATFORM_EXTENSIONS: return info_string(size, value, size_ret, "cl_khr_icd");
    case CL_PLATFORM_ICD_SUFFIX_KHR: return info_string(size, value, size_ret, "SIM");
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p_handle, cl_device_type type, cl_uint num_entries,
                                  cl_device_id *devices,
                                  cl_uint *num_devices) {
  auto *p = remote(p_handle);
  if (!p || p != platform()) return CL_INVALID_PLATFORM;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  constexpr cl_device_type known = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                   CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CUSTOM;
  if (type != CL_DEVICE_TYPE_ALL && (type & ~known)) return CL_INVALID_DEVICE_TYPE;
  std::vector<Device *> found;
  for (auto &d : p->devices)
    if (type == CL_DEVICE_TYPE_ALL || (type & d->config.type)) found.push_back(d.get());
  // The default device is the first one the configuration lists.
  if ((type & CL_DEVICE_TYPE_DEFAULT) && type != CL_DEVICE_TYPE_ALL && found.empty())
    found.push_back(p->devices.front().get());
  if (found.empty()) return CL_DEVICE_NOT_FOUND;
  if (num_devices) *num_devices = static_cast<cl_uint>(found.size());
  for (cl_uint i = 0; devices && i < num_entries && i < found.size(); ++i) devices[i] = handle(found[i]);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d_handle, cl_device_info param, size_t size, void *value,
                                   size_t *size_ret) {
  auto *d = remote(d_handle);
  Platform *p = platform();
  if (!d || !p || !p->owns(d)) return CL_INVALID_DEVICE;
  const DeviceConfig &c = d->config;
  const bool cpu = c.type == CL_DEVICE_TYPE_CPU;
  auto u = [&](cl_uint v) { return scalar(size, value, size_ret, v); };
  auto ul = [&](cl_ulong v) { return scalar(size, value, size_ret, v); };
  auto sz = [&](size_t v) { return scalar(size, value, size_ret, v); };
  auto b = [&](bool v) { return scalar<cl_bool>(size, value, size_ret, v ? CL_TRUE : CL_FALSE); };
  auto str = [&](const std::string &s) { return info_string(size, value, size_ret, s); };
  switch (param) {
    case CL_DEVICE_TYPE: return scalar(size, value, size_ret, c.type);
    case CL_DEVICE_VENDOR_ID: return u(0x5543);  // "UC"
    case CL_DEVICE_MAX_COMPUTE_UNITS: return u(c.units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return u(3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: return info_vector(size, value, size_ret, std::vector<size_t>{1024, 1024, 1024});
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return sz(1024);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return u(4);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return u(2);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return u(1);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:  // no cl_khr_fp64
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:    // no cl_khr_fp16
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return u(0);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return u(1000);
    case CL_DEVICE_ADDRESS_BITS: return u(64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return ul(d->max_alloc());
    case CL_DEVICE_GLOBAL_MEM_SIZE: return ul(c.memory_bytes);
    case CL_DEVICE_IMAGE_SUPPORT: return b(false);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS: return u(0);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return sz(0);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return sz(1024);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return u(1024);  // bits
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return u(128);
    case CL_DEVICE_SINGLE_FP_CONFIG:
      return scalar<cl_device_fp_config>(size, value, size_ret,
                                         CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
    case CL_DEVICE_DOUBLE_FP_CONFIG: return scalar<cl_device_fp_config>(size, value, size_ret, 0);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      return scalar<cl_device_mem_cache_type>(size, value, size_ret, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return u(64);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return ul(cpu ? 8ull << 20 : 1ull << 20);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return ul(64 << 10);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return u(8);
    case CL_DEVICE_LOCAL_MEM_TYPE:
      return scalar<cl_device_local_mem_type>(size, value, size_ret, cpu ? CL_GLOBAL : CL_LOCAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return ul(32 << 10);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return b(false);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return b(cpu);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return sz(1);
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return b(true);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      return scalar<cl_device_exec_capabilities>(size, value, size_ret, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_PROPERTIES:
      return scalar<cl_command_queue_properties>(size, value, size_ret,
                                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_BUILT_IN_KERNELS: return str("");
    case CL_DEVICE_PLATFORM: return scalar(size, value, size_ret, handle(d->platform));
    case CL_DEVICE_NAME: return str(c.name);
    case CL_DEVICE_VENDOR: return str("UniCL Simulator");
    case CL_DRIVER_VERSION: return str("1.0");
    case CL_DEVICE_PROFILE: return str("FULL_PROFILE");
    case CL_DEVICE_VERSION: return str(kVersion);
    case CL_DEVICE_OPENCL_C_VERSION: return str("OpenCL C 1.2");
    case CL_DEVICE_EXTENSIONS: return str("");
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return sz(1 << 20);
    case CL_DEVICE_PARENT_DEVICE: return scalar<cl_device_id>(size, value, size_ret, nullptr);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return u(0);
    case CL_DEVICE_PARTITION_PROPERTIES:  // no partitioning: the list is a single 0
      return info_vector(size, value, size_ret, std::vector<cl_device_partition_property>{0});
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
      return scalar<cl_device_affinity_domain>(size, value, size_ret, 0);
    case CL_DEVICE_PARTITION_TYPE:  // a root device: nothing
      return info_bytes(size, value, size_ret, nullptr, 0);
    case CL_DEVICE_REFERENCE_COUNT: return u(1);
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id d_handle, const cl_device_partition_property *, cl_uint,
                                      cl_device_id *,
                                      cl_uint *) {
  auto *d = remote(d_handle);
  Platform *p = platform();
  if (!d || !p || !p->owns(d)) return CL_INVALID_DEVICE;
  return CL_INVALID_VALUE;  // CL_DEVICE_PARTITION_PROPERTIES lists no partition type
}

// Root devices are not reference counted.
cl_int CL_API_CALL clRetainDevice(cl_device_id d_handle) {
  auto *d = remote(d_handle);
  Platform *p = platform();
  return d && p && p->owns(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) { return api::clRetainDevice(device); }

void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  if (name && std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0) return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  return nullptr;
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id, const char *name) {
  return api::clGetExtensionFunctionAddress(name);
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id p_handle) {
  auto *p = remote(p_handle);
  return p && p == platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

}  // namespace sim::api
