// The interface between UniCL's scheduling engine and a placement policy.
//
// The engine (schedulers/engine.cpp) pushes a command to the policy when
// all its dependencies are complete (or, to a policy that places_ahead(),
// a kernel once they are all planned on their devices), and pops from it
// for a device whenever
// that device has room for another command (a few in flight per device, so
// that transfers for the next command overlap the current one). A policy
// that places at push time (heft, random, round-robin) keeps one queue per
// device; one that places at pop time (eager, ws) decides there.
// Adding a policy is one file defining a class and one line in registry.cpp.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace unicl {

class Task;

// What a policy may ask about the devices and commands it places. Times
// are in seconds, on the engine's clock.
class SchedulingView {
 public:
  virtual ~SchedulingView() = default;
  virtual size_t devices() const = 0;
  virtual double now() const = 0;
  // The command can run on the device (its kernel is built there and its
  // buffers fit in the device's memory limit).
  virtual bool can_run(const Task &t, size_t device) const = 0;
  // Predicted execution time; negative when the model has no data yet for
  // this kernel on this device (the policy should explore it there).
  virtual double exec_time(const Task &t, size_t device) const = 0;
  // Whether exec_time() rests on enough measurements to be trusted: a
  // device that one slow run would rule out for good (a noisy sample, a
  // first run that paid for something once) is measured again first.
  virtual bool calibrated(const Task &t, size_t device) const = 0;
  // Runs of the command's kernel on the device that completed in this
  // context, measured or not: an exploration sent there is answered once
  // this grows.
  virtual size_t runs(const Task &t, size_t device) const = 0;
  // Predicted time to bring the command's data that is not valid on the
  // device there.
  virtual double transfer_time(const Task &t, size_t device) const = 0;
  // Bytes of the command's buffers already valid on the device.
  virtual size_t resident_bytes(const Task &t, size_t device) const = 0;
  // When the commands already running on the device are predicted to end.
  virtual double busy_until(size_t device) const = 0;
  // Devices with the same group compute on the same cores (CPU devices of
  // this host whose compute units together exceed its processing units):
  // the engine runs one of them at a time, so their queued work adds up.
  virtual size_t group(size_t device) const = 0;
  // The node (MPI rank) whose machine holds the device: 0 for this one.
  virtual size_t node(size_t /*device*/) const { return 0; }
  // Relative throughput of the device (larger is faster), from the models
  // or, before any data, from the device's description.
  virtual double speed(size_t device) const = 0;
  // Upward rank of `t`: its mean predicted time over the devices plus the
  // longest such path through the commands already enqueued that wait for
  // it (seconds). Commands on the critical path go first.
  virtual double priority(Task &t) const = 0;
  // The kernel a command launches (empty for other commands): what the
  // performance models are kept for.
  virtual const std::string &kernel(const Task &t) const = 0;
  // A policy placed `t` on `device` ahead of its start (heft's queues): the
  // buffers it reads are on their way there, and transfer_time() no longer
  // charges them to the commands placed after it.
  virtual void placed(Task & /*t*/, size_t /*device*/) const {}
  // When the command could start on the device as far as the commands it
  // follows are concerned: the latest of their predicted ends, plus, for
  // each on another device, the time its end takes to be learnt and acted
  // on (its bytes' transfer is transfer_time()'s). now() for a command
  // whose dependencies are complete.
  virtual double ready_at(const Task &t, size_t device) const = 0;
};

class Policy {
 public:
  virtual ~Policy() = default;
  // A command whose dependencies are all complete, or all planned (a
  // kernel, when places_ahead()).
  virtual void push(std::shared_ptr<Task> t) = 0;
  // Whether the policy weighs commands that cannot start yet
  // (SchedulingView::ready_at): one that places at push time and knows
  // when each device would start it. The engine pushes a kernel to it once
  // what it waits for is planned, and the kernel placed on the device of
  // its predecessors is queued there behind them.
  virtual bool places_ahead() const { return false; }
  // The next command for `device`, or null to leave it idle.
  virtual std::shared_ptr<Task> pop(size_t device) = 0;
  // Commands pushed and not yet popped.
  virtual size_t pending() const = 0;
};

// Takes out of `queue` (a sequence of commands) the first one `device` can
// run; null if none.
template <class Queue>
std::shared_ptr<Task> take_first_runnable(Queue &queue, const SchedulingView &view, size_t device) {
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    if (!view.can_run(**it, device)) continue;
    auto t = std::move(*it);
    queue.erase(it);
    return t;
  }
  return nullptr;
}

// Makes the policy called `name` ("heft", "eager", "ws", "random",
// "round-robin"); null for an unknown name.
std::unique_ptr<Policy> make_policy(const std::string &name, const SchedulingView &view);
// The names make_policy knows, for messages and documentation.
const std::vector<std::string> &policy_names();

}  // namespace unicl
