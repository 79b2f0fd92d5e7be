// This host's processors as hwloc sees them, loaded once by the runtime:
// how many processing units it has, and where a device's submission worker
// should run (near the device, on a core kept for it).
#pragma once
#include <memory>
#include <mutex>
#include <string>

#include <hwloc.h>

#include "backend/cl_headers.hpp"

namespace unicl {

// True for a device that computes on this host's cores with its own
// threads: one reporting CL_DEVICE_TYPE_CPU alone (oclgrind, which reports
// every type, is not one).
bool is_host_cpu_device(cl_device_id vendor_device);

class HostTopology {
 public:
  unsigned pus();
  // Binds the calling thread to where the worker of `vendor_device` runs;
  // `accelerator` numbers the non-CPU devices in the order their workers
  // start. Returns a description for logs ("PU 1 (near the device)",
  // "not bound").
  std::string bind_worker(cl_device_id vendor_device, size_t accelerator);

 private:
  struct Deleter {
    void operator()(hwloc_topology *t) const { hwloc_topology_destroy(t); }
  };
  void load();
  std::once_flag loaded_;
  std::unique_ptr<hwloc_topology, Deleter> topology_;
  std::mutex bind_mutex_;  // hwloc topologies are not safe for concurrent use
};

}  // namespace unicl
