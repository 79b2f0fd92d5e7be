// Program entry points: one vendor program per device slot of the program.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/composite_program.hpp"
#include "core/info.hpp"
#include "core/program.hpp"
#include "core/runtime.hpp"
#include "core/refusal.hpp"

namespace unicl::api {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  if (count == 0 || !strings) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "no sources (count is 0 or strings NULL)"));
  for (cl_uint i = 0; i < count; ++i)
    if (!strings[i]) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "a source string is NULL"));
  auto p = new_program(context);
  for (cl_uint i = 0; i < count; ++i) p->source.append(strings[i], lengths && lengths[i] ? lengths[i] : std::strlen(strings[i]));
  for (size_t s = 0; s < context->slots.size(); ++s) {
    cl_context v = context->vendor(s);
    cl_int err = CL_SUCCESS;
    VendorRef<cl_program> vp = vendor_program_with_source(v, count, strings, lengths, err);
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
    p->per_slot[s] = std::move(vp);
  }
  p->devices = context->devices();
  return hand_out(std::move(p), errcode_ret);
}

namespace {

// The composite's binary (core/composite_program.hpp): each member's
// program from its part; the worst status.
cl_int programs_from_composite_binary(_cl_program &p, const unsigned char *binary, size_t length, cl_int &status) {
  const _cl_context &ctx = *p.context;
  auto parts = member_binaries(ctx, binary, length);
  if (!parts) {
    status = CL_INVALID_BINARY;
    return refuse(CL_INVALID_BINARY, "the binary is not the composite's (made for other devices, or not by UniCL)");
  }
  status = CL_SUCCESS;
  for (size_t s = 0; s < parts->size(); ++s) {
    if ((*parts)[s].empty()) continue;
    cl_int part_status = CL_SUCCESS, err = CL_SUCCESS;
    VendorRef<cl_program> vp = vendor_program_with_binary(ctx.vendor(s), ctx.slots[s].device->vendor, (*parts)[s].size(),
                                                          (*parts)[s].data(), part_status, err);
    if (err != CL_SUCCESS) {
      status = part_status != CL_SUCCESS ? part_status : err;
      return err;
    }
    p.per_slot[s] = std::move(vp);
  }
  return CL_SUCCESS;
}

}  // namespace

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                                 const size_t *lengths, const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  if (num_devices == 0 || !devices || !lengths || !binaries) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "no devices, lengths or binaries (0 or NULL)"));
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!live(devices[i]) || context->slots_named(devices[i]).empty())
      return fail(errcode_ret, refuse(CL_INVALID_DEVICE, "a device of the list is not a live device of the context"));
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; ++i) {
    bool bad = !binaries[i] || lengths[i] == 0;
    if (binary_status) binary_status[i] = bad ? CL_INVALID_VALUE : CL_SUCCESS;
    if (bad) result = CL_INVALID_VALUE;
  }
  if (result != CL_SUCCESS) return fail(errcode_ret, refuse(result, "a binary is NULL or its length is 0"));
  auto p = new_program(context);
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (devices[i]->is_composite()) {
      cl_int status = CL_SUCCESS;
      cl_int err = programs_from_composite_binary(*p, binaries[i], lengths[i], status);
      if (binary_status) binary_status[i] = status;
      if (err != CL_SUCCESS) result = err;
      else p->devices.push_back(devices[i]);
      continue;
    }
    size_t s = context->slot_of(devices[i]);
    cl_context v = context->vendor(s);
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    VendorRef<cl_program> vp = vendor_program_with_binary(v, devices[i]->vendor, lengths[i], binaries[i], status, err);
    if (binary_status) binary_status[i] = status;
    if (err != CL_SUCCESS) {
      result = err;
      continue;
    }
    p->per_slot[s] = std::move(vp);
    p->devices.push_back(devices[i]);
  }
  if (result != CL_SUCCESS) return fail(errcode_ret, result);
  return hand_out(std::move(p), errcode_ret);
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *devices, const char *kernel_names,
                                                         cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  if (num_devices == 0 || !devices || !kernel_names) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "no devices or kernel_names (0 or NULL)"));
  auto p = new_program(context);
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (!live(devices[i])) return fail(errcode_ret, refuse(CL_INVALID_DEVICE, "a device of the list is not a live device"));
    std::vector<size_t> slots = context->slots_named(devices[i]);
    if (slots.empty()) return fail(errcode_ret, refuse(CL_INVALID_DEVICE, "device is not a device of the context"));
    for (size_t s : slots) {
      cl_int err = CL_SUCCESS;
      VendorRef<cl_program> vp =
          vendor_program_with_built_in_kernels(context->vendor(s), context->slots[s].device->vendor, kernel_names, err);
      if (err != CL_SUCCESS) return fail(errcode_ret, err);
      p->per_slot[s] = std::move(vp);
    }
    p->devices.push_back(devices[i]);
  }
  return hand_out(std::move(p), errcode_ret);
}

