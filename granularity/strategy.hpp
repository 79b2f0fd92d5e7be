// How a divided launch's partitioning factor is chosen: one strategy per
// file, named in registry.cpp (a new strategy is one file and one line).
// A strategy sees what is known of each factor for one launch shape and
// picks the next; the times themselves live in the performance models.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
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
  // The natural first cut: one piece per device that can run at the same
  // time (the launch undivided when there is one; the built-in divider's
  // factor 1). A hint for strategies that start somewhere.
  bool start = false;
  bool tried() const { return runs + in_flight > 0; }
};

class FactorStrategy {
 public:
  virtual ~FactorStrategy() = default;
  // The index in `options` (ordered by factor, undivided first) of the next
  // launch's choice. `launches`: launches of this shape this process made
  // before; `devices`: devices the pieces may go to that can run at the
  // same time (those sharing the same cores count once).
  virtual size_t choose(std::span<const FactorOption> options, uint64_t launches, size_t devices) const = 0;
};

// Some launches re-measure an option other than the best, so that the choice
// follows the machine's load: launches 7, 23, 55, 119 of a shape, then one in
// 64. The gaps grow (16, 32, 64) because each re-measure costs a launch at a
// worse factor, and a choice that held longer is likelier to hold on: an
// iteration of 20 launches pays one re-measure, not two or three.
// The number of the re-measure `launches` (launches of the shape before this
// one) is, or -1 when it is not one.
inline int64_t resample_number(uint64_t launches) {
  constexpr uint64_t kFirst[] = {7, 23, 55, 119}, kEvery = 64;
  for (size_t k = 0; k < std::size(kFirst); ++k)
    if (launches == kFirst[k]) return static_cast<int64_t>(k);
  if (launches > kFirst[3] && (launches - kFirst[3]) % kEvery == 0)
    return static_cast<int64_t>(std::size(kFirst) - 1 + (launches - kFirst[3]) / kEvery);
  return -1;
}

// The option with the smallest mean among those timed (options.size() if none).
size_t fastest(std::span<const FactorOption> options);

// The strategy called `name`, or null.
std::unique_ptr<FactorStrategy> make_strategy(const std::string &name);
// Every strategy's name, the default first.
const std::vector<std::string> &strategy_names();

}  // namespace unicl
