#include "core/host_topology.hpp"

#include <algorithm>
#include <thread>

#include "backend/vendor_info.hpp"

namespace unicl {
namespace {

struct BitmapDeleter {
  void operator()(hwloc_bitmap_s *b) const { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

}  // namespace

bool is_host_cpu_device(cl_device_id vendor_device) {
  // A device of another node (UniCL's node client answers its node) computes
  // on that node's cores.
  if (vendor_value<cl_uint>(vendor_device, CL_DEVICE_NODE_UNICL, 0) != 0) return false;
  auto type = vendor_value<cl_device_type>(vendor_device, CL_DEVICE_TYPE);
  return (type & ~cl_device_type(CL_DEVICE_TYPE_DEFAULT)) == CL_DEVICE_TYPE_CPU;
}

void HostTopology::load() {
  std::call_once(loaded_, [this] {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) return;
    // PCI devices too, to find which NUMA node a GPU hangs off.
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(t) != 0) {
      hwloc_topology_destroy(t);
      return;
    }
    topology_.reset(t);
  });
}

unsigned HostTopology::pus() {
  load();
  int n = topology_ ? hwloc_get_nbobjs_by_type(topology_.get(), HWLOC_OBJ_PU) : -1;
  return n > 0 ? static_cast<unsigned>(n) : std::max(1u, std::thread::hardware_concurrency());
}

// CPU devices compute on the host's cores with their own threads; their
// worker only submits and waits, so it is left to the OS. Any other device
// (GPU, accelerator, simulator) gets one core of its own for its worker, as
// a GPU's host thread is given a reserved core: the cores near the device
// (its PCI NUMA node when the device reports cl_khr_pci_bus_info, else the
// whole machine), counted from the last one, one per such device, so that
// they stay off the first cores where CPU devices' threads start.
std::string HostTopology::bind_worker(cl_device_id vendor_device, size_t accelerator) {
  if (is_host_cpu_device(vendor_device)) return "not bound (CPU device)";
  load();
  if (!topology_) return "not bound (no hwloc topology)";
  std::lock_guard lock(bind_mutex_);
  hwloc_topology *t = topology_.get();
  hwloc_const_cpuset_t near = hwloc_topology_get_topology_cpuset(t);
  std::string where = "the machine";
  cl_device_pci_bus_info_khr pci{};
  if (vendor_info(vendor_device, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, nullptr) ==
      CL_SUCCESS)
    if (hwloc_obj_t dev = hwloc_get_pcidev_by_busid(t, pci.pci_domain, pci.pci_bus, pci.pci_device, pci.pci_function))
      if (hwloc_obj_t parent = hwloc_get_non_io_ancestor_obj(t, dev); parent && parent->cpuset) {
        near = parent->cpuset;
        where = "the device's node";
      }
  int cores = hwloc_get_nbobjs_inside_cpuset_by_type(t, near, HWLOC_OBJ_CORE);
  if (cores <= 0) return "not bound (no cores)";
  int index = cores - 1 - static_cast<int>(accelerator % static_cast<size_t>(cores));
  hwloc_obj_t core = hwloc_get_obj_inside_cpuset_by_type(t, near, HWLOC_OBJ_CORE, static_cast<unsigned>(index));
  if (!core || !core->cpuset) return "not bound (no core)";
  if (hwloc_set_cpubind(t, core->cpuset, HWLOC_CPUBIND_THREAD) != 0) return "not bound (hwloc refused)";
  return "core " + std::to_string(core->logical_index) + " (of " + where + ")";
}

}  // namespace unicl
