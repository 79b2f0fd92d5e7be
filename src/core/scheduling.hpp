// The seam between the core and the scheduling layer (schedulers/).
//
// The core hands the commands of scheduled queues to their context's
// ContextScheduler and reports the transfers it timed; it never includes
// the scheduling layer, which installs a SchedulingService into the
// runtime at start-up (icd/startup.cpp). A context made before any service
// is installed, or with a policy name the service does not know, gets no
// scheduler and its creation fails.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

struct _cl_context;

namespace unicl {

class Task;

class ContextScheduler {
 public:
  virtual ~ContextScheduler() = default;
  // A command whose dependencies are complete (or, for a kernel when
  // places_ahead(), all planned on their devices): place it (now or when a
  // device has room) and submit it. `deferred`: called from the work queue.
  // Caller holds the context mutex.
  virtual void push(std::shared_ptr<Task> t, bool deferred) = 0;
  // Whether the scheduler places a kernel whose dependencies are planned
  // but not complete: placed on the device of what it waits for, it is
  // queued there behind it and starts as it ends, instead of one
  // completion notice and one dispatch later (a node's device: a network
  // round trip). Fixed for the context.
  virtual bool places_ahead() const { return false; }
  // A placed command was submitted or failed. Caller holds the context mutex.
  virtual void settled(const std::shared_ptr<Task> &t) = 0;
  // How many of the context's devices can run commands at the same time
  // (devices sharing the same cores count once). Fixed for the context.
  virtual size_t concurrent_devices() const = 0;
};

// The name transfer_timed() gives host memory.
inline constexpr const char *kHostMemory = "host";

class SchedulingService {
 public:
  virtual ~SchedulingService() = default;
  // The scheduler of a new multi-device context; null when `policy` names
  // no policy.
  virtual std::unique_ptr<ContextScheduler> make(_cl_context &ctx, const std::string &policy) = 0;
  // The policy names make() knows: the one list for messages and usage.
  virtual const std::vector<std::string> &policy_names() const = 0;
  // A transfer from memory `src` to memory `dst` (device names, or
  // kHostMemory) took `seconds`.
  virtual void transfer_timed(const std::string &src, const std::string &dst, size_t bytes, double seconds) = 0;
  // Keeps what was learnt (at exit, and when a context goes).
  virtual void save() = 0;
};

}  // namespace unicl
