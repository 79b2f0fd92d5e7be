// heft: earliest finish time. A command goes to the device where it is
// predicted to finish first: when that device is free (commands running
// there, then those already placed on it), plus moving its data there,
// plus running it there. Devices that cannot hold its data are left out
// (can_run). A kernel whose model on a device is not calibrated (no
// measurement, or too few to trust: SchedulingView::calibrated) is sent
// there to be measured, one run at a time; while a measurement is on its
// way, the device's time for it is estimated (the model's, else from the
// devices' speeds), so a burst of commands is spread rather than all sent
// to the device being explored.
// Commands are placed in the order they become ready: the engine pushes a
// kernel as soon as its dependencies are planned on their devices (graph
// order is kept), and its start on a device is no earlier than what it
// follows ends there, or is learnt of and acted on elsewhere (ready_at):
// a device that runs the predecessors has the bytes and queues the
// command right behind them. A device whose queue runs dry may take the
// command another would run last (rebalance_to).
#include <algorithm>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "per_device_queues.hpp"

namespace unicl {
namespace {

class Heft final : public PerDeviceQueues {
 public:
  using PerDeviceQueues::PerDeviceQueues;
  bool places_ahead() const override { return true; }
  std::shared_ptr<Task> pop(size_t device) override {
    if (auto t = PerDeviceQueues::pop(device)) return t;
    return rebalance_to(device);
  }
  void push(std::shared_ptr<Task> t) override {
    const std::string &kernel = view_.kernel(*t);
    double now = view_.now();
    const auto &devices = eligible(*t);
    // When each device could start it, asked once per device (ready_at
    // walks what the command follows; both loops below read it).
    std::vector<double> &start_of = start_of_;
    start_of.assign(view_.devices(), 0.0);
    for (size_t d : devices) start_of[d] = start_on(*t, d, now);
    // Explore: the earliest-starting device whose model of the kernel is
    // not yet calibrated and to which no exploration is on the way.
    size_t explore = view_.devices();
    for (size_t d : devices) {
      if (!wants_measuring(*t, kernel, d)) continue;
      if (explore == view_.devices() || start_of[d] < start_of[explore]) explore = d;
    }
    if (explore != view_.devices()) {
      Exploration &e = exploring_[{kernel, explore}];
      e.runs_when_sent = view_.runs(*t, explore);
      ++e.sent;
      double predicted = estimate(*t, explore);  // before t is moved from
      assign(std::move(t), explore, predicted);
      return;
    }
    size_t best = devices.front();
    double best_finish = std::numeric_limits<double>::infinity(), best_exec = 0;
    for (size_t d : devices) {
      double exec = estimate(*t, d);
      double finish = start_of[d] + view_.transfer_time(*t, d) + exec;
      if (finish < best_finish) {
        best = d;
        best_finish = finish;
        best_exec = exec;
      }
    }
    assign(std::move(t), best, best_exec);
  }

 private:
  // A device whose queue ran dry takes from another device the command
  // that would run last there (lowest priority, newest), when it would end
  // it sooner itself. Placed when it became ready, a command keeps the
  // predictions of that moment: where the inputs' transfers took longer
  // than predicted (a network shared by every node), the devices that got
  // theirs first ran out of work while others still held theirs queued
  // (bench-cluster-scaling's matmul on 4 nodes: the first GPUs done 10-15 ms
  // before the last). Only a command that can start (one placed ahead
  // stays behind what it waits for: taking those too, the local 16-device
  // Cholesky of bench-sim-compare took 181 ms against 167 without any
  // rebalancing), and only between devices whose models of the kernel are
  // calibrated: an exploration stays where it measures.
  std::shared_ptr<Task> rebalance_to(size_t device) {
    const double now = view_.now();
    size_t from = view_.devices();
    double most_gained = 0;
    for (size_t d = 0; d < view_.devices(); ++d) {
      const Task *t = d == device ? nullptr : last_to_run(d);
      if (!t || !view_.can_run(*t, device) || !view_.calibrated(*t, device) || !view_.calibrated(*t, d)) continue;
      if (view_.ready_at(*t, d) > now + kReadySlack) continue;  // placed ahead: it waits for its predecessors
      const double there = free_on(d, now);  // its queue's end: it runs last there
      const double here = start_on(*t, device, now) + view_.transfer_time(*t, device) + estimate(*t, device);
      if (there - here > most_gained) from = d, most_gained = there - here;
    }
    return from == view_.devices() ? nullptr : take_last_to_run(from);
  }
  // When device d is free of what runs and is queued there (its core
  // group's), and when it could start `t` behind that and what `t` follows.
  double free_on(size_t d, double now) const { return std::max(now, view_.busy_until(d)) + queued(d); }
  double start_on(const Task &t, size_t d, double now) const { return std::max(free_on(d, now), view_.ready_at(t, d)); }
  // ready_at() reads the clock again: a command whose predecessors all
  // ended is ready within this much of rebalance_to's `now`.
  static constexpr double kReadySlack = 10e-6;
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
  // Whether device d should run the kernel to be measured: its model is
  // not calibrated, no run sent to measure it is still out (one is once
  // the device's count of completed runs has grown since), and fewer than
  // kMaxExplorations were sent (a device whose times never reach the
  // models is placed by estimate).
  bool wants_measuring(const Task &t, const std::string &kernel, size_t d) {
    if (view_.calibrated(t, d)) {
      if (!exploring_.empty()) exploring_.erase({kernel, d});
      return false;
    }
    auto found = exploring_.find({kernel, d});
    return found == exploring_.end() ||
           (found->second.sent < kMaxExplorations && view_.runs(t, d) > found->second.runs_when_sent);
  }
  // Runs sent to measure a kernel on a device: its first (not measured),
  // then the calibration samples.
  static constexpr size_t kMaxExplorations = 4;
  struct Exploration {
    size_t runs_when_sent = 0;  // the device's completed runs of the kernel when the latest was sent
    size_t sent = 0;
  };
  std::map<std::pair<std::string, size_t>, Exploration> exploring_;  // by (kernel, device)
  std::vector<double> start_of_;  // push()'s, reused: no allocation per command
};

}  // namespace

std::unique_ptr<Policy> make_heft(const SchedulingView &view) { return std::make_unique<Heft>(view); }

}  // namespace unicl
