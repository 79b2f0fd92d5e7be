// How a divided launch's partitioning factor is chosen: one strategy per
// file, named in registry.cpp (a new strategy is one file and one line).
// A strategy sees what is known of each factor for one launch shape and
// picks the next; the times themselves live in the performance models.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace unicl {

// One choice for a launch: `factor` for the divide function, 0 for the
// launch undivided.
struct FactorOption {
  unsigned factor = 0;
  size_t runs = 0;       // launches timed with it
  double mean = 0;       // their mean seconds (recent ones weigh more)
  size_t in_flight = 0;  // launches of this process running with it, not yet timed
  // Undivided only: the kernel's time on its fastest device by the
  // performance models (the kernel alone, without what comes after it);
  // negative when unknown. A hint for strategies that need not try it.
  double predicted = -1;
  bool tried() const { return runs + in_flight > 0; }
};

class FactorStrategy {
 public:
  virtual ~FactorStrategy() = default;
  // The index in `options` (ordered by factor, undivided first) of the next
  // launch's choice. `launches`: launches of this shape this process made
  // before; `devices`: devices the pieces may go to.
  virtual size_t choose(std::span<const FactorOption> options, uint64_t launches, size_t devices) const = 0;
};

// One launch in kResampleEvery re-measures an option other than the best, so
// that the choice follows the machine's load.
inline constexpr uint64_t kResampleEvery = 8;

// The option with the smallest mean among those timed (options.size() if none).
size_t fastest(std::span<const FactorOption> options);

// The strategy called `name`, or null.
std::unique_ptr<FactorStrategy> make_strategy(const std::string &name);
// Every strategy's name, the default first.
const std::vector<std::string> &strategy_names();

}  // namespace unicl
