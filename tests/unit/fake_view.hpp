// What the scheduling policies see of the engine, answered from plain data:
// the policies only handle `unicl::Task` through a SchedulingView, so the
// tests define the command type themselves and no engine, context or vendor
// is needed.
#pragma once
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../../schedulers/policy.hpp"

namespace unicl {

// A command as the fake view describes it; per-device vectors left empty
// take the defaults of FakeView.
class Task {
 public:
  int id = 0;
  std::string kernel = "k";
  std::vector<bool> runnable;   // empty: every device
  std::vector<double> exec;     // predicted seconds, negative when unknown; empty: the view's default
  std::vector<bool> calibrated; // empty: where exec is known
  std::vector<size_t> runs;     // completed runs of its kernel; empty: none anywhere
  std::vector<double> transfer; // empty: nothing to move
  std::vector<size_t> resident; // empty: nothing resident anywhere
  std::vector<double> ready;    // when what it follows lets it start; empty: now
  double priority = 0;
};

}  // namespace unicl

namespace unit {

using unicl::Task;

class FakeView final : public unicl::SchedulingView {
 public:
  explicit FakeView(size_t devices)
      : busy(devices, 0.0), groups(devices), speeds(devices, 1.0) {
    for (size_t d = 0; d < devices; ++d) groups[d] = d;
  }

  size_t devices() const override { return busy.size(); }
  double now() const override { return clock; }
  bool can_run(const Task &t, size_t device) const override { return t.runnable.empty() || t.runnable.at(device); }
  double exec_time(const Task &t, size_t device) const override {
    return t.exec.empty() ? default_exec : t.exec.at(device);
  }
  bool calibrated(const Task &t, size_t device) const override {
    return t.calibrated.empty() ? exec_time(t, device) >= 0 : static_cast<bool>(t.calibrated.at(device));
  }
  size_t runs(const Task &t, size_t device) const override { return t.runs.empty() ? 0 : t.runs.at(device); }
  double transfer_time(const Task &t, size_t device) const override {
    return t.transfer.empty() ? 0.0 : t.transfer.at(device);
  }
  size_t resident_bytes(const Task &t, size_t device) const override {
    return t.resident.empty() ? 0 : t.resident.at(device);
  }
  // As the engine's: devices sharing cores are busy as long as the busiest.
  double busy_until(size_t device) const override {
    double b = 0;
    for (size_t d = 0; d < busy.size(); ++d)
      if (groups[d] == groups.at(device)) b = std::max(b, busy[d]);
    return b;
  }
  size_t group(size_t device) const override { return groups.at(device); }
  size_t node(size_t device) const override { return nodes.empty() ? 0 : nodes.at(device); }
  double speed(size_t device) const override { return speeds.at(device); }
  double priority(Task &t) const override { return t.priority; }
  double ready_at(const Task &t, size_t device) const override { return t.ready.empty() ? clock : t.ready.at(device); }
  const std::string &kernel(const Task &t) const override { return t.kernel; }

  double clock = 0;
  double default_exec = 1e-3;
  std::vector<double> busy;     // per device: when its running commands end
  std::vector<size_t> nodes;    // per device: its node (empty: all on this one)
  std::vector<size_t> groups;   // per device: devices sharing cores have the same
  std::vector<double> speeds;   // per device: relative throughput
};

inline std::shared_ptr<Task> task(int id, Task fields = {}) {
  fields.id = id;
  return std::make_shared<Task>(std::move(fields));
}

// A popped command's id; -1 for none.
inline int id_of(const std::shared_ptr<Task> &t) { return t ? t->id : -1; }

// The ids `device` pops until the policy gives it nothing.
inline std::vector<int> drain(unicl::Policy &policy, size_t device) {
  std::vector<int> ids;
  while (auto t = policy.pop(device)) ids.push_back(t->id);
  return ids;
}

// The same, each command popped then running there as the engine starts
// it: the device busy until its predicted end.
inline std::vector<int> drain_running(unicl::Policy &policy, FakeView &view, size_t device) {
  std::vector<int> ids;
  while (auto t = policy.pop(device)) {
    ids.push_back(t->id);
    view.busy[device] = std::max(view.busy[device], view.clock) + view.exec_time(*t, device);
  }
  return ids;
}

}  // namespace unit
