#include "objects.hpp"

#include <algorithm>
#include <chrono>

namespace sim {

std::uint64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Platform *platform() {
  // Immortal on purpose (see objects.hpp); built once from UNICL_SIM_CONFIG
  // and UNICL_SIM_FAIL.
  static Platform *instance = [] {
    auto config = load_config_from_env();
    if (!config) return static_cast<Platform *>(nullptr);
    auto faults = load_faults_from_env();
    if (!faults) return static_cast<Platform *>(nullptr);
    auto p = std::make_unique<Platform>();
    p->config = std::move(*config);
    p->faults = Faults(*faults);
    for (const auto &dc : p->config.devices) {
      auto d = std::make_unique<Device>();
      d->config = dc;
      d->platform = p.get();
      p->devices.push_back(std::move(d));
    }
    return p.release();
  }();
  return instance;
}

bool Device::reserve(std::uint64_t bytes) {
  std::uint64_t used = allocated.load();
  do {
    if (bytes > config.memory_bytes - used) return false;
  } while (!allocated.compare_exchange_weak(used, used + bytes));
  return true;
}

std::uint64_t Device::max_alloc() const {
  // A quarter of the memory, as OpenCL's minimum, but at least 128 MiB when
  // the device has that much.
  return std::min(config.memory_bytes, std::max(config.memory_bytes / 4, std::uint64_t{128} << 20));
}

bool Platform::owns(Device *d) const {
  return std::any_of(devices.begin(), devices.end(), [d](const auto &own) { return own.get() == d; });
}

bool Context::has(Device *d) const { return std::find(devices.begin(), devices.end(), d) != devices.end(); }

Memory::~Memory() {
  // The spec's order: callbacks in reverse order of registration, before
  // the memory is freed.
  for (auto it = destructor_callbacks.rbegin(); it != destructor_callbacks.rend(); ++it)
    it->first(handle(this), it->second);
  if (accounted)
    for (Device *d : context->devices) d->unreserve(accounted);
}

void Event::set_status(cl_int s) {
  auto keep = shared();  // callbacks may release this event: keep it alive until they return
  std::vector<Pending> due;
  {
    std::lock_guard lock(mutex);
    status = s;
    auto reached = [s](const Pending &p) { return s <= p.level; };
    std::copy_if(callbacks.begin(), callbacks.end(), std::back_inserter(due), reached);
    callbacks.erase(std::remove_if(callbacks.begin(), callbacks.end(), reached), callbacks.end());
  }
  changed.notify_all();
  // Dependent commands start before the callbacks run, which may take long.
  if (s <= CL_COMPLETE) sim::wake_all_workers();
  for (const auto &p : due) p.fn(handle(this), s < 0 ? s : p.level, p.user_data);
}

void Event::add_callback(cl_int level, Callback fn, void *user_data) {
  {
    std::lock_guard lock(mutex);
    if (status > level) {
      callbacks.push_back({level, fn, user_data});
      return;
    }
  }
  // Already reached: call it now, on the registering thread.
  cl_int s = status;
  fn(handle(this), s < 0 ? s : level, user_data);
}

void Event::wait() {
  std::unique_lock lock(mutex);
  changed.wait(lock, [this] { return done(); });
}

}  // namespace sim
