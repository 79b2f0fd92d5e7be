// "climb": starts at the natural first cut (FactorOption::start: one piece
// per device that can run at once), then tries the launch undivided
// (unless the kernel models show it far slower), and moves to a better
// neighbour while there is one, or across neighbours about as fast as the
// best, assuming time falls then rises with the factor: on a wide range it
// tries a few options where each-once tries them all. Re-measures
// (resample_number) take a neighbour of the best, so that a change of load
// can move the choice.
#include <cstdlib>

#include "strategy.hpp"

namespace unicl {
namespace {

class Climb final : public FactorStrategy {
 public:
  size_t choose(std::span<const FactorOption> options, uint64_t launches, size_t devices) const override {
    size_t best = fastest(options);
    // One device at a time (devices sharing the same cores): pieces would
    // only take turns, each paying its own launch, so the launch stays
    // whole; only the rare re-measures below try a divided factor.
    const bool alone = devices <= 1;
    if (best == options.size()) {
      // Nothing timed yet: the start (one piece per device), unless it is
      // already running.
      size_t start = 0;
      for (size_t i = 0; i < options.size(); ++i)
        if (options[i].start) start = i;
      if (alone) start = 0;
      if (!options[start].tried() || alone) return start;
      for (size_t i = 0; i < options.size(); ++i)
        if (!options[i].tried()) return i;
      return start;
    }
    // The launch undivided, as the application wrote it, second: a factor
    // must beat it, and on devices that cannot share a launch (two sharing
    // the same cores) it is the best and no climb would reach it. Unless the
    // kernel models say that its kernel alone would take kSkip times what
    // the start took in all.
    if (!options[0].tried() && !(options[0].predicted > kSkip * options[best].mean)) return 0;
    // A neighbour of the best not tried yet: the climb goes on.
    if (!alone && best > 0 && !options[best - 1].tried()) return best - 1;
    if (!alone && best + 1 < options.size() && !options[best + 1].tried()) return best + 1;
    // Across a plateau: a neighbour about as fast as the best (within
    // kPlateau) whose own next option is untried. Without this the climb
    // stops among equal options short of a better one beyond them (on two
    // devices sharing the cores, every divided factor costs the same and
    // only the undivided launch is faster).
    for (size_t i = best; !alone && i-- > 0 && options[i].tried() && options[i].runs > 0 &&
                          options[i].mean <= kPlateau * options[best].mean;)
      if (i > 0 && !options[i - 1].tried()) return i - 1;
    for (size_t i = best + 1; !alone && i < options.size() && options[i].tried() && options[i].runs > 0 &&
                              options[i].mean <= kPlateau * options[best].mean;
         ++i)
      if (i + 1 < options.size() && !options[i + 1].tried()) return i + 1;
    // Re-measuring: a neighbour, but one much slower than the best (over
    // kCheap times), or any when alone, only one time in four, since each
    // re-measure of it costs that much.
    if (int64_t k = resample_number(launches); k >= 0) {
      bool rare = k % 4 == 3;
      auto worth = [&](size_t i) { return rare || (!alone && options[i].mean <= kCheap * options[best].mean); };
      bool left = k % 2 == 0;
      if (left && best > 0 && worth(best - 1)) return best - 1;
      if (best + 1 < options.size() && worth(best + 1)) return best + 1;
      if (best > 0 && worth(best - 1)) return best - 1;
    }
    return best;
  }

 private:
  static constexpr double kPlateau = 1.05, kCheap = 1.5, kSkip = 1.5;
};

}  // namespace

std::unique_ptr<FactorStrategy> make_climb() { return std::make_unique<Climb>(); }

}  // namespace unicl
