#include "api/launch_checks.hpp"

#include <string>

#include "backend/vendor_info.hpp"
#include "core/context.hpp"
#include "core/refusal.hpp"

namespace unicl::api {
namespace {

// Whether a program built with `options` may have partial work-groups: an
// OpenCL C 2.0 or later program not built with -cl-uniform-work-group-size.
bool partial_groups_allowed(const std::string &options) {
  const bool c2 = options.find("-cl-std=CL2") != std::string::npos || options.find("-cl-std=CL3") != std::string::npos;
  return c2 && options.find("-cl-uniform-work-group-size") == std::string::npos;
}

cl_int check_one(const WorkGroupLimits &limits, cl_uint dim, const size_t *global, const size_t *local) {
  const bool required = limits.required[0] != 0;
  if (required && !local) return refuse(CL_INVALID_WORK_GROUP_SIZE, "the kernel requires a work-group size and none is given");
  if (!local) return CL_SUCCESS;
  // In the vendors' order: the work-group as a whole, then each dimension.
  size_t items = 1;
  for (cl_uint i = 0; i < dim && i < 3; ++i) {
    if (local[i] == 0) return refuse(CL_INVALID_WORK_GROUP_SIZE, "a local size of 0");
    if (required && local[i] != limits.required[i])
      return refuse(CL_INVALID_WORK_GROUP_SIZE, "a work-group size other than the kernel's reqd_work_group_size");
    if (global && global[i] % local[i] != 0 && !limits.non_uniform)
      return refuse(CL_INVALID_WORK_GROUP_SIZE, "a global size that is not a multiple of the local size");
    items *= local[i];
  }
  if (limits.kernel_size && items > limits.kernel_size)
    return refuse(CL_INVALID_WORK_GROUP_SIZE, "a work-group larger than CL_KERNEL_WORK_GROUP_SIZE");
  for (cl_uint i = 0; i < dim && i < 3; ++i)
    if (limits.item_sizes[i] && local[i] > limits.item_sizes[i])
      return refuse(CL_INVALID_WORK_ITEM_SIZE, "a local size past the device's CL_DEVICE_MAX_WORK_ITEM_SIZES");
  return CL_SUCCESS;
}

}  // namespace

WorkGroupLimits read_limits(const _cl_kernel &k, size_t slot) {
  WorkGroupLimits out;
  cl_kernel vk = k.per_slot[slot].get();
  const _cl_context &ctx = *k.program->context;
  cl_device_id device = ctx.slots[slot].device->vendor;
  vendor_work_group_info(vk, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof out.kernel_size, &out.kernel_size, nullptr);
  vendor_work_group_info(vk, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof out.required, out.required.data(), nullptr);
  auto items = vendor_array<size_t>(device, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  for (size_t i = 0; i < items.size() && i < 3; ++i) out.item_sizes[i] = items[i];
  const auto &options = k.program->build_options;
  out.non_uniform = slot < options.size() && options[slot] && partial_groups_allowed(*options[slot]);
  return out;
}

cl_int check_work_groups(const _cl_kernel &k, size_t slot, cl_uint dim, const size_t *global, const size_t *local) {
  for (size_t s = 0; s < k.limits.size() && s < k.per_slot.size(); ++s)
    if (k.per_slot[s] && (slot == _cl_context::npos || s == slot))
      if (cl_int err = check_one(k.limits[s], dim, global, local); err != CL_SUCCESS) return err;
  return CL_SUCCESS;
}

}  // namespace unicl::api
