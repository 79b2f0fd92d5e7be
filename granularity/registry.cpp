// Strategy names to strategies: one line per strategy, the default first.
#include <utility>

#include "core/named_factories.hpp"
#include "strategy.hpp"

namespace unicl {

std::unique_ptr<FactorStrategy> make_each_once();
std::unique_ptr<FactorStrategy> make_climb();

namespace {

using Factory = std::unique_ptr<FactorStrategy> (*)();
const NamedFactories<Factory> &registry() {
  static const NamedFactories<Factory> strategies({
      {"climb", make_climb},
      {"each-once", make_each_once},
  });
  return strategies;
}

}  // namespace

size_t fastest(std::span<const FactorOption> options) {
  size_t best = options.size();
  for (size_t i = 0; i < options.size(); ++i)
    if (options[i].runs > 0 && (best == options.size() || options[i].mean < options[best].mean)) best = i;
  return best;
}

std::unique_ptr<FactorStrategy> make_strategy(const std::string &name) {
  Factory make = registry().find(name);
  return make ? make() : nullptr;
}

const std::vector<std::string> &strategy_names() { return registry().names(); }

}  // namespace unicl
