// Making and working vendor objects: the calls UniCL's entry points and
// core need from a vendor besides commands (vendor_commands.hpp) and info
// queries (vendor_info.hpp). Each makes one vendor object for one device
// and hands back its reference; `err` gets the vendor's error.
#pragma once
#include <span>
#include <vector>

#include "backend/vendor.hpp"

namespace unicl {

// Platforms and devices.
std::vector<cl_device_id> vendor_devices(cl_platform_id platform);
// Runs every later call into the vendor of `platform` one at a time
// (vendor_execution.hpp): for vendors that are not thread-safe. False when
// it cannot (too many vendor libraries): the vendor must not be used.
[[nodiscard]] bool serialize_vendor(VendorExecution &execution, cl_platform_id platform);
// Names every later call into the vendor of `platform` that fails
// (vendor_execution.hpp); `vendor` lives as long as the process. False
// when it cannot (too many vendor libraries).
[[nodiscard]] bool log_vendor_failures(VendorExecution &execution, cl_platform_id platform, const char *vendor,
                                       VendorExecution::FailureReport report);
// Without `out`: how many sub-devices `properties` make of `device`, in
// `count`. With it: makes those `count` sub-devices, into `out`.
cl_int vendor_sub_devices(cl_device_id device, const cl_device_partition_property *properties,
                          std::vector<cl_device_id> *out, cl_uint &count);

// Contexts and queues.
using VendorContextNotify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
VendorRef<cl_context> vendor_context(const cl_context_properties *properties, cl_device_id device,
                                     VendorContextNotify notify, void *user_data, cl_int &err);
// One vendor context for several devices of one vendor platform.
VendorRef<cl_context> vendor_context(const cl_context_properties *properties, std::span<const cl_device_id> devices,
                                     VendorContextNotify notify, void *user_data, cl_int &err);
VendorRef<cl_command_queue> vendor_queue(cl_context context, cl_device_id device,
                                         cl_command_queue_properties properties, cl_int &err);
cl_int vendor_flush(cl_command_queue queue);
cl_int vendor_finish(cl_command_queue queue);

// Memory objects and samplers.
VendorRef<cl_mem> vendor_buffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int &err);
VendorRef<cl_mem> vendor_image(cl_context context, cl_mem_flags flags, const cl_image_format &format,
                               const cl_image_desc &desc, void *host_ptr, cl_int &err);
VendorRef<cl_mem> vendor_sub_buffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                    const void *info, cl_int &err);
VendorRef<cl_sampler> vendor_sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                                     cl_filter_mode filter, cl_int &err);

// Programs, for one device each.
VendorRef<cl_program> vendor_program_with_source(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int &err);
VendorRef<cl_program> vendor_program_with_binary(cl_context context, cl_device_id device, size_t length,
                                                 const unsigned char *binary, cl_int &status, cl_int &err);
VendorRef<cl_program> vendor_program_with_built_in_kernels(cl_context context, cl_device_id device,
                                                           const char *names, cl_int &err);
cl_int vendor_build(cl_program program, cl_device_id device, const char *options);
cl_int vendor_compile(cl_program program, cl_device_id device, const char *options,
                      const std::vector<cl_program> &headers, const char **header_names);
VendorRef<cl_program> vendor_link(cl_context context, cl_device_id device, const char *options,
                                  const std::vector<cl_program> &inputs, cl_int &err);
// The binary `program` holds for `device`: its size, or its bytes into `out`
// (that size). The program may belong to a vendor context of several
// devices, whose binary queries answer one entry per device.
cl_int vendor_binary_size(cl_program program, cl_device_id device, size_t &size);
cl_int vendor_binary(cl_program program, cl_device_id device, unsigned char *out);
// Whether `program` holds an executable for `device` (of OpenCL `version`).
bool vendor_has_executable(cl_program program, cl_device_id device, unsigned version);

// Kernels.
VendorRef<cl_kernel> vendor_kernel(cl_program program, const char *name, cl_int &err);
cl_int vendor_set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value);
// A copy of `kernel` with its arguments as they are now (OpenCL 2.1 vendors).
VendorRef<cl_kernel> vendor_clone_kernel(cl_kernel kernel, cl_int &err);
// What the vendor tells of argument `index` (false when it tells nothing).
struct VendorArgInfo {
  cl_kernel_arg_address_qualifier address = 0;
  cl_kernel_arg_type_qualifier type_qualifier = 0;
  cl_kernel_arg_access_qualifier access = 0;
  std::string type_name;
};
bool vendor_arg(cl_kernel kernel, cl_uint index, VendorArgInfo &out);

// Shared virtual memory (OpenCL 2.0 vendors): the vendor's allocations in
// `context`, and its kernels' SVM arguments and execution information.
void *vendor_svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment);
void vendor_svm_free(cl_context context, void *pointer);
cl_int vendor_set_arg_svm(cl_kernel kernel, cl_uint index, const void *pointer);
cl_int vendor_set_exec_info(cl_kernel kernel, cl_kernel_exec_info param, size_t size, const void *value);

// User events, UniCL's stand-ins for its own events in vendor wait lists.
VendorRef<cl_event> vendor_user_event(cl_context context, cl_int &err);
cl_int vendor_set_user_event_status(cl_event event, cl_int status);
cl_int vendor_wait(cl_event event);

}  // namespace unicl
