// round-robin: each command to the next device in turn. A baseline that
// ignores speeds and data: it shows what placement without a model costs.
#include "per_device_queues.hpp"

namespace unicl {
namespace {

class RoundRobin final : public PerDeviceQueues {
 public:
  using PerDeviceQueues::PerDeviceQueues;
  void push(std::shared_ptr<Task> t) override {
    const auto &devices = eligible(*t);
    size_t d = devices[next_++ % devices.size()];
    assign(std::move(t), d, 0);
  }

 private:
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<Policy> make_round_robin(const SchedulingView &view) { return std::make_unique<RoundRobin>(view); }

}  // namespace unicl
