#include "backend/vendor_objects.hpp"

#include <algorithm>

#include "backend/vendor_info.hpp"

namespace unicl {

std::vector<cl_device_id> vendor_devices(cl_platform_id platform) {
  cl_uint n = 0;
  if (vendor_table(platform).clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_device_id> ids(n);
  if (vendor_table(platform).clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr) != CL_SUCCESS) return {};
  return ids;
}

bool serialize_vendor(VendorExecution &execution, cl_platform_id platform) {
  return execution.add_runs_on_caller(own_table(platform));
}

bool log_vendor_failures(VendorExecution &execution, cl_platform_id platform, const char *vendor,
                         VendorExecution::FailureReport report) {
  return execution.log_failures(own_table(platform), vendor, report);
}

cl_int vendor_sub_devices(cl_device_id device, const cl_device_partition_property *properties,
                          std::vector<cl_device_id> *out, cl_uint &count) {
  if (!out) return vendor_table(device).clCreateSubDevices(device, properties, 0, nullptr, &count);
  out->resize(count);
  return vendor_table(device).clCreateSubDevices(device, properties, count, out->data(), nullptr);
}

VendorRef<cl_context> vendor_context(const cl_context_properties *properties, cl_device_id device,
                                     VendorContextNotify notify, void *user_data, cl_int &err) {
  return VendorRef<cl_context>::adopt(vendor_table(device).clCreateContext(properties, 1, &device, notify, user_data, &err));
}

VendorRef<cl_context> vendor_context(const cl_context_properties *properties, std::span<const cl_device_id> devices,
                                     VendorContextNotify notify, void *user_data, cl_int &err) {
  return VendorRef<cl_context>::adopt(vendor_table(devices.front())
                                          .clCreateContext(properties, static_cast<cl_uint>(devices.size()),
                                                           devices.data(), notify, user_data, &err));
}

namespace {
// Where `device`'s binary stands in the answers of `program`'s per-device
// queries. PoCL 3.1 puts the binary of a program built for one device of a
// context of several first, whichever device that is (and reports nothing
// where that device stands): then the only binary there is is the device's.
cl_int binary_index(cl_program program, cl_device_id device, size_t &index, size_t &count) {
  std::vector<cl_device_id> devices = vendor_array<cl_device_id>(program, CL_PROGRAM_DEVICES);
  auto at = std::find(devices.begin(), devices.end(), device);
  if (at == devices.end()) return CL_INVALID_DEVICE;
  index = static_cast<size_t>(at - devices.begin());
  count = devices.size();
  if (count < 2) return CL_SUCCESS;
  std::vector<size_t> sizes(count);
  if (vendor_info(program, CL_PROGRAM_BINARY_SIZES, count * sizeof(size_t), sizes.data(), nullptr) != CL_SUCCESS)
    return CL_SUCCESS;
  if (sizes[index] == 0 && std::count_if(sizes.begin(), sizes.end(), [](size_t s) { return s > 0; }) == 1)
    index = static_cast<size_t>(std::find_if(sizes.begin(), sizes.end(), [](size_t s) { return s > 0; }) - sizes.begin());
  return CL_SUCCESS;
}
}  // namespace

cl_int vendor_binary_size(cl_program program, cl_device_id device, size_t &size) {
  size_t index = 0, count = 0;
  if (cl_int err = binary_index(program, device, index, count); err != CL_SUCCESS) return err;
  std::vector<size_t> sizes(count);
  if (cl_int err = vendor_info(program, CL_PROGRAM_BINARY_SIZES, count * sizeof(size_t), sizes.data(), nullptr);
      err != CL_SUCCESS)
    return err;
  size = sizes[index];
  return CL_SUCCESS;
}

cl_int vendor_binary(cl_program program, cl_device_id device, unsigned char *out) {
  size_t index = 0, count = 0;
  if (cl_int err = binary_index(program, device, index, count); err != CL_SUCCESS) return err;
  // A null entry skips that device's binary, as the specification says.
  std::vector<unsigned char *> outs(count, nullptr);
  outs[index] = out;
  return vendor_info(program, CL_PROGRAM_BINARIES, count * sizeof(unsigned char *), outs.data(), nullptr);
}

VendorRef<cl_command_queue> vendor_queue(cl_context context, cl_device_id device,
                                         cl_command_queue_properties properties, cl_int &err) {
  return VendorRef<cl_command_queue>::adopt(vendor_table(context).clCreateCommandQueue(context, device, properties, &err));
}

cl_int vendor_flush(cl_command_queue queue) { return vendor_table(queue).clFlush(queue); }
cl_int vendor_finish(cl_command_queue queue) { return vendor_table(queue).clFinish(queue); }

VendorRef<cl_mem> vendor_buffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int &err) {
  return VendorRef<cl_mem>::adopt(vendor_table(context).clCreateBuffer(context, flags, size, host_ptr, &err));
}

VendorRef<cl_mem> vendor_image(cl_context context, cl_mem_flags flags, const cl_image_format &format,
                               const cl_image_desc &desc, void *host_ptr, cl_int &err) {
  return VendorRef<cl_mem>::adopt(vendor_table(context).clCreateImage(context, flags, &format, &desc, host_ptr, &err));
}

