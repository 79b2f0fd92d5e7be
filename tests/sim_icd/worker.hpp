// One thread per simulated device: it runs the device's commands one at a
// time, in submission order among those whose dependencies are complete,
// and makes each take its modeled duration.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cl.hpp"

namespace sim {

struct Event;

struct Command {
  std::shared_ptr<Event> event;
  std::vector<std::shared_ptr<Event>> dependencies;
  double seconds = 0;  // modeled duration, time_scale applied
  // The real part, run when the command starts: copying bytes, or the kernel
  // on PoCL in correctness mode. Returns CL_SUCCESS or a negative status.
  std::function<cl_int()> work;
};

class Worker {
 public:
  Worker() = default;
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  void submit(Command c);
  // Re-examines the pending commands (an event they may wait for changed).
  void wake();

 private:
  void run();
  // The first pending command whose dependencies are complete, if any.
  std::list<Command>::iterator ready();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::list<Command> pending_;  // in submission order
  std::thread thread_;          // started by the first command, never joined (the device is immortal)
  std::uint64_t free_at_ = 0;   // the modeled end of the last command run (now_ns() time base); worker thread only
};

// Wakes every device's worker.
void wake_all_workers();

}  // namespace sim
