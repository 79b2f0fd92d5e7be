#include "core/svm.hpp"

#include "backend/vendor_info.hpp"
#include "core/context.hpp"

namespace unicl {

void SvmAllocations::add(void *pointer, size_t size) {
  std::lock_guard lock(mutex_);
  by_start_[static_cast<const std::byte *>(pointer)] = size;
}

bool SvmAllocations::remove(void *pointer) {
  std::lock_guard lock(mutex_);
  return by_start_.erase(static_cast<const std::byte *>(pointer)) > 0;
}

bool SvmAllocations::contains(const void *pointer, size_t size) const {
  auto *p = static_cast<const std::byte *>(pointer);
  std::lock_guard lock(mutex_);
  auto after = by_start_.upper_bound(p);
  if (after == by_start_.begin()) return false;
  auto at = std::prev(after);
  size_t offset = static_cast<size_t>(p - at->first);
  return offset < at->second && size <= at->second - offset;
}

cl_device_svm_capabilities device_svm_capabilities(const _cl_device_id &device) {
  // A composite offers what its members offer together in a context of
  // them: SVM only when one vendor of this machine holds them all.
  if (device.is_composite()) {
    cl_device_svm_capabilities all = ~cl_device_svm_capabilities{0};
    for (cl_device_id m : device.members)
      all &= m->vendor_platform == device.members[0]->vendor_platform ? device_svm_capabilities(*m) : 0;
    return all;
  }
  if (device.node != 0 || device.vendor_version < 200) return 0;
  return vendor_value<cl_device_svm_capabilities>(device.vendor, CL_DEVICE_SVM_CAPABILITIES, 0);
}

cl_device_svm_capabilities context_svm_capabilities(const _cl_context &context) {
  if (!context.one_vendor_context()) return 0;
  cl_device_svm_capabilities all = ~cl_device_svm_capabilities{0};
  for (const DeviceSlot &slot : context.slots) all &= device_svm_capabilities(*slot.device);
  return all;
}

}  // namespace unicl
