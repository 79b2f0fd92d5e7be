// Programs and kernels. Building always succeeds: the source is only
// scanned for kernel signatures (kernel_source.cpp). In correctness mode
// PoCL compiles it later, at the first launch (pocl_bridge.cpp).
#include <cstring>

#include "api.hpp"
#include "info.hpp"
#include "objects.hpp"

namespace sim::api {
namespace {

cl_program create_program(Context *context, std::string source, cl_int *errcode_ret) {
  auto p = create<Program>();
  p->context = context->shared();
  p->source = std::move(source);
  p->kernels = scan_kernels(p->source);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return hand_out(p);
}

cl_kernel create_kernel(Program *program, const KernelSignature &sig) {
  auto k = create<Kernel>();
  k->program = program->shared();
  k->signature = &sig;
  k->args.resize(sig.params.size());
  return hand_out(k);
}

bool built(Program *p) {
  std::lock_guard lock(p->mutex);
  return p->built;
}

}  // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context_handle, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  auto *context = remote(context_handle);
  if (!checked(context)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  if (count == 0 || !strings) return fail(errcode_ret, CL_INVALID_VALUE);
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i]) return fail(errcode_ret, CL_INVALID_VALUE);
    source.append(strings[i], lengths && lengths[i] ? lengths[i] : std::strlen(strings[i]));
  }
  return create_program(context, std::move(source), errcode_ret);
}

