// The factors of divided launches, chosen per launch shape (kernel, global
// size, devices of the context) from the times in the performance models
// and the context's strategy, and the times recorded back.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/division.hpp"
#include "strategy.hpp"

struct _cl_context;

namespace unicl {

class PerfModels;

class FactorChoice {
 public:
  explicit FactorChoice(std::shared_ptr<PerfModels> models);

  // What a launch runs with, and what it reports back to.
  struct Choice {
    std::string shape;
    unsigned factor = 0;  // 0: undivided
    bool learnt = false;  // chosen by the strategy (a fixed factor is not timed)
  };
  Choice choose(const DividedLaunch &launch);
  // The launch ended; `seconds` from its start, negative when it failed.
  void finished(const Choice &choice, double seconds);

  // The key of a launch shape in the models.
  static std::string shape_of(const DividedLaunch &launch);

 private:
  struct Shape {
    uint64_t launches = 0;
    std::map<unsigned, size_t> in_flight;
  };
  std::shared_ptr<PerfModels> models_;
  std::vector<std::pair<std::string, std::unique_ptr<FactorStrategy>>> strategies_;
  std::mutex mutex_;
  std::map<std::string, Shape> shapes_;  // guarded by mutex_
};

}  // namespace unicl