VendorRef<cl_mem> vendor_sub_buffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                    const void *info, cl_int &err) {
  return VendorRef<cl_mem>::adopt(vendor_table(parent).clCreateSubBuffer(parent, flags, type, info, &err));
}

VendorRef<cl_sampler> vendor_sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                                     cl_filter_mode filter, cl_int &err) {
  return VendorRef<cl_sampler>::adopt(vendor_table(context).clCreateSampler(context, normalized, addressing, filter, &err));
}

VendorRef<cl_program> vendor_program_with_source(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int &err) {
  return VendorRef<cl_program>::adopt(vendor_table(context).clCreateProgramWithSource(context, count, strings, lengths, &err));
}

VendorRef<cl_program> vendor_program_with_binary(cl_context context, cl_device_id device, size_t length,
                                                 const unsigned char *binary, cl_int &status, cl_int &err) {
  return VendorRef<cl_program>::adopt(
      vendor_table(context).clCreateProgramWithBinary(context, 1, &device, &length, &binary, &status, &err));
}

VendorRef<cl_program> vendor_program_with_built_in_kernels(cl_context context, cl_device_id device,
                                                           const char *names, cl_int &err) {
  return VendorRef<cl_program>::adopt(
      vendor_table(context).clCreateProgramWithBuiltInKernels(context, 1, &device, names, &err));
}

cl_int vendor_build(cl_program program, cl_device_id device, const char *options) {
  return vendor_table(program).clBuildProgram(program, 1, &device, options, nullptr, nullptr);
}

cl_int vendor_compile(cl_program program, cl_device_id device, const char *options,
                      const std::vector<cl_program> &headers, const char **header_names) {
  return vendor_table(program).clCompileProgram(program, 1, &device, options, static_cast<cl_uint>(headers.size()),
                                      headers.empty() ? nullptr : headers.data(), header_names, nullptr, nullptr);
}

VendorRef<cl_program> vendor_link(cl_context context, cl_device_id device, const char *options,
                                  const std::vector<cl_program> &inputs, cl_int &err) {
  return VendorRef<cl_program>::adopt(vendor_table(context).clLinkProgram(
      context, 1, &device, options, static_cast<cl_uint>(inputs.size()), inputs.data(), nullptr, nullptr, &err));
}

bool vendor_has_executable(cl_program program, cl_device_id device, unsigned version) {
  cl_build_status status = CL_BUILD_NONE;
  if (vendor_build_info(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS ||
      status != CL_BUILD_SUCCESS)
    return false;
  if (version < 120) return true;
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  vendor_build_info(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  return type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

VendorRef<cl_kernel> vendor_kernel(cl_program program, const char *name, cl_int &err) {
  return VendorRef<cl_kernel>::adopt(vendor_table(program).clCreateKernel(program, name, &err));
}

cl_int vendor_set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value) {
  return vendor_table(kernel).clSetKernelArg(kernel, index, size, value);
}

bool vendor_arg(cl_kernel kernel, cl_uint index, VendorArgInfo &out) {
  VendorExecution::Quiet own_question;  // PoCL keeps it unless a build asks for it
  if (vendor_arg_info(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof out.address, &out.address, nullptr) !=
      CL_SUCCESS)
    return false;
  vendor_arg_info(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof out.type_qualifier, &out.type_qualifier,
                  nullptr);
  vendor_arg_info(kernel, index, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof out.access, &out.access, nullptr);
  vendor_string([&](size_t n, void *v, size_t *r) {
    return vendor_arg_info(kernel, index, CL_KERNEL_ARG_TYPE_NAME, n, v, r);
  }, out.type_name);
  return true;
}

VendorRef<cl_kernel> vendor_clone_kernel(cl_kernel kernel, cl_int &err) {
  return VendorRef<cl_kernel>::adopt(vendor_table(kernel).clCloneKernel(kernel, &err));
}

void *vendor_svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  return vendor_table(context).clSVMAlloc(context, flags, size, alignment);
}

void vendor_svm_free(cl_context context, void *pointer) { vendor_table(context).clSVMFree(context, pointer); }

cl_int vendor_set_arg_svm(cl_kernel kernel, cl_uint index, const void *pointer) {
  return vendor_table(kernel).clSetKernelArgSVMPointer(kernel, index, pointer);
}

cl_int vendor_set_exec_info(cl_kernel kernel, cl_kernel_exec_info param, size_t size, const void *value) {
  return vendor_table(kernel).clSetKernelExecInfo(kernel, param, size, value);
}

VendorRef<cl_event> vendor_user_event(cl_context context, cl_int &err) {
  return VendorRef<cl_event>::adopt(vendor_table(context).clCreateUserEvent(context, &err));
}

cl_int vendor_set_user_event_status(cl_event event, cl_int status) {
  return vendor_table(event).clSetUserEventStatus(event, status);
}

cl_int vendor_wait(cl_event event) { return vendor_table(event).clWaitForEvents(1, &event); }

}  // namespace unicl
