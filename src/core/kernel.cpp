// A kernel's lifetime and the vendor kernel each launch runs.
#include <cstring>

#include "backend/vendor_objects.hpp"
#include "core/kernel.hpp"
#include "core/refusal.hpp"
#include "core/sampler.hpp"

_cl_kernel::~_cl_kernel() {
  if (program) program->attached_kernels.fetch_sub(1);
}

namespace unicl {

cl_int vendor_kernel_with_args(_cl_kernel *k, const std::vector<ArgValue> &args, std::span<const cl_mem> mems, size_t slot,
                     cl_kernel &out) {
  std::lock_guard lock(k->mutex);
  if (k->launch_per_slot.empty()) k->launch_per_slot.resize(k->per_slot.size());
  auto &dk = k->launch_per_slot[slot];
  if (!dk) {
    cl_program vp = k->program->per_slot[slot].get();
    cl_int err = CL_SUCCESS;
    VendorRef<cl_kernel> made = vendor_kernel(vp, k->name.c_str(), err);
    if (err != CL_SUCCESS) return err;
    for (const ExecInfo &info : k->exec_info)
      if (err = vendor_set_exec_info(made.get(), info.param, info.value.size(), info.value.data()); err != CL_SUCCESS)
        return err;
    dk = std::move(made);
  }
  cl_kernel vk = dk.get();
  size_t next_mem = 0;
  for (cl_uint i = 0; i < args.size(); ++i) {
    const ArgValue &a = args[i];
    if (!a.set) continue;
    const void *value = a.bytes.empty() ? nullptr : a.bytes.data();
    void *given = nullptr;
    if (a.bytes.size() == sizeof(void *)) std::memcpy(&given, a.bytes.data(), sizeof given);
    bool sampler = k->meta[i].known ? k->meta[i].sampler : is_handle_cell<_cl_sampler>(given);
    cl_int err;
    if (a.svm) {
      err = vendor_set_arg_svm(vk, i, given);
    } else if (a.mem) {
      // The launch's device copies, in the order of its memory arguments.
      if (next_mem >= mems.size()) return refuse(CL_INVALID_KERNEL_ARGS, "args_mem_loc has more entries than mem_list");
      cl_mem rep = mems[next_mem++];
      err = vendor_set_arg(vk, i, a.size, &rep);
    } else if (sampler && given) {
      auto *smp = static_cast<cl_sampler>(given);
      if (!live(smp)) return refuse(CL_INVALID_KERNEL_ARGS, "the sampler argument is NULL or not a live sampler");
      cl_sampler vs = smp->per_slot[slot].get();
      err = vendor_set_arg(vk, i, a.size, &vs);
    } else {
      err = vendor_set_arg(vk, i, a.size, value);
    }
    if (err != CL_SUCCESS) return err;
  }
  out = vk;
  return CL_SUCCESS;
}

}  // namespace unicl

cl_int _cl_kernel::set_arg(cl_uint index, unicl::ArgValue arg, cl_sampler sampler, const void *value) {
  for (size_t s = 0; s < per_slot.size(); ++s) {
    cl_kernel vk = per_slot[s].get();
    if (!vk) continue;
    if (arg.mem && program->context->multi()) {
      // Set on the launch kernel when a launch is submitted
      // (vendor_kernel_with_args): the device's copy may not exist before.
      continue;
    }
    cl_int err;
    if (arg.mem) {
      cl_mem copy = arg.mem->replicas[s]->get();
      err = unicl::vendor_set_arg(vk, index, arg.size, &copy);
    } else if (arg.memory) {
      cl_mem none = nullptr;
      err = unicl::vendor_set_arg(vk, index, arg.size, value ? &none : nullptr);
    } else if (sampler) {
      cl_sampler vs = sampler->per_slot[s].get();
      err = unicl::vendor_set_arg(vk, index, arg.size, &vs);
    } else {
      err = unicl::vendor_set_arg(vk, index, arg.size, value);
    }
    if (err != CL_SUCCESS) return err;
  }
  // Only now is the size known to match the argument: copying earlier would
  // read past a value the vendor rejects as too small.
  if (value) arg.bytes.assign(static_cast<const std::byte *>(value), static_cast<const std::byte *>(value) + arg.size);
  std::lock_guard guard(mutex);
  args[index] = std::move(arg);
  return CL_SUCCESS;
}

std::pair<std::vector<unicl::ArgValue>, std::optional<unicl::KernelSplit>> _cl_kernel::launch_state() {
  std::lock_guard lock(mutex);
  return {args, split};
}

std::vector<bool> _cl_kernel::runnable_slots() const {
  std::vector<bool> runnable(per_slot.size());
  for (size_t s = 0; s < runnable.size(); ++s) runnable[s] = static_cast<bool>(per_slot[s]);
  return runnable;
}
