// heft: earliest finish time. A command goes to the device where it is
// predicted to finish first: when that device is free (commands running
// there, then those already placed on it), plus moving its data there,
// plus running it there. Devices that cannot hold its data are left out
// (can_run). A kernel with no model yet on a device is sent there once to
// be measured; until that measurement arrives, the device's time for it is
// estimated from the devices' speeds, so a burst of commands is spread
// rather than all sent to the device being explored.
// Commands are placed in the order they become ready: the engine pushes a
// command as soon as its dependencies complete, so graph order is kept.
#include <limits>
#include <set>
#include <utility>

#include "per_device_queues.hpp"

namespace unicl {
namespace {

class Heft final : public PerDeviceQueues {
 public:
  using PerDeviceQueues::PerDeviceQueues;
  void push(std::shared_ptr<Task> t) override {
    const std::string &kernel = view_.kernel(*t);
    double now = view_.now();
    const auto &devices = eligible(*t);
    auto start_of = [&](size_t d) { return std::max(now, view_.busy_until(d)) + queued(d); };
    // Explore: the earliest-starting device with no model and no
    // measurement on the way.
    size_t explore = view_.devices();
    for (size_t d : devices) {
      if (view_.exec_time(*t, d) >= 0) {
        if (!exploring_.empty()) exploring_.erase({kernel, d});
        continue;
      }
      if (exploring_.count({kernel, d})) continue;
      if (explore == view_.devices() || start_of(d) < start_of(explore)) explore = d;
    }
    if (explore != view_.devices()) {
      exploring_.insert({kernel, explore});
      double predicted = estimate(*t, explore);  // before t is moved from
      assign(std::move(t), explore, predicted);
      return;
    }
    size_t best = devices.front();
    double best_finish = std::numeric_limits<double>::infinity(), best_exec = 0;
    for (size_t d : devices) {
      double exec = estimate(*t, d);
      double finish = start_of(d) + view_.transfer_time(*t, d) + exec;
      if (finish < best_finish) {
        best = d;
        best_finish = finish;
        best_exec = exec;
      }
    }
    assign(std::move(t), best, best_exec);
  }

 private:
  // The model's time, or for a device without one yet, a device's known
  // time scaled by the speed ratio (a nominal 1 ms on the fastest device
  // when no device has a model).
  double estimate(const Task &t, size_t d) const {
    if (double e = view_.exec_time(t, d); e >= 0) return e;
    double fastest = 0;
    for (size_t k = 0; k < view_.devices(); ++k) {
      fastest = std::max(fastest, view_.speed(k));
      if (double e = view_.exec_time(t, k); e >= 0) return e * view_.speed(k) / std::max(view_.speed(d), 1e-9);
    }
    return 1e-3 * fastest / std::max(view_.speed(d), 1e-9);
  }
  std::set<std::pair<std::string, size_t>> exploring_;  // (kernel, device) measurements on the way
};

}  // namespace

std::unique_ptr<Policy> make_heft(const SchedulingView &view) { return std::make_unique<Heft>(view); }

}  // namespace unicl
