// Info queries of vendor objects: one form for every kind of object, so
// that no layer above calls a vendor's dispatch table to ask one.
#pragma once
#include <string>
#include <vector>

#include "backend/vendor.hpp"

namespace unicl {

template <class H> struct VendorInfoSlot;
#define UNICL_VENDOR_INFO(H, SLOT) \
  template <> struct VendorInfoSlot<H> { static constexpr auto slot = &cl_icd_dispatch::SLOT; };
UNICL_VENDOR_INFO(cl_platform_id, clGetPlatformInfo)
UNICL_VENDOR_INFO(cl_device_id, clGetDeviceInfo)
UNICL_VENDOR_INFO(cl_context, clGetContextInfo)
UNICL_VENDOR_INFO(cl_command_queue, clGetCommandQueueInfo)
UNICL_VENDOR_INFO(cl_mem, clGetMemObjectInfo)
UNICL_VENDOR_INFO(cl_program, clGetProgramInfo)
UNICL_VENDOR_INFO(cl_kernel, clGetKernelInfo)
UNICL_VENDOR_INFO(cl_event, clGetEventInfo)
UNICL_VENDOR_INFO(cl_sampler, clGetSamplerInfo)
#undef UNICL_VENDOR_INFO

// clGet<Object>Info of vendor object `h`, as the vendor answers it.
template <class H>
cl_int vendor_info(H h, cl_uint param, size_t size, void *value, size_t *size_ret) {
  return (vendor_table(h).*VendorInfoSlot<H>::slot)(h, param, size, value, size_ret);
}

// UniCL's own questions: a vendor that gives no answer is not named with
// the failed calls (VendorExecution::Quiet).
// A fixed-size answer, or `fallback` when the vendor gives none.
template <class T, class H>
T vendor_value(H h, cl_uint param, T fallback = T{}) {
  VendorExecution::Quiet own_question;
  T v{};
  return vendor_info(h, param, sizeof v, &v, nullptr) == CL_SUCCESS ? v : fallback;
}

// A string answer ("" when the vendor gives none).
template <class H>
std::string vendor_text(H h, cl_uint param) {
  VendorExecution::Quiet own_question;
  std::string s;
  vendor_string([&](size_t n, void *v, size_t *r) { return vendor_info(h, param, n, v, r); }, s);
  return s;
}

// An array answer, whole (empty when the vendor gives none).
template <class T, class H>
std::vector<T> vendor_array(H h, cl_uint param) {
  VendorExecution::Quiet own_question;
  size_t n = 0;
  if (vendor_info(h, param, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::vector<T> all(n / sizeof(T));
  if (vendor_info(h, param, all.size() * sizeof(T), all.data(), nullptr) != CL_SUCCESS) return {};
  return all;
}

// The queries that name a second object.
cl_int vendor_image_info(cl_mem image, cl_image_info param, size_t size, void *value, size_t *size_ret);
cl_int vendor_build_info(cl_program program, cl_device_id device, cl_program_build_info param, size_t size,
                         void *value, size_t *size_ret);
cl_int vendor_work_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param, size_t size,
                              void *value, size_t *size_ret);
cl_int vendor_arg_info(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, size_t size, void *value,
                       size_t *size_ret);
cl_int vendor_profiling_info(cl_event event, cl_profiling_info param, size_t size, void *value, size_t *size_ret);

// The image formats vendor context `context` supports for `flags` and `type`.
cl_int vendor_image_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                            std::vector<cl_image_format> &out);

}  // namespace unicl
