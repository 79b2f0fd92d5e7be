// The runtime singleton: the only global state of UniCL. It discovers the
// vendor platforms once, lazily, and owns the platform, the root devices and
// the object pools.
#pragma once
#include <array>
#include <map>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device.hpp"
#include "../schedulers/perf_model.hpp"
#include "trace.hpp"
#include "host_topology.hpp"
#include "work_queue.hpp"

namespace unicl {

struct VendorPlatform {
  std::string library;
  std::string name;
  cl_platform_id platform;
  unsigned version;
};

class Runtime {
 public:
  static Runtime &get();
  SlotPool &pool(Kind kind, std::size_t slot_size);
  cl_platform_id platform();  // discovers vendors on first call
  const std::vector<VendorPlatform> &vendors();
  int log_level() const { return log_level_; }
  // Where deferred commands are submitted and event listeners run.
  WorkQueue &work_queue() { return work_queue_; }
  // Performance models of kernels and transfers, shared by all contexts.
  PerfModels &models() { return models_; }
  // UNICL_TRACE: the trace of every command, written at exit.
  Trace &trace() { return trace_; }
  // Processing units of this host (hwloc), read once.
  unsigned host_pus() { return topology_.pus(); }
  // The submission worker of `device` (its root device's), started and
  // placed on first use (host_topology.hpp).
  WorkQueue &device_worker(_cl_device_id *device);
  // Vendors that run commands on the thread calling clFlush, clFinish or
  // clWaitForEvents and are not thread-safe (oclgrind), by dispatch table;
  // their such calls share one lock (vendor_execution.hpp).
  bool runs_on_caller(const cl_icd_dispatch *table) const;
  std::recursive_mutex &execution_mutex() { return execution_mutex_; }
  void log(int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
  Runtime();

 private:
  void discover();
  int log_level_ = 0;
  std::once_flag discovered_;
  std::vector<VendorPlatform> vendors_;
  Ref<_cl_platform_id> platform_;
  std::vector<Ref<_cl_device_id>> root_devices_;
  std::mutex pools_mutex_;
  std::array<std::unique_ptr<SlotPool>, 16> pools_;
  WorkQueue work_queue_;
  PerfModels models_;
  Trace trace_;
  std::vector<const cl_icd_dispatch *> runs_on_caller_;  // written once, by discover()
  std::recursive_mutex execution_mutex_;
  HostTopology topology_;
  std::mutex workers_mutex_;
  std::map<_cl_device_id *, std::unique_ptr<WorkQueue>> device_workers_;
  size_t accelerator_workers_ = 0;
};

}  // namespace unicl
