// The runtime singleton: the process-wide state of UniCL's objects. It
// discovers the vendor platforms once, lazily, and owns the platform, the
// root devices and the object pools. The other globals are per thread (the
// division and vendor-call scopes, the work queue's mark, quiet vendor
// questions) or the vendor wrapping's table of the runtime's instance
// (backend/vendor_execution.hpp).
#pragma once
#include <array>
#include <map>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/completion.hpp"
#include "backend/vendor_execution.hpp"
#include "core/config.hpp"
#include "core/device.hpp"
#include "backend/vendor_discovery.hpp"
#include "core/division.hpp"
#include "core/scheduling.hpp"
#include "core/trace.hpp"
#include "core/host_topology.hpp"
#include "core/work_queue.hpp"

namespace unicl {

// The folder libunicl.so was loaded from: its companion libraries and
// programs live there.
std::string library_folder();

class Runtime {
 public:
  static Runtime &get();
  CellPool &pool(Kind kind, std::size_t cell_size);
  cl_platform_id platform();  // discovers vendors on first call
  const std::vector<VendorPlatform> &vendors();
  // The settings, read from the environment when the runtime started.
  const Config &config() const { return config_; }
  int log_level() const { return config_.log_level; }
  // Where deferred commands are submitted and event listeners run.
  WorkQueue &work_queue() { return work_queue_; }
  // Where programs' kernel analyses run, one at a time (a thread of its
  // own: an analysis waits for a process, and the work queue's jobs must
  // not wait behind it).
  WorkQueue &analysis_queue() { return analysis_queue_; }
  // The scheduling layer, installed once at start-up (scheduling.hpp);
  // null before.
  SchedulingService *scheduling() { return scheduling_.get(); }
  // Runs `install` once per process, before any platform is handed out:
  // the layers above the core register themselves there.
  template <class Install>
  void install_once(Install &&install) {
    std::call_once(installed_, [&] { install(*this); });
  }
  void install(std::unique_ptr<SchedulingService> service) { scheduling_ = std::move(service); }
  // The granularity layer (division.hpp); null before it is installed.
  GranularityService *granularity() { return granularity_.get(); }
  void install(std::unique_ptr<GranularityService> service) { granularity_ = std::move(service); }
  // UNICL_TRACE: the trace of every command, written at exit.
  Trace &trace() { return trace_; }
  // Processing units of this host (hwloc), read once.
  unsigned host_pus() { return topology_.pus(); }
  // The submission worker of `device` (its root device's), started and
  // placed on first use (host_topology.hpp).
  WorkQueue &device_worker(_cl_device_id *device);
  // Makes sure `device` runs the work of `done` (some vendors run queued
  // commands only when flushed), from UniCL's own threads: at once on one of
  // them, else on the device's worker. Never on an application's thread, in
  // its enqueue: a vendor may run the queued commands inside its clFlush
  // (oclgrind does, on the calling thread), and the application would wait
  // for device work it did not ask to wait for. Once `done` is issued, if
  // it is not yet.
  void flush_off_caller(_cl_device_id *device, std::shared_ptr<Completion> done);
  // The vendors that are not thread-safe (oclgrind): the backend serializes every
  // call into them (backend/vendor_execution.hpp).
  VendorExecution &execution() { return execution_; }
  void log(int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
  Runtime();

 private:
  void discover();
  const Config config_;  // first: the members below are made from it
  std::once_flag discovered_;
  std::vector<VendorPlatform> vendors_;
  Ref<_cl_platform_id> platform_;
  std::vector<Ref<_cl_device_id>> root_devices_;
  std::mutex pools_mutex_;
  std::array<std::unique_ptr<CellPool>, 16> pools_;
  WorkQueue work_queue_;
  WorkQueue analysis_queue_;
  std::once_flag installed_;
  std::unique_ptr<SchedulingService> scheduling_;
  std::unique_ptr<GranularityService> granularity_;
  Trace trace_;
  VendorExecution execution_;
  HostTopology topology_;
  std::mutex workers_mutex_;
  std::map<_cl_device_id *, std::unique_ptr<WorkQueue>> device_workers_;
  size_t accelerator_workers_ = 0;
};

}  // namespace unicl
