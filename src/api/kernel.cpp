// Kernel entry points. A UniCL kernel holds one vendor kernel per slot its
// program was built for; arguments are translated per slot (a UniCL buffer
// becomes that slot's replica) and recorded for coherence and cloning.
#include <algorithm>
#include <cstring>
#include <sstream>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "api/launch_checks.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/composite_program.hpp"
#include "core/info.hpp"
#include "core/kernel.hpp"
#include "core/sampler.hpp"
#include "memory/coherence.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// What the vendor kernel `vk` says of the arguments not yet known: each
// device's kernel is asked in turn (PoCL answers without
// -cl-kernel-arg-info only CL_KERNEL_ARG_INFO_NOT_AVAILABLE, oclgrind
// always answers).
void read_arg_meta(_cl_kernel &k, cl_kernel vk, unsigned version) {
  if (k.meta.empty()) {
    cl_uint n = vendor_value<cl_uint>(vk, CL_KERNEL_NUM_ARGS);
    k.meta.resize(n);
    k.args.resize(n);
  }
  if (version < 120) return;
  for (cl_uint i = 0; i < k.meta.size(); ++i) {
    ArgMeta &m = k.meta[i];
    if (m.known) continue;
    VendorArgInfo info;
    if (!vendor_arg(vk, i, info)) continue;
    m.known = true;
    bool image = info.type_name.find("image") != std::string::npos;
    m.image = image;
    m.sampler = info.type_name == "sampler_t";
    m.local = info.address == CL_KERNEL_ARG_ADDRESS_LOCAL;
    m.memory = image || info.address == CL_KERNEL_ARG_ADDRESS_GLOBAL || info.address == CL_KERNEL_ARG_ADDRESS_CONSTANT;
    bool read_only = info.address == CL_KERNEL_ARG_ADDRESS_CONSTANT ||
                     (info.type_qualifier & CL_KERNEL_ARG_TYPE_CONST) ||
                     (image && info.access == CL_KERNEL_ARG_ACCESS_READ_ONLY);
    bool write_only = image && info.access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    m.access = read_only ? kRead : write_only ? kWrite : kReadWrite;
  }
}

// True when the vendor program of `slot` holds an executable for its device.
// Asked here rather than left to clCreateKernel because vendors differ on
// unbuilt programs (oclgrind answers CL_INVALID_KERNEL_NAME).
bool has_executable(_cl_program &program, size_t slot) {
  const _cl_device_id &dev = *program.context->slots[slot].device;
  return vendor_has_executable(program.per_slot[slot].get(), dev.vendor, dev.vendor_version);
}

cl_kernel create_kernel(cl_program program, const char *name, cl_int *errcode_ret) {
  auto k = make_object<_cl_kernel>();
  k->name = name;
  k->per_slot.resize(program->per_slot.size());
  cl_int result = CL_INVALID_PROGRAM_EXECUTABLE;
  for (size_t s = 0; s < program->per_slot.size(); ++s) {
    cl_program vp = program->per_slot[s].get();
    if (!vp || !has_executable(*program, s)) continue;
    cl_int err = CL_SUCCESS;
    VendorRef<cl_kernel> made = vendor_kernel(vp, name, err);
    if (err == CL_INVALID_PROGRAM_EXECUTABLE) continue;  // not built for this device
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
    cl_kernel vk = made.get();
    k->per_slot[s] = std::move(made);
    read_arg_meta(*k, vk, program->context->slots[s].device->vendor_version);
    result = CL_SUCCESS;
  }
  if (result != CL_SUCCESS) return fail(errcode_ret, refuse(result, "the program has no executable for any device of its context"));
  k->program = Ref<_cl_program>(program);
  if (program->context->multi()) {
    k->limits.resize(k->per_slot.size());
    for (size_t s = 0; s < k->per_slot.size(); ++s)
      if (k->per_slot[s]) k->limits[s] = api::read_limits(*k, s);
  }
  {
    std::lock_guard lock(program->build_mutex);
    k->analysis = program->analysis;
  }
  program->attached_kernels.fetch_add(1);
  return hand_out(std::move(k), errcode_ret);
}

cl_kernel first_vendor_kernel(_cl_kernel *k) {
  for (auto &v : k->per_slot)
    if (v) return v.get();
  return nullptr;
}