cl_int CL_API_CALL clRetainProgram(cl_program p) { return retain_handle(p, CL_INVALID_PROGRAM); }
cl_int CL_API_CALL clReleaseProgram(cl_program p) { return release_handle(p, CL_INVALID_PROGRAM); }

namespace {

// What clBuildProgram and clCompileProgram share: the checks (with
// `check_inputs(slots)` for the call's own arguments, given the slots of
// the devices it names), then `step(slot, vendor program, vendor device)`
// for each of those slots, under the build lock, then the notification.
// Returns the first failure of a step.
// `analysed_options`: a build, whose kernels are analysed with these options.
template <class CheckInputs, class Step>
cl_int build_each_slot(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                       void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, CheckInputs &&check_inputs,
                       Step &&step, std::optional<const char *> analysed_options = std::nullopt) {
  if (!live(program)) return refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program");
  if (!pfn_notify && user_data) return refuse(CL_INVALID_VALUE, "user_data is given without pfn_notify");
  std::vector<size_t> slots;
  if (cl_int err = program->slots_for(num_devices, device_list, slots); err != CL_SUCCESS) return err;
  if (cl_int err = check_inputs(slots); err != CL_SUCCESS) return err;
  if (program->attached_kernels.load() > 0) return refuse(CL_INVALID_OPERATION, "kernels made from the program are still alive");
  cl_int result = CL_SUCCESS;
  {
    std::lock_guard lock(program->build_mutex);
    const auto start = std::chrono::steady_clock::now();
    if (analysed_options) program->begin_analysis(slots, *analysed_options);
    for (size_t s : slots) {
      result = _cl_program::combine_build_results(result, step(s, program->per_slot[s].get(), program->context->slots[s].device->vendor));
    }
    if (analysed_options) program->await_analysis(std::chrono::steady_clock::now() - start);
  }
  if (pfn_notify) pfn_notify(program, user_data);
  return result;
}

}  // namespace

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data) {
  auto nothing_more = [](const std::vector<size_t> &) { return CL_SUCCESS; };
  return build_each_slot(program, num_devices, device_list, pfn_notify, user_data, nothing_more,
                         [&](size_t s, cl_program vp, cl_device_id vdev) {
                           return vendor_build(vp, vdev, program->options_for(s, options).c_str());
                         }, options);
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, cl_uint num_input_headers, const cl_program *input_headers,
                                    const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  auto check_headers = [&](const std::vector<size_t> &slots) -> cl_int {
    if ((num_input_headers == 0) != (input_headers == nullptr) ||
        (num_input_headers == 0) != (header_include_names == nullptr))
      return refuse(CL_INVALID_VALUE, "num_input_headers, input_headers and header_include_names disagree (0 or NULL)");
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      if (!live(input_headers[i])) return refuse(CL_INVALID_PROGRAM, "an input header is not a live program");
      for (size_t s : slots)
        if (!input_headers[i]->per_slot[s])
          return refuse(CL_INVALID_OPERATION, "an input header has no program for a device of this compilation");
    }
    return CL_SUCCESS;
  };
  return build_each_slot(program, num_devices, device_list, pfn_notify, user_data, check_headers,
                         [&](size_t s, cl_program vp, cl_device_id vdev) {
                           std::vector<cl_program> headers;
                           for (cl_uint i = 0; i < num_input_headers; ++i) headers.push_back(input_headers[i]->per_slot[s].get());
                           return vendor_compile(vp, vdev, program->options_for(s, options).c_str(), headers,
                                                 header_include_names);
                         });
}

