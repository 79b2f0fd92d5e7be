// Strategy names to strategies: one line per strategy, the default first.
#include <utility>

#include "strategy.hpp"

namespace unicl {

std::unique_ptr<FactorStrategy> make_each_once();
std::unique_ptr<FactorStrategy> make_climb();

namespace {

using Factory = std::unique_ptr<FactorStrategy> (*)();
const std::vector<std::pair<std::string, Factory>> &registry() {
  static const std::vector<std::pair<std::string, Factory>> strategies = {
      {"climb", make_climb},
      {"each-once", make_each_once},
  };
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
  for (auto &[n, make] : registry())
    if (n == name) return make();
  return nullptr;
}

const std::vector<std::string> &strategy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (auto &entry : registry()) v.push_back(entry.first);
    return v;
  }();
  return names;
}

}  // namespace unicl
