#include "vendor_platforms.hpp"

#include <CL/cl_ext_unicl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>

#include <algorithm>

#include "backend/vendor_discovery.hpp"

namespace unicl_tool {
namespace {

// Vendor objects are reached through their own dispatch table, as the ICD
// loader does: the tool's libOpenCL only knows UniCL in exclusive mode.
const cl_icd_dispatch &dispatch(void *object) { return **static_cast<cl_icd_dispatch **>(object); }

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (dispatch(p).clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (dispatch(p).clGetPlatformInfo(p, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (dispatch(d).clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (dispatch(d).clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

}  // namespace

std::vector<VendorDevice> list_vendor_devices(const std::string &vendors) {
  using GetAddress = void *(CL_API_CALL *)(const char *);
  using IcdGetPlatforms = cl_int(CL_API_CALL *)(cl_uint, cl_platform_id *, cl_uint *);
  std::vector<VendorDevice> found;
  std::vector<void *> seen;
  // The libraries named the way UniCL reads the list (backend/vendor_discovery).
  unicl::VendorSources sources;
  sources.unicl_vendors = vendors;
  for (const auto &lib : unicl::vendor_library_names(sources)) {
    // Never dlclose'd: vendors built on LLVM do not survive being unloaded,
    // and UniCL in this process holds the very same handles anyway.
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) continue;  // UniCL reports vendors that fail to load (UNICL_LOG=1)
    if (std::find(seen.begin(), seen.end(), handle) != seen.end()) continue;
    seen.push_back(handle);
    auto get_address = reinterpret_cast<GetAddress>(dlsym(handle, "clGetExtensionFunctionAddress"));
    if (!get_address) continue;
    auto get_platforms = reinterpret_cast<IcdGetPlatforms>(get_address("clIcdGetPlatformIDsKHR"));
    cl_uint n = 0;
    if (!get_platforms || get_platforms(0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
    std::vector<cl_platform_id> platforms(n);
    if (get_platforms(n, platforms.data(), nullptr) != CL_SUCCESS) continue;
    for (cl_platform_id p : platforms) {
      const std::string name = platform_string(p, CL_PLATFORM_NAME);
      if (name == CL_UNICL_PLATFORM_NAME) continue;
      cl_uint count = 0;
      if (dispatch(p).clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0)
        continue;
      std::vector<cl_device_id> devices(count);
      if (dispatch(p).clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr) != CL_SUCCESS) continue;
      for (cl_device_id d : devices) {
        cl_uint id = 0;
        dispatch(d).clGetDeviceInfo(d, CL_DEVICE_VENDOR_ID, sizeof id, &id, nullptr);
        found.push_back({name, lib, device_string(d, CL_DEVICE_NAME), id});
      }
    }
  }
  return found;
}

}  // namespace unicl_tool
