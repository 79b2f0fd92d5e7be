// random: each command to a device drawn at random, weighted by the
// devices' speeds (as StarPU's "random" policy does). A baseline.
#include <random>

#include "per_device_queues.hpp"

namespace unicl {
namespace {

class Random final : public PerDeviceQueues {
 public:
  using PerDeviceQueues::PerDeviceQueues;
  void push(std::shared_ptr<Task> t) override {
    const auto &devices = eligible(*t);
    std::vector<double> weights;
    for (size_t d : devices) weights.push_back(std::max(view_.speed(d), 1e-9));
    std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
    assign(std::move(t), devices[pick(rng_)], 0);
  }

 private:
  std::mt19937 rng_{12345};  // fixed seed: runs are reproducible
};

}  // namespace

std::unique_ptr<Policy> make_random(const SchedulingView &view) { return std::make_unique<Random>(view); }

}  // namespace unicl
