// heft: earliest finish time. A command goes to the device where it is
// predicted to finish first: when that device is free (commands running
// there, then those already placed on it), plus moving its data there,
// plus running it there. Devices that cannot hold its data are left out
// (can_run). A kernel with no model yet on some device is sent there to be
// measured, so every device is explored before the model is trusted.
// Commands are placed in the order they become ready: the engine pushes a
// command as soon as its dependencies complete, so graph order is kept.
#include <limits>

#include "per_device_queues.hpp"

namespace unicl {
namespace {

class Heft final : public PerDeviceQueues {
 public:
  using PerDeviceQueues::PerDeviceQueues;
  void push(std::shared_ptr<Task> t) override {
    double now = view_.now();
    size_t best = 0;
    double best_finish = std::numeric_limits<double>::infinity(), best_exec = 0;
    bool exploring = false;
    for (size_t d : eligible(*t)) {
      double exec = view_.exec_time(*t, d);
      double start = std::max(now, view_.busy_until(d)) + queued(d);
      double finish = start + view_.transfer_time(*t, d) + std::max(exec, 0.0);
      // Unknown on d: explore it, the earliest-starting unknown device first.
      if (exec < 0) {
        if (!exploring || start < best_finish) {
          exploring = true;
          best = d;
          best_finish = start;
          best_exec = 0;
        }
        continue;
      }
      if (!exploring && finish < best_finish) {
        best = d;
        best_finish = finish;
        best_exec = exec;
      }
    }
    assign(std::move(t), best, best_exec);
  }
};

}  // namespace

std::unique_ptr<Policy> make_heft(const SchedulingView &view) { return std::make_unique<Heft>(view); }

}  // namespace unicl