cl_int check_and_set_arg(_cl_kernel *k, cl_uint index, size_t size, const void *value) {
  if (index >= k->meta.size()) return refuse(CL_INVALID_ARG_INDEX, "arg_index is not below the kernel's number of arguments");
  const ArgMeta &meta = k->meta[index];
  _cl_context &ctx = *k->program->context;
  void *given = (value && size == sizeof(void *)) ? *static_cast<void *const *>(value) : nullptr;
  // Without argument info, a value that is the address of a UniCL memory
  // object or sampler is taken as one; a released one is then refused
  // below instead of reaching the vendor as a pointer it never made.
  bool is_mem = meta.known ? meta.memory : is_handle_cell<_cl_mem>(given);
  bool is_sampler = meta.known ? meta.sampler : is_handle_cell<_cl_sampler>(given);
  // Refused here, not by each vendor: oclgrind copies from a null value.
  if (meta.known && meta.local && value) return refuse(CL_INVALID_ARG_VALUE, "a value for a __local argument");
  if (meta.known && !meta.local && !is_mem && !is_sampler && !value)
    return refuse(CL_INVALID_ARG_VALUE, "no value for an argument that is not __local");
  ArgValue arg;
  arg.set = true;
  arg.size = size;
  arg.memory = is_mem;
  if (is_mem) {
    if (size != sizeof(cl_mem)) return refuse(CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_mem) for a memory object argument");
    if (given) {
      auto *m = static_cast<cl_mem>(given);
      if (!live(m) || m->context.get() != &ctx) return refuse(CL_INVALID_MEM_OBJECT, "the value is not a live memory object of the kernel's context");
      arg.mem = m;
    }
    arg.null_value = !given;
  } else if (is_sampler) {
    if (size != sizeof(cl_sampler)) return refuse(CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_sampler) for a sampler argument");
    auto *smp = static_cast<cl_sampler>(given);
    if (!live(smp) || smp->context.get() != &ctx) return refuse(CL_INVALID_SAMPLER, "the value is not a live sampler of the kernel's context");
  }
  return k->set_arg(index, std::move(arg), is_sampler ? static_cast<cl_sampler>(given) : nullptr, value);
}

// An SVM pointer argument: valid on every device of a context that offers
// SVM (its devices share one vendor context), so set on each vendor kernel
// now, and on the launch kernels as they launch.
cl_int set_arg_svm(_cl_kernel *k, cl_uint index, const void *pointer) {
  if (index >= k->meta.size()) return refuse(CL_INVALID_ARG_INDEX, "arg_index is not below the kernel's number of arguments");
  if (!k->program->context->svm_capabilities) return refuse(CL_INVALID_OPERATION, "the context offers no shared virtual memory");
  for (auto &vk : k->per_slot)
    if (vk)
      if (cl_int err = vendor_set_arg_svm(vk.get(), index, pointer); err != CL_SUCCESS) return err;
  ArgValue arg;
  arg.set = true;
  arg.svm = true;
  arg.size = sizeof pointer;
  arg.bytes.resize(sizeof pointer);
  std::memcpy(arg.bytes.data(), &pointer, sizeof pointer);
  std::lock_guard guard(k->mutex);
  k->args[index] = std::move(arg);
  return CL_SUCCESS;
}

// clSetKernelExecInfo: every vendor kernel of `k` gets it, those made later
// too.
cl_int set_exec_info(_cl_kernel *k, cl_kernel_exec_info param, size_t size, const void *value) {
  if (!k->program->context->svm_capabilities) return refuse(CL_INVALID_OPERATION, "the context offers no shared virtual memory");
  if (!value || size == 0) return refuse(CL_INVALID_VALUE, "param_value is NULL or param_value_size 0");
  for (auto &vk : k->per_slot)
    if (vk)
      if (cl_int err = vendor_set_exec_info(vk.get(), param, size, value); err != CL_SUCCESS) return err;
  std::lock_guard guard(k->mutex);
  for (auto &vk : k->launch_per_slot)
    if (vk)
      if (cl_int err = vendor_set_exec_info(vk.get(), param, size, value); err != CL_SUCCESS) return err;
  auto *bytes = static_cast<const std::byte *>(value);
  k->exec_info.push_back({param, std::vector<std::byte>(bytes, bytes + size)});
  return CL_SUCCESS;
}

}  // namespace

}  // namespace unicl

namespace unicl::api {

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  if (!live(program)) return fail(errcode_ret, refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program"));
  if (!kernel_name) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "kernel_name is NULL"));
  return create_kernel(program, kernel_name, errcode_ret);
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  if (!live(program)) return refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program");
  std::string names;
  cl_int err = CL_INVALID_PROGRAM_EXECUTABLE;
  for (auto &vp : program->per_slot) {
    if (!vp) continue;
    err = vendor_string([&](size_t n, void *v, size_t *r) {
      return vendor_info(vp.get(), CL_PROGRAM_KERNEL_NAMES, n, v, r);
    }, names);
    if (err == CL_SUCCESS) break;
  }
  if (err != CL_SUCCESS) return err;
  std::vector<std::string> list;
  std::stringstream ss(names);
  for (std::string n; std::getline(ss, n, ';');)
    if (!n.empty()) list.push_back(n);
  if (kernels && num_kernels < list.size()) return refuse(CL_INVALID_VALUE, "num_kernels is below the number of kernels in the program");
  if (kernels) {
    for (size_t i = 0; i < list.size(); ++i) {
      kernels[i] = create_kernel(program, list[i].c_str(), &err);
      if (err != CL_SUCCESS) {
        for (size_t j = 0; j < i; ++j) release(kernels[j]);
        return err;
      }
    }
  }
  if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(list.size());
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel k) { return retain_handle(k, CL_INVALID_KERNEL); }
cl_int CL_API_CALL clReleaseKernel(cl_kernel k) { return release_handle(k, CL_INVALID_KERNEL); }

