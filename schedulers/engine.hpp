// The scheduling engine of a multi-device context: it receives the commands
// of scheduled queues (device-less queues, or every queue with
// UNICL_SCHEDULE_ALL=1) once their dependencies are complete, lets the
// context's policy place them, keeps a few commands in flight per device,
// and feeds the performance models with what each command took.
// Everything here runs with the context mutex held.
#pragma once
#include <unordered_map>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/scheduling.hpp"
#include "dispatch_window.hpp"
#include "perf_model.hpp"
#include "policy.hpp"

struct _cl_context;
struct _cl_mem;

namespace unicl {

class Engine final : public ContextScheduler, public SchedulingView {
 public:
  // Null when `policy` is not a policy name.
  static std::unique_ptr<Engine> make(_cl_context &ctx, const std::string &policy, PerfModels &models);
  Engine(_cl_context &ctx, PerfModels &models);
  ~Engine() override;

  void push(std::shared_ptr<Task> t, bool deferred) override;
  bool places_ahead() const override { return policy_->places_ahead(); }
  void settled(const std::shared_ptr<Task> &t) override;
  size_t concurrent_devices() const override;

  size_t devices() const override { return devices_.size(); }
  double now() const override;
  bool can_run(const Task &t, size_t device) const override;
  double exec_time(const Task &t, size_t device) const override;
  bool calibrated(const Task &t, size_t device) const override;
  size_t runs(const Task &t, size_t device) const override;
  double transfer_time(const Task &t, size_t device) const override;
  size_t resident_bytes(const Task &t, size_t device) const override;
  double busy_until(size_t device) const override;
  size_t group(size_t device) const override { return devices_[device].group; }
  size_t node(size_t device) const override { return devices_[device].node; }
  double speed(size_t device) const override { return devices_[device].speed; }
  double priority(Task &t) const override;
  const std::string &kernel(const Task &t) const override;
  void placed(Task &t, size_t device) const override;
  double ready_at(const Task &t, size_t device) const override;

 private:
  void dispatch(bool deferred);
  void finished(Task &t);
  // Completions arrive on vendor threads; one work-queue job takes the
  // context lock once for all that arrived meanwhile.
  void completed(std::shared_ptr<Task> t);
  void drain_completions();
  bool has_room(size_t device) const;
  size_t nearest_copy(const Task &t) const;
  double mean_exec(Task &t) const;
  // The models' prediction for `t` on `device`, cached in the task.
  const ExecPrediction &prediction(const Task &t, size_t device) const;
  // Nodes an upward-rank walk visits at most: long chains of pending
  // commands (an in-order queue) would otherwise make each push linear.
  static constexpr size_t kRankBudget = 64;
  mutable std::vector<std::pair<Task *, double>> rank_memo_;  // priority()'s, reused
  void start(const std::shared_ptr<Task> &t, size_t device, bool deferred);

  struct Device {
    std::string name;     // the vendor's device name, its links' models' key
    std::string model;    // its kernels' models' key (_cl_device_id::model_key)
    // The models' keys of its links from and to host memory, made once:
    // transfer predictions run for every candidate device of every command.
    std::string upload, read_back;
    double speed = 1;     // compute units x clock, a first guess
    size_t in_flight = 0;
    double busy_until = 0;
    double work_in_flight = 0;  // predicted runs of the commands in flight (seconds)
    size_t group = 0;  // its own index, or the first device it shares cores with
    size_t node = 0;   // CL_DEVICE_NODE_UNICL: the rank of its node, 0 here
    uint64_t last_end = 0;  // latest profiling end of its commands (device clock)
    // Root buffers read by commands placed here and not started yet (how
    // many such commands): they will be here before the next command runs.
    mutable std::unordered_map<const _cl_mem *, size_t> heading;
    // Runs of each kernel completed here, in this context (runs()).
    std::unordered_map<std::string, size_t> runs;
  };

  // Undoes placed() for `t` (it starts, or never will on that device).
  void unplace(Task &t);
  // A command without a model counts as a full horizon of work: the
  // device takes no more until it is measured (dispatch_window.hpp).
  static constexpr double kUnmodelledRun = DispatchWindow::kHorizon;
  // From a command's end on one device to a command that follows it being
  // planned on another: the end learnt (a vendor callback here, a node's
  // report: 0.2-0.3 ms measured in bench-cluster) and the engine's
  // dispatch. Nothing behind it on its own device or another of its node.
  static constexpr double kHandOffHere = 50e-6;
  static constexpr double kHandOffNode = 300e-6;
  double hand_off(size_t from, size_t to) const;
  mutable std::vector<const Task *> predecessors_;  // ready_at()'s, reused

  _cl_context &ctx_;
  PerfModels &models_;
  std::unique_ptr<Policy> policy_;
  std::vector<Device> devices_;
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
  bool dispatching_ = false;
  size_t first_asker_ = 0;
  std::vector<char> declined_;  // dispatch's devices the policy left idle, kept to avoid an allocation per round

  std::mutex completions_mutex_;  // guards the two below (taken without the context mutex)
  std::vector<std::shared_ptr<Task>> completions_;
  bool drain_posted_ = false;
};

}  // namespace unicl