// Our "binaries" are the source text (clGetProgramInfo(CL_PROGRAM_BINARIES)).
cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context_handle, cl_uint num_devices,
                                                 const cl_device_id *devices,
                                                 const size_t *lengths, const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  auto *context = remote(context_handle);
  if (!checked(context)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  if (num_devices == 0 || !devices || !lengths || !binaries) return fail(errcode_ret, CL_INVALID_VALUE);
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (!context->has(remote(devices[i]))) return fail(errcode_ret, CL_INVALID_DEVICE);
    if (!binaries[i] || !lengths[i]) {
      if (binary_status) binary_status[i] = CL_INVALID_VALUE;
      return fail(errcode_ret, CL_INVALID_VALUE);
    }
    if (binary_status) binary_status[i] = CL_SUCCESS;
  }
  return create_program(context, std::string(reinterpret_cast<const char *>(binaries[0]), lengths[0]), errcode_ret);
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return retain_handle(remote(program), CL_INVALID_PROGRAM);
}
cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return release_handle(remote(program), CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clBuildProgram(cl_program p_handle, cl_uint num_devices, const cl_device_id *devices,
                                  const char *options,
                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  auto *p = remote(p_handle);
  if (!checked(p)) return CL_INVALID_PROGRAM;
  if ((num_devices == 0) != (devices == nullptr) || (!pfn_notify && user_data)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!p->context->has(remote(devices[i]))) return CL_INVALID_DEVICE;
  {
    std::lock_guard lock(p->mutex);
    p->built = true;
    p->options = options ? options : "";
  }
  if (pfn_notify) pfn_notify(handle(p), user_data);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p_handle, cl_program_info param, size_t size, void *value,
                                    size_t *size_ret) {
  auto *p = remote(p_handle);
  if (!checked(p)) return CL_INVALID_PROGRAM;
  const auto &devices = p->context->devices;
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return info_value(size, value, size_ret, p->refs.load());
    case CL_PROGRAM_CONTEXT: return info_value(size, value, size_ret, handle(p->context.get()));
    case CL_PROGRAM_NUM_DEVICES: return info_value(size, value, size_ret, static_cast<cl_uint>(devices.size()));
    case CL_PROGRAM_DEVICES: return info_vector(size, value, size_ret, handles(devices));
    case CL_PROGRAM_SOURCE: return info_string(size, value, size_ret, p->source);
    case CL_PROGRAM_BINARY_SIZES:
      return info_vector(size, value, size_ret, std::vector<size_t>(devices.size(), p->source.size()));
    case CL_PROGRAM_BINARIES: {
      // An array of caller-owned buffers, one per device; null entries are skipped.
      size_t n = devices.size() * sizeof(unsigned char *);
      if (value) {
        if (size < n) return CL_INVALID_VALUE;
        for (size_t i = 0; i < devices.size(); ++i)
          if (auto out = static_cast<unsigned char **>(value)[i]) std::memcpy(out, p->source.data(), p->source.size());
      }
      if (size_ret) *size_ret = n;
      return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
      if (!built(p)) return CL_INVALID_PROGRAM_EXECUTABLE;
      return info_value(size, value, size_ret, p->kernels.size());
    case CL_PROGRAM_KERNEL_NAMES: {
      if (!built(p)) return CL_INVALID_PROGRAM_EXECUTABLE;
      std::string names;
      for (const auto &k : p->kernels) names += (names.empty() ? "" : ";") + k.name;
      return info_string(size, value, size_ret, names);
    }
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p_handle, cl_device_id d_handle, cl_program_build_info param,
                                         size_t size,
                                         void *value, size_t *size_ret) {
  auto *p = remote(p_handle);
  auto *d = remote(d_handle);
  if (!checked(p)) return CL_INVALID_PROGRAM;
  if (!p->context->has(d)) return CL_INVALID_DEVICE;
  std::lock_guard lock(p->mutex);
  switch (param) {
    case CL_PROGRAM_BUILD_STATUS:
      return info_value<cl_build_status>(size, value, size_ret, p->built ? CL_BUILD_SUCCESS : CL_BUILD_NONE);
    case CL_PROGRAM_BUILD_OPTIONS: return info_string(size, value, size_ret, p->options);
    case CL_PROGRAM_BUILD_LOG: return info_string(size, value, size_ret, "");
    case CL_PROGRAM_BINARY_TYPE:
      return info_value<cl_program_binary_type>(size, value, size_ret,
                                                p->built ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE);
    default: return CL_INVALID_VALUE;
  }
}

cl_kernel CL_API_CALL clCreateKernel(cl_program p_handle, const char *name, cl_int *errcode_ret) {
  auto *p = remote(p_handle);
  if (!checked(p)) return fail(errcode_ret, CL_INVALID_PROGRAM);
  if (!name) return fail(errcode_ret, CL_INVALID_VALUE);
  if (!built(p)) return fail(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
  for (const auto &sig : p->kernels) {
    if (sig.name == name) {
      if (errcode_ret) *errcode_ret = CL_SUCCESS;
      return create_kernel(p, sig);
    }
  }
  return fail(errcode_ret, CL_INVALID_KERNEL_NAME);
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p_handle, cl_uint num_kernels, cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  auto *p = remote(p_handle);
  if (!checked(p)) return CL_INVALID_PROGRAM;
  if (!built(p)) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (kernels && num_kernels < p->kernels.size()) return CL_INVALID_VALUE;
  if (kernels)
    for (size_t i = 0; i < p->kernels.size(); ++i) kernels[i] = create_kernel(p, p->kernels[i]);
  if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(p->kernels.size());
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return retain_handle(remote(kernel), CL_INVALID_KERNEL);
}
cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return release_handle(remote(kernel), CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel k_handle, cl_uint index, size_t size, const void *value) {
  auto *k = remote(k_handle);
  if (!checked(k)) return CL_INVALID_KERNEL;
  if (index >= k->signature->params.size()) return CL_INVALID_ARG_INDEX;
  const KernelParam &param = k->signature->params[index];
  Kernel::Arg arg;
  arg.set = true;
  if (param.address == CL_KERNEL_ARG_ADDRESS_LOCAL) {
    if (value) return CL_INVALID_ARG_VALUE;
    if (size == 0) return CL_INVALID_ARG_SIZE;
    arg.local_size = size;
  } else {
    if (param.size && size != param.size) return CL_INVALID_ARG_SIZE;
    if (param.is_buffer()) {
      // A buffer argument: null (or a pointer to null) is a null buffer.
      Memory *m = value ? remote(*static_cast<const cl_mem *>(value)) : nullptr;
      if (m && (!checked(m) || m->context != k->program->context)) return CL_INVALID_MEM_OBJECT;
      arg.bytes.resize(sizeof m);
      std::memcpy(arg.bytes.data(), &m, sizeof m);
    } else {
      if (!value || size == 0) return CL_INVALID_ARG_VALUE;
      auto bytes = static_cast<const std::byte *>(value);
      arg.bytes.assign(bytes, bytes + size);
    }
  }
  std::lock_guard lock(k->mutex);
  k->args[index] = std::move(arg);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k_handle, cl_kernel_info param, size_t size, void *value,
                                   size_t *size_ret) {
  auto *k = remote(k_handle);
  if (!checked(k)) return CL_INVALID_KERNEL;
  switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return info_string(size, value, size_ret, k->signature->name);
    case CL_KERNEL_NUM_ARGS:
      return info_value(size, value, size_ret, static_cast<cl_uint>(k->signature->params.size()));
    case CL_KERNEL_REFERENCE_COUNT: return info_value(size, value, size_ret, k->refs.load());
    case CL_KERNEL_CONTEXT: return info_value(size, value, size_ret, handle(k->program->context.get()));
    case CL_KERNEL_PROGRAM: return info_value(size, value, size_ret, handle(k->program.get()));
    case CL_KERNEL_ATTRIBUTES: return info_string(size, value, size_ret, "");
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k_handle, cl_uint index, cl_kernel_arg_info param, size_t size,
                                      void *value,
                                      size_t *size_ret) {
  auto *k = remote(k_handle);
  if (!checked(k)) return CL_INVALID_KERNEL;
  if (index >= k->signature->params.size()) return CL_INVALID_ARG_INDEX;
  const KernelParam &p = k->signature->params[index];
  switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: return info_value(size, value, size_ret, p.address);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: return info_value(size, value, size_ret, p.access);
    case CL_KERNEL_ARG_TYPE_NAME: return info_string(size, value, size_ret, p.type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: return info_value(size, value, size_ret, p.qualifiers);
    case CL_KERNEL_ARG_NAME: return info_string(size, value, size_ret, p.name);
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k_handle, cl_device_id d_handle,
                                            cl_kernel_work_group_info param, size_t size,
                                            void *value, size_t *size_ret) {
  auto *k = remote(k_handle);
  auto *d = remote(d_handle);
  if (!checked(k)) return CL_INVALID_KERNEL;
  const auto &devices = k->program->context->devices;
  if (!d && devices.size() == 1) d = devices[0];
  if (!k->program->context->has(d)) return CL_INVALID_DEVICE;
  switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: return info_value<size_t>(size, value, size_ret, 1024);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
      return info_vector(size, value, size_ret, std::vector<size_t>{0, 0, 0});
    case CL_KERNEL_LOCAL_MEM_SIZE: {
      cl_ulong local = 0;
      std::lock_guard lock(k->mutex);
      for (const auto &a : k->args) local += a.local_size;
      return info_value(size, value, size_ret, local);
    }
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return info_value<size_t>(size, value, size_ret, d->config.type == CL_DEVICE_TYPE_CPU ? 1 : 32);
    case CL_KERNEL_PRIVATE_MEM_SIZE: return info_value<cl_ulong>(size, value, size_ret, 0);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace sim::api
