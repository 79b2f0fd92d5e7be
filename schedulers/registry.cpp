// Policy names to policies: one line per policy.
#include <functional>
#include <utility>

#include "core/named_factories.hpp"
#include "policy.hpp"

namespace unicl {

std::unique_ptr<Policy> make_eager(const SchedulingView &);
std::unique_ptr<Policy> make_heft(const SchedulingView &);
std::unique_ptr<Policy> make_work_stealing(const SchedulingView &);
std::unique_ptr<Policy> make_random(const SchedulingView &);
std::unique_ptr<Policy> make_round_robin(const SchedulingView &);

namespace {

using Factory = std::unique_ptr<Policy> (*)(const SchedulingView &);
const NamedFactories<Factory> &registry() {
  static const NamedFactories<Factory> policies({
      {"heft", make_heft},
      {"eager", make_eager},
      {"ws", make_work_stealing},
      {"random", make_random},
      {"round-robin", make_round_robin},
  });
  return policies;
}

}  // namespace

std::unique_ptr<Policy> make_policy(const std::string &name, const SchedulingView &view) {
  Factory make = registry().find(name);
  return make ? make(view) : nullptr;
}

const std::vector<std::string> &policy_names() { return registry().names(); }

}  // namespace unicl