namespace {

// StarPU SOCL's divide-function registration through clSetKernelArg (see
// cl_ext_unicl.h): indices (cl_uint)-1, -2 and -3.
constexpr cl_uint kSoclFunction = static_cast<cl_uint>(-1), kSoclFactors = static_cast<cl_uint>(-2),
                  kSoclUserData = static_cast<cl_uint>(-3);

cl_int set_socl_divide(cl_kernel k, cl_uint index, const void *value) {
  std::lock_guard lock(k->mutex);
  DivideFunction &d = k->divide;
  if (index == kSoclFunction) {
    // SOCL takes the value as the function pointer itself.
    d.fn = reinterpret_cast<cl_divide_function_unicl>(const_cast<void *>(value));
  } else if (index == kSoclFactors) {
    if (!value) return refuse(CL_INVALID_ARG_VALUE, "param_value is NULL");
    cl_uint n = *static_cast<const cl_uint *>(value);
    // SOCL tries the factors 1 .. n-1.
    d.min_factor = 1;
    d.max_factor = std::max<cl_uint>(n, 2) - 1;
  } else {
    d.user_data = const_cast<void *>(value);
  }
  return CL_SUCCESS;
}

// The attributes the source gives the kernel, from the first device's
// kernel that answers with text (empty included): each device compiled the
// same source. oclgrind 21.10 answers from memory it has freed (garbage,
// and a heap-use-after-free under AddressSanitizer), so it is asked last.
cl_int kernel_attributes(_cl_kernel &k, size_t size, void *value, size_t *size_ret) {
  auto is_text = [](const std::string &s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  };
  const _cl_context &ctx = *k.program->context;
  std::vector<size_t> order;
  for (size_t s = 0; s < k.per_slot.size(); ++s)
    if (k.per_slot[s]) order.push_back(s);
  std::stable_partition(order.begin(), order.end(), [&](size_t s) {
    return ctx.slots[s].device->name.find("Oclgrind") == std::string::npos;
  });
  std::string found;
  for (size_t s : order) {
    std::string answer = vendor_text(k.per_slot[s].get(), CL_KERNEL_ATTRIBUTES);
    if (is_text(answer)) {
      found = std::move(answer);
      break;
    }
  }
  return info_string(size, value, size_ret, found);
}

}  // namespace

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint arg_index, size_t arg_size, const void *arg_value) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  if (arg_index == kSoclFunction || arg_index == kSoclFactors || arg_index == kSoclUserData)
    return set_socl_divide(k, arg_index, arg_value);
  return check_and_set_arg(k, arg_index, arg_size, arg_value);
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint arg_index, const void *arg_value) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  return set_arg_svm(k, arg_index, arg_value);
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel k, cl_kernel_exec_info param, size_t size, const void *value) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  return set_exec_info(k, param, size, value);
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  switch (param) {
    case CL_KERNEL_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, k->refs.load());
    case CL_KERNEL_CONTEXT: return info_value<cl_context>(size, value, size_ret, k->program->context.get());
    case CL_KERNEL_PROGRAM: return info_value<cl_program>(size, value, size_ret, k->program.get());
    case CL_KERNEL_ATTRIBUTES: return kernel_attributes(*k, size, value, size_ret);
    case CL_KERNEL_FUNCTION_NAME:
    case CL_KERNEL_NUM_ARGS: {
      cl_kernel vk = first_vendor_kernel(k);
      return vendor_info(vk, param, size, value, size_ret);
    }
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id device, cl_kernel_work_group_info param,
                                            size_t size, void *value, size_t *size_ret) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  _cl_device_id *composite = k->program->context->composite.get();
  if (composite && (!device || device == composite)) return composite_work_group_info(*k, param, size, value, size_ret);
  size_t slot = _cl_context::npos;
  if (!device) {
    size_t count = 0;
    for (size_t s = 0; s < k->per_slot.size(); ++s)
      if (k->per_slot[s]) slot = s, ++count;
    if (count != 1) return refuse(CL_INVALID_DEVICE, "device is NULL and the kernel's program is built for more than one device");
  } else {
    if (!live(device)) return refuse(CL_INVALID_DEVICE, "device is NULL or not a live device");
    slot = k->program->context->slot_of(device);
    if (slot == _cl_context::npos || !k->per_slot[slot]) return refuse(CL_INVALID_DEVICE, "device is not a device the kernel's program is built for");
  }
  cl_kernel vk = k->per_slot[slot].get();
  cl_device_id vdev = k->program->context->slots[slot].device->vendor;
  return vendor_work_group_info(vk, vdev, param, size, value, size_ret);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint arg_index, cl_kernel_arg_info param, size_t size,
                                      void *value, size_t *size_ret) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  if (arg_index >= k->meta.size()) return refuse(CL_INVALID_ARG_INDEX, "arg_index is not below the kernel's number of arguments");
  for (size_t s = 0; s < k->per_slot.size(); ++s) {
    if (!k->per_slot[s]) continue;
    if (k->program->context->slots[s].device->vendor_version < 120) return refuse(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the device's vendor implements OpenCL before 1.2 (no argument information)");
    cl_kernel vk = k->per_slot[s].get();
    return vendor_arg_info(vk, arg_index, param, size, value, size_ret);
  }
  return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source, cl_int *errcode_ret) {
  if (!live(source)) return fail(errcode_ret, refuse(CL_INVALID_KERNEL, "source_kernel is NULL or not a live kernel"));
  cl_int err = CL_SUCCESS;
  Ref<_cl_kernel> clone(create_kernel(source->program.get(), source->name.c_str(), &err), true);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  std::vector<ArgValue> args;
  {
    std::lock_guard lock(source->mutex);
    args = source->args;
  }
  for (cl_uint i = 0; i < args.size(); ++i) {
    if (!args[i].set) continue;
    const void *value = args[i].bytes.empty() ? nullptr : args[i].bytes.data();
    if (args[i].svm) {
      void *pointer = nullptr;
      std::memcpy(&pointer, value, sizeof pointer);
      err = set_arg_svm(clone.get(), i, pointer);
    } else {
      err = check_and_set_arg(clone.get(), i, args[i].size, value);
    }
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
  }
  std::vector<ExecInfo> exec_info;
  {
    std::scoped_lock lock(source->mutex, clone->mutex);
    clone->split = source->split;
    clone->divide = source->divide;
    exec_info = source->exec_info;
  }
  for (const ExecInfo &info : exec_info)
    if (err = set_exec_info(clone.get(), info.param, info.value.size(), info.value.data()); err != CL_SUCCESS)
      return fail(errcode_ret, err);
  return hand_out(std::move(clone), errcode_ret);
}

