// "each-once": every option once, in order (StarPU SOCL's exploration), then
// the fastest; re-measures (resample_number) go through the options in turn.
#include "strategy.hpp"

namespace unicl {
namespace {

class EachOnce final : public FactorStrategy {
 public:
  size_t choose(std::span<const FactorOption> options, uint64_t launches, size_t) const override {
    for (size_t i = 0; i < options.size(); ++i)
      if (!options[i].tried()) return i;
    size_t best = fastest(options);
    if (best == options.size()) return 0;  // all in flight, none timed yet
    if (int64_t k = resample_number(launches); k >= 0) {
      size_t other = static_cast<size_t>(k) % options.size();
      if (other != best) return other;
    }
    return best;
  }
};

}  // namespace

std::unique_ptr<FactorStrategy> make_each_once() { return std::make_unique<EachOnce>(); }

}  // namespace unicl
