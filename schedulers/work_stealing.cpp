// ws: work stealing. Each device has its own deque; a command is pushed to
// the device that already holds most of its data (on a tie, the one that
// would finish it first). A device whose deque is empty steals from the device expected to
// finish last, taking a share of its commands proportional to its own rate
// over the sum of rates (for the kernel at the head of the victim's deque),
// preferring commands whose data it already holds, and only commands it is
// predicted to finish before both the victim would finish its deque and
// all devices together would finish all deques: a slow device never takes
// the last commands of fast ones.
//
// Across nodes (contexts with devices of other machines) stealing has two
// levels: a device steals from the devices of its own node
// first, and only when none of them has anything it can take, from one
// other node's, taken at random (spreading the thieves of several nodes),
// its device expected to finish last.
#include <algorithm>
#include <deque>
#include <random>

#include "policy.hpp"

namespace unicl {
namespace {

class WorkStealing final : public Policy {
 public:
  explicit WorkStealing(const SchedulingView &view)
      : view_(view), deques_(view.devices()), queued_work_(view.devices(), 0.0) {}

  void push(std::shared_ptr<Task> t) override {
    size_t best = view_.devices();
    for (size_t d = 0; d < view_.devices(); ++d) {
      if (!view_.can_run(*t, d)) continue;
      if (best == view_.devices() || better_home(*t, d, best)) best = d;
    }
    if (best == view_.devices()) best = 0;
    add(best, std::move(t));
  }

  std::shared_ptr<Task> pop(size_t device) override {
    if (deques_[device].empty()) steal_for(device);
    auto &q = deques_[device];
    for (auto it = q.begin(); it != q.end(); ++it) {
      if (!view_.can_run(*it->task, device)) continue;
      auto t = std::move(it->task);
      queued_work_[device] -= it->work;
      q.erase(it);
      if (q.empty()) queued_work_[device] = 0;  // no drift from rounding
      return t;
    }
    return nullptr;
  }

  size_t pending() const override {
    size_t n = 0;
    for (auto &q : deques_) n += q.size();
    return n;
  }

 private:
  struct Entry {
    std::shared_ptr<Task> task;
    double work;  // predicted on the owning device when queued there
  };
  void add(size_t d, std::shared_ptr<Task> t) {
    double w = work(*t, d);
    queued_work_[d] += w;
    deques_[d].push_back({std::move(t), w});
  }
  double work(const Task &t, size_t d) const {
    double e = view_.exec_time(t, d);
    return e >= 0 ? e : 1.0 / std::max(view_.speed(d), 1e-9);
  }
  double expected_finish(size_t d) const { return std::max(view_.now(), view_.busy_until(d)) + queued_work_[d]; }
  // When every device would be done if the queued commands (all like
  // `like`) were shared out in proportion to the devices' rates.
  double balanced_finish(const Task &like) const {
    double now = view_.now(), rates = 0, tasks = static_cast<double>(pending());
    for (size_t d = 0; d < view_.devices(); ++d) {
      double r = 1.0 / std::max(work(like, d), 1e-12);
      rates += r;
      tasks += r * std::max(view_.busy_until(d) - now, 0.0);  // what it still runs, in commands
    }
    return now + tasks / std::max(rates, 1e-12);
  }
  bool better_home(const Task &t, size_t d, size_t than) const {
    size_t a = view_.resident_bytes(t, d), b = view_.resident_bytes(t, than);
    if (a != b) return a > b;
    return expected_finish(d) + work(t, d) < expected_finish(than) + work(t, than);
  }
  // The device of `node` (any node when `node` is none) with work queued
  // that is expected to finish last; devices() when none.
  static constexpr size_t kAnyNode = ~size_t{0};
  size_t latest_of(size_t thief, size_t node) const {
    size_t victim = view_.devices();
    double latest = -1;
    for (size_t d = 0; d < view_.devices(); ++d) {
      if (d == thief || deques_[d].empty() || (node != kAnyNode && view_.node(d) != node)) continue;
      double f = expected_finish(d);
      if (f > latest) {
        latest = f;
        victim = d;
      }
    }
    return victim;
  }
  void steal_for(size_t thief) {
    // Its own node first.
    if (size_t victim = latest_of(thief, view_.node(thief)); victim != view_.devices() && steal(thief, victim)) return;
    // Then one other node with queued work, at random.
    std::vector<size_t> others;
    for (size_t d = 0; d < view_.devices(); ++d)
      if (!deques_[d].empty() && view_.node(d) != view_.node(thief) &&
          std::find(others.begin(), others.end(), view_.node(d)) == others.end())
        others.push_back(view_.node(d));
    if (others.empty()) return;
    const size_t node = others[std::uniform_int_distribution<size_t>(0, others.size() - 1)(random_)];
    if (size_t victim = latest_of(thief, node); victim != view_.devices()) steal(thief, victim);
  }
  // Moves a share of `victim`'s queue to `thief`; false if it took nothing.
  bool steal(size_t thief, size_t victim) {
    auto &from = deques_[victim];
    double total = 0;
    const Task &head = *from.front().task;
    for (size_t d = 0; d < view_.devices(); ++d) total += 1.0 / std::max(work(head, d), 1e-12);
    double thief_rate = 1.0 / std::max(work(head, thief), 1e-12);
    size_t share = static_cast<size_t>(static_cast<double>(from.size()) * thief_rate / std::max(total, 1e-12));
    share = std::clamp<size_t>(share, 1, from.size());
    double victim_done = std::min(expected_finish(victim), balanced_finish(head)), start = std::max(view_.now(), view_.busy_until(thief));
    // Commands whose data the thief holds first; the victim keeps the rest
    // in its order.
    std::vector<size_t> order(from.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return view_.resident_bytes(*from[a].task, thief) > view_.resident_bytes(*from[b].task, thief);
    });
    std::vector<bool> taken(from.size(), false);
    for (size_t i : order) {
      if (share == 0) break;
      const Task &t = *from[i].task;
      if (!view_.can_run(t, thief)) continue;
      double done = start + view_.transfer_time(t, thief) + work(t, thief);
      if (done >= victim_done) continue;
      start = done;
      taken[i] = true;
      --share;
    }
    std::deque<Entry> kept;
    for (size_t i = 0; i < from.size(); ++i) {
      if (!taken[i]) {
        kept.push_back(std::move(from[i]));
        continue;
      }
      queued_work_[victim] -= from[i].work;
      add(thief, std::move(from[i].task));
    }
    const bool took = kept.size() < from.size();
    from.swap(kept);
    if (from.empty()) queued_work_[victim] = 0;
    return took;
  }

  const SchedulingView &view_;
  std::vector<std::deque<Entry>> deques_;
  std::vector<double> queued_work_;  // per device: predicted work of its deque
  std::minstd_rand random_{12345};   // picks a remote node to steal from
};

}  // namespace

std::unique_ptr<Policy> make_work_stealing(const SchedulingView &view) {
  return std::make_unique<WorkStealing>(view);
}

}  // namespace unicl
