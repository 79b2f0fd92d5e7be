// Per-device FIFO queues, for policies that place a command when it is
// pushed (heft, random, round-robin): pop(d) takes the head of d's queue.
#pragma once
#include <deque>
#include <utility>
#include <vector>

#include "policy.hpp"

namespace unicl {

class PerDeviceQueues : public Policy {
 public:
  explicit PerDeviceQueues(const SchedulingView &view) : view_(view), queues_(view.devices()) {}
  // The queued command of highest priority (upward rank, taken when it was
  // placed), the oldest on a tie, among the oldest kScan: a bounded look
  // keeps pop constant-time when thousands of independent commands wait.
  std::shared_ptr<Task> pop(size_t device) override {
    auto &q = queues_[device];
    if (q.empty()) return nullptr;
    auto best = q.begin();
    auto end = q.size() > kScan ? q.begin() + kScan : q.end();
    for (auto it = std::next(q.begin()); it != end; ++it)
      if (it->priority > best->priority) best = it;
    auto t = std::move(best->task);
    predicted_[device] -= best->predicted;
    q.erase(best);
    return t;
  }
  size_t pending() const override {
    size_t n = 0;
    for (auto &q : queues_) n += q.size();
    return n;
  }

 protected:
  void assign(std::shared_ptr<Task> t, size_t device, double predicted) {
    view_.placed(*t, device);
    double priority = view_.priority(*t);
    queues_[device].push_back({std::move(t), predicted, priority});
    predicted_[device] += predicted;
  }
  // The command `device` would run last of those queued for it (null:
  // none): the one of lowest priority, the newest on a tie, among the
  // newest kScan (pop's order, reversed, with the same bounded look).
  // Taking it out, for another device to run.
  Task *last_to_run(size_t device) const {
    auto it = last_entry(device);
    return it == queues_[device].end() ? nullptr : it->task.get();
  }
  std::shared_ptr<Task> take_last_to_run(size_t device) {
    auto it = last_entry(device);
    auto t = std::move(it->task);
    predicted_[device] -= it->predicted;
    queues_[device].erase(it);
    return t;
  }
  // Predicted work queued for `device` (and the devices it shares cores
  // with) and not yet started.
  double queued(size_t device) const {
    double sum = 0;
    for (size_t d = 0; d < predicted_.size(); ++d)
      if (view_.group(d) == view_.group(device)) sum += predicted_[d];
    return sum;
  }
  // Devices that can run `t` (all of them if none can: the engine then
  // reports the command's error when it is submitted).
  // Valid until the next call (one list reused: no allocation per command).
  const std::vector<size_t> &eligible(const Task &t) const {
    std::vector<size_t> &out = eligible_;
    out.clear();
    for (size_t d = 0; d < view_.devices(); ++d)
      if (view_.can_run(t, d)) out.push_back(d);
    if (out.empty())
      for (size_t d = 0; d < view_.devices(); ++d) out.push_back(d);
    return out;
  }
  const SchedulingView &view_;
  static constexpr size_t kScan = 32;

 private:
  struct Entry {
    std::shared_ptr<Task> task;
    double predicted;
    double priority;
  };
  std::vector<std::deque<Entry>> queues_;
  std::deque<Entry>::const_iterator last_entry(size_t device) const {
    const auto &q = queues_[device];
    auto last = q.end();
    for (auto it = q.size() > kScan ? q.end() - kScan : q.begin(); it != q.end(); ++it)
      if (last == q.end() || it->priority <= last->priority) last = it;
    return last;
  }
  std::deque<Entry>::iterator last_entry(size_t device) {
    auto &q = queues_[device];
    return q.begin() + (std::as_const(*this).last_entry(device) - q.cbegin());
  }
  std::vector<double> predicted_ = std::vector<double>(view_.devices(), 0.0);
  mutable std::vector<size_t> eligible_;
};

}  // namespace unicl
