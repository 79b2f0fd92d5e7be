// The only symbols libunicl.so exports: what an ICD loader looks up. The
// loader calls one of them before it has any UniCL handle, so each starts
// the runtime with every layer installed (startup.hpp).
#include "api/api_decls.hpp"
#include "startup.hpp"

#define UNICL_EXPORT extern "C" __attribute__((visibility("default")))

UNICL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                        cl_uint *num_platforms) {
  unicl::start_runtime();
  return unicl::api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

UNICL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  unicl::start_runtime();
  return unicl::api::clGetExtensionFunctionAddress(name);
}

UNICL_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size,
                                                  void *value, size_t *size_ret) {
  unicl::start_runtime();
  return unicl::api::clGetPlatformInfo(platform, param, size, value, size_ret);
}
