#include "core/runtime.hpp"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdlib>

#include "backend/launch_overlap.hpp"
#include "backend/vendor_call_scope.hpp"
#include "backend/vendor_objects.hpp"
#include "core/composite_device.hpp"
#include "core/refusal.hpp"

namespace unicl {

std::string library_folder() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&library_folder), &info) || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

Runtime &Runtime::get() {
  // Immortal on purpose: vendor threads may call UniCL callbacks while the
  // process exits, after static destructors would have run.
  static Runtime *instance = std::make_unique<Runtime>().release();
  return *instance;
}

// No vendor call under workers_mutex_: this runs from completion callbacks,
// which a vendor that is not thread-safe makes while holding its lock.
WorkQueue &Runtime::device_worker(_cl_device_id *device) {
  while (device->parent) device = device->parent;  // root devices live as long as the process
  std::lock_guard lock(workers_mutex_);
  auto &worker = device_workers_[device];
  if (!worker) {
    size_t accelerator = device->host_cpu ? 0 : accelerator_workers_++;
    worker = std::make_unique<WorkQueue>([this, device, accelerator] {
      std::string where = topology_.bind_worker(device->vendor, accelerator);
      log(2, "submission worker of '%s': %s", device->name.c_str(), where.c_str());
    });
  }
  return *worker;
}

void Runtime::flush_off_caller(_cl_device_id *device, std::shared_ptr<Completion> done) {
  // Posted, never run here: callers may hold the context lock, under which
  // no vendor is called.
  WorkQueue &worker = device_worker(device);
  worker.post([&worker, done] {
    // Not issued yet, the flush would run on the thread that issues it (an
    // application's, maybe): it comes back to the worker then.
    done->when_issued([&worker, done] {
      if (WorkQueue::on_queue_thread() && !VendorCallScope::inside()) done->flush();
      else worker.post([done] { done->flush(); });
    });
  });
}

Runtime::Runtime() : config_(Config::from_environment()), trace_(config_.trace_path) {
  // At exit: what the models learnt is kept even if contexts are never
  // released, and the trace is written.
  std::atexit([] {
    if (auto *s = Runtime::get().scheduling()) s->save();
    Runtime::get().trace().write();
  });
}

void Runtime::log(int level, const char *fmt, ...) {
  if (level > config_.log_level) return;
  char line[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(line, sizeof line, fmt, args);
  va_end(args);
  std::fprintf(stderr, "unicl: %s\n", line);
}

CellPool &Runtime::pool(Kind kind, std::size_t cell_size) {
  auto index = static_cast<std::size_t>(kind) & 0xfu;
  std::lock_guard lock(pools_mutex_);
  if (!pools_[index]) pools_[index] = std::make_unique<CellPool>(cell_size);
  return *pools_[index];
}

cl_platform_id Runtime::platform() {
  std::call_once(discovered_, [this] { discover(); });
  return platform_.get();
}

const std::vector<VendorPlatform> &Runtime::vendors() {
  platform();
  return vendors_;
}

void Runtime::discover() {
  platform_ = make_object<_cl_platform_id>();
  VendorSources sources{config_.unicl_vendors, config_.icd_filenames, config_.icd_vendors, {}, {}};
  // In an MPI job with nodes, the nodes' devices come through UniCL's node
  // client, a vendor library beside libunicl.so (src/cluster/).
  if (config_.cluster_job || !config_.spawn_nodes.empty()) sources.extra_libraries.push_back(library_folder() + "/libunicl-remote.so");
  vendors_ = load_vendor_platforms(sources,
                                   [this](int level, const std::string &line) { log(level, "%s", line.c_str()); });
  for (const auto &v : vendors_) {
    // A vendor that must be called one thread at a time, and cannot be,
    // is left out rather than corrupted.
    if (v.name.find("Oclgrind") != std::string::npos && !serialize_vendor(execution_, v.platform)) {
      log(1, "vendor platform '%s' (%s) skipped: it must be called one thread at a time, which UniCL does for at "
             "most %zu vendor libraries", v.name.c_str(), v.library.c_str(), VendorExecution::kMaxWrapped);
      continue;
    }
    std::vector<cl_device_id> ids = vendor_devices(v.platform);
    if (ids.empty()) {
      log(1, "vendor platform '%s' (%s) has no devices; skipped", v.name.c_str(), v.library.c_str());
      continue;
    }
    for (cl_device_id id : ids) {
      auto dev = make_object<_cl_device_id>(id, v.platform, v.version, nullptr);
      dev->host_cpu = is_host_cpu_device(id);
      dev->node = vendor_value<cl_uint>(id, CL_DEVICE_NODE_UNICL, 0);
      dev->launches_overlap = overlapping_launches_safe(id);
      platform_->devices.push_back(dev.get());
      root_devices_.push_back(std::move(dev));
    }
  }
  log(2, "%zu vendor platform(s), %zu device(s)", vendors_.size(), platform_->devices.size());
  Ref<_cl_device_id> composite;
  platform_->devices = listed_devices(platform_->devices, config_.composite, composite);
  if (composite) {
    log(2, "the platform lists one device: %s", composite->name.c_str());
    root_devices_.push_back(std::move(composite));
  }
  // From here on (the optional queries of the devices above may fail
  // without harm), a failed vendor call is named with the refusals.
  if (config_.log_level >= kLogRefusals)
    for (const auto &v : vendors_)
      if (!log_vendor_failures(execution_, v.platform, v.name.c_str(),
                               [](const char *line) { Runtime::get().log(kLogRefusals, "%s", line); }))
        log(kLogRefusals, "the failed calls of vendor platform '%s' (%s) are not named: UniCL names those of at most "
                          "%zu vendor libraries", v.name.c_str(), v.library.c_str(), VendorExecution::kMaxWrapped);
}

}  // namespace unicl
