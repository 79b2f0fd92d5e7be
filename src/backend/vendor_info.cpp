#include "backend/vendor_info.hpp"

namespace unicl {

cl_int vendor_image_info(cl_mem image, cl_image_info param, size_t size, void *value, size_t *size_ret) {
  return vendor_table(image).clGetImageInfo(image, param, size, value, size_ret);
}

cl_int vendor_build_info(cl_program program, cl_device_id device, cl_program_build_info param, size_t size,
                         void *value, size_t *size_ret) {
  return vendor_table(program).clGetProgramBuildInfo(program, device, param, size, value, size_ret);
}

cl_int vendor_work_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param, size_t size,
                              void *value, size_t *size_ret) {
  return vendor_table(kernel).clGetKernelWorkGroupInfo(kernel, device, param, size, value, size_ret);
}

cl_int vendor_arg_info(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, size_t size, void *value,
                       size_t *size_ret) {
  return vendor_table(kernel).clGetKernelArgInfo(kernel, index, param, size, value, size_ret);
}

cl_int vendor_profiling_info(cl_event event, cl_profiling_info param, size_t size, void *value, size_t *size_ret) {
  return vendor_table(event).clGetEventProfilingInfo(event, param, size, value, size_ret);
}

cl_int vendor_image_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                            std::vector<cl_image_format> &out) {
  cl_uint n = 0;
  if (cl_int err = vendor_table(context).clGetSupportedImageFormats(context, flags, type, 0, nullptr, &n); err != CL_SUCCESS)
    return err;
  out.resize(n);
  if (n == 0) return CL_SUCCESS;
  return vendor_table(context).clGetSupportedImageFormats(context, flags, type, n, out.data(), nullptr);
}

}  // namespace unicl
