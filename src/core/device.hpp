// UniCL platform and devices. The one platform holds every device of every
// vendor platform; each UniCL device wraps exactly one vendor device.
#pragma once
#include <string>
#include <vector>

#include "core/object.hpp"
#include "backend/vendor_command_buffer.hpp"
#include "backend/vendor_info.hpp"

struct _cl_platform_id : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Platform;
  _cl_platform_id() : ObjectHeader(kKind) {}
  std::vector<cl_device_id> devices;  // root devices, owned by the runtime
};

struct _cl_device_id : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Device;
  _cl_device_id(cl_device_id vendor_device, cl_platform_id vendor_platform, unsigned vendor_version,
                cl_device_id parent_device)
      : ObjectHeader(kKind),
        vendor(vendor_device),
        vendor_platform(vendor_platform),
        vendor_version(vendor_version),
        parent(parent_device) {
    if (parent) owned_vendor = unicl::VendorRef<cl_device_id>::adopt(vendor_device);
    name = unicl::vendor_text(vendor_device, CL_DEVICE_NAME);
    command_buffers = unicl::vendor_command_buffer_api(vendor_platform).complete();
  }
  // The composite of `members` (two or more root devices).
  _cl_device_id(std::vector<cl_device_id> members, std::string name, unsigned version)
      : ObjectHeader(kKind),
        name(std::move(name)),
        vendor(nullptr),
        vendor_platform(nullptr),
        vendor_version(version),
        parent(nullptr),
        members(std::move(members)) {}
  std::string name;  // the vendor's device name (links' performance models key on it)
  // What the performance models key a kernel's times on: the name, less
  // where a node's device is (the node client ends its name with
  // " @ host:rank"): the same device on every node is one model, which one
  // calibration serves. Links keep the whole name: each node's network is
  // its own.
  std::string model_key() const {
    if (root()->node == 0) return name;
    const size_t at = name.rfind(" @ ");
    return at == std::string::npos ? name : name.substr(0, at);
  }
  // Its vendor hands out every cl_khr_command_buffer entry point (asked once:
  // CL_DEVICE_EXTENSIONS answers from it).
  bool command_buffers = false;
  cl_device_id vendor;
  cl_platform_id vendor_platform;
  // OpenCL version of the vendor platform (e.g. 120, 300): slots of the
  // vendor's dispatch table newer than this are never read, since an older
  // vendor's table may simply end before them.
  unsigned vendor_version;
  cl_device_id parent;  // UniCL parent for sub-devices, null for root devices
  unicl::VendorRef<cl_device_id> owned_vendor;  // sub-devices only
  // A CPU device of this host (is_host_cpu_device), read once at discovery
  // for root devices.
  bool host_cpu = false;
  // The node (MPI rank) whose machine holds it: 0 for this one; its vendor
  // is then UniCL's node client (CL_DEVICE_NODE_UNICL), read once at
  // discovery for root devices.
  cl_uint node = 0;
  // Launches of one kernel may run side by side on it
  // (overlapping_launches_safe), read once at discovery for root devices;
  // where not, each launch of a kernel follows the one issued there before
  // it (Task::take_turn).
  bool launches_overlap = true;
  // The composite device (UNICL_COMPOSITE, core/composite_device.hpp): the
  // root devices it stands for, in platform order. Empty for every other
  // device. A composite has no vendor: a context of it is a context of its
  // members.
  std::vector<cl_device_id> members;
  bool is_composite() const { return !members.empty(); }
  bool is_root() const { return parent == nullptr; }
  // The root device it was partitioned from (itself for a root device).
  const _cl_device_id *root() const {
    const _cl_device_id *d = this;
    while (d->parent) d = d->parent;
    return d;
  }
};

namespace unicl {
// Root devices live as long as the process: retain/release only count
// sub-devices, as the spec says.
template <>
inline void retain<_cl_device_id>(_cl_device_id *d) {
  if (!d->is_root()) d->refs.fetch_add(1, std::memory_order_relaxed);
}
template <>
void release<_cl_device_id>(_cl_device_id *d);
}  // namespace unicl