cl_int CL_API_CALL clSetKernelSplitUNICL(cl_kernel k, cl_uint dim, cl_uint num_args,
                                         const cl_kernel_split_arg_unicl *args) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  if (dim > 2 || (num_args == 0) != (args == nullptr)) return refuse(CL_INVALID_VALUE, "dimension is above 2, or num_args and args disagree (0 or NULL)");
  KernelSplit split{dim, {}};
  for (cl_uint i = 0; i < num_args; ++i) {
    const cl_kernel_split_arg_unicl &a = args[i];
    if (a.arg_index >= k->meta.size()) return refuse(CL_INVALID_ARG_INDEX, "an argument's index is not below the kernel's number of arguments");
    const ArgMeta &meta = k->meta[a.arg_index];
    if (meta.known && (!meta.memory || meta.image)) return refuse(CL_INVALID_ARG_INDEX, "a split names an argument that is not a buffer");
    if (a.stride == 0 || a.size == 0 || split.find(a.arg_index)) return refuse(CL_INVALID_VALUE, "a split's stride or size is 0, or it names an argument twice");
    if (a.stride > static_cast<size_t>(CL_LONG_MAX)) return refuse(CL_INVALID_VALUE, "a stride beyond CL_LONG_MAX bytes");
    split.args.push_back({a.arg_index, a.offset, static_cast<cl_long>(a.stride), a.size});
  }
  std::lock_guard lock(k->mutex);
  if (num_args == 0) k->split.reset();
  else k->split = std::move(split);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelDivideFunctionUNICL(cl_kernel k, cl_divide_function_unicl fn, void *user_data,
                                                  cl_uint min_factor, cl_uint max_factor) {
  if (!live(k)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  if (fn && (min_factor == 0 || min_factor > max_factor)) return refuse(CL_INVALID_VALUE, "min_factor is 0 or above max_factor");
  std::lock_guard lock(k->mutex);
  k->divide = fn ? DivideFunction{fn, user_data, min_factor, max_factor} : DivideFunction{};
  return CL_SUCCESS;
}

}  // namespace unicl::api