// The slots a link reaches (in the order of device_list, or every slot
// with a vendor program of each input), each device of the list checked;
// a listed device without every input is the link's to refuse.
static cl_int link_slots(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                         cl_uint num_input_programs, const cl_program *input_programs, std::vector<size_t> &slots) {
  auto has_all_inputs = [&](size_t s) {
    return std::all_of(input_programs, input_programs + num_input_programs,
                       [s](cl_program p) { return bool(p->per_slot[s]); });
  };
  return slots_of(*context, {num_devices, device_list}, has_all_inputs, false, "device is not a device of the context",
                  slots);
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                     const char *options, cl_uint num_input_programs,
                                     const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  if (!pfn_notify && user_data) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "user_data is given without pfn_notify"));
  if (num_input_programs == 0 || !input_programs)
    return fail(errcode_ret, refuse(CL_INVALID_VALUE, "no input programs (num_input_programs is 0 or input_programs NULL)"));
  if ((num_devices == 0) != (device_list == nullptr))
    return fail(errcode_ret, refuse(CL_INVALID_VALUE, "num_devices and device_list disagree (0 or NULL)"));
  for (cl_uint i = 0; i < num_input_programs; ++i)
    if (!live(input_programs[i]) || input_programs[i]->context.get() != context)
      return fail(errcode_ret, refuse(CL_INVALID_PROGRAM, "an input program is not a live program of the context"));
  std::vector<size_t> slots;
  if (cl_int err = link_slots(context, num_devices, device_list, num_input_programs, input_programs, slots);
      err != CL_SUCCESS)
    return fail(errcode_ret, err);
  cl_int result = CL_SUCCESS;
  auto p = link_program(context, slots, options, {input_programs, num_input_programs}, result);
  if (!p) return fail(errcode_ret, result);
  if (pfn_notify) pfn_notify(p.get(), user_data);
  set_error(errcode_ret, result);
  return p.detach();
}

// CL_PROGRAM_BINARIES: an array of one pointer per device, each to as many
// bytes as CL_PROGRAM_BINARY_SIZES says.
static cl_int program_binaries(cl_program p, size_t size, void *value, size_t *size_ret) {
  size_t n = p->devices.size() * sizeof(unsigned char *);
  if (value) {
    if (size < n) return refuse(CL_INVALID_VALUE, "param_value_size is below the size of the answer");
    if (cl_int err = p->binaries(static_cast<unsigned char **>(value)); err != CL_SUCCESS) return err;
  }
  if (size_ret) *size_ret = n;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(p)) return refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program");
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, p->refs.load());
    case CL_PROGRAM_CONTEXT: return info_value<cl_context>(size, value, size_ret, p->context.get());
    case CL_PROGRAM_NUM_DEVICES:
      return info_value<cl_uint>(size, value, size_ret, static_cast<cl_uint>(p->devices.size()));
    case CL_PROGRAM_DEVICES: return info_vector(size, value, size_ret, p->devices);
    case CL_PROGRAM_BINARY_SIZES: {
      std::vector<size_t> sizes;
      if (cl_int err = p->binary_sizes(sizes); err != CL_SUCCESS) return err;
      return info_vector(size, value, size_ret, sizes);
    }
    case CL_PROGRAM_BINARIES: return program_binaries(p, size, value, size_ret);
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return info_value<cl_bool>(size, value, size_ret, CL_FALSE);
    case CL_PROGRAM_IL: return info_bytes(size, value, size_ret, nullptr, 0);
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: return p->built_info(param, size, value, size_ret);
    case CL_PROGRAM_ANALYSIS_UNICL: return info_string(size, value, size_ret, p->analysis_verdicts());
    case CL_PROGRAM_SOURCE: return vendor_info(p->first_vendor(), param, size, value, size_ret);
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id device, cl_program_build_info param, size_t size,
                                         void *value, size_t *size_ret) {
  if (!live(p)) return refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program");
  if (!live(device)) return refuse(CL_INVALID_DEVICE, "device is NULL or not a live device");
  if (device == p->context->composite.get()) return composite_build_info(*p, param, size, value, size_ret);
  size_t s = p->context->slot_of(device);
  if (s == _cl_context::npos || !p->per_slot[s]) return refuse(CL_INVALID_DEVICE, "device is not a device of the program");
  cl_program vp = p->per_slot[s].get();
  if (param == CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE && device->vendor_version < 200)
    return info_value<size_t>(size, value, size_ret, 0);
  if (param == CL_PROGRAM_BUILD_LOG || param == CL_PROGRAM_BUILD_OPTIONS) {
    // A program never built for the device has an empty log and no options;
    // PoCL answers CL_INVALID_PROGRAM instead.
    cl_build_status status = CL_BUILD_NONE;
    vendor_build_info(vp, device->vendor, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
    if (status == CL_BUILD_NONE) return info_string(size, value, size_ret, "");
  }
  if (param == CL_PROGRAM_BUILD_OPTIONS) {
    std::lock_guard lock(p->build_mutex);
    if (s < p->build_options.size() && p->build_options[s])
      return info_string(size, value, size_ret, *p->build_options[s]);
  }
  return vendor_build_info(vp, device->vendor, param, size, value, size_ret);
}

}  // namespace unicl::api
