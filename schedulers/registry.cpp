// Policy names to policies: one line per policy.
#include <functional>
#include <utility>

#include "policy.hpp"

namespace unicl {

std::unique_ptr<Policy> make_eager(const SchedulingView &);
std::unique_ptr<Policy> make_heft(const SchedulingView &);
std::unique_ptr<Policy> make_work_stealing(const SchedulingView &);
std::unique_ptr<Policy> make_random(const SchedulingView &);
std::unique_ptr<Policy> make_round_robin(const SchedulingView &);

namespace {

using Factory = std::unique_ptr<Policy> (*)(const SchedulingView &);
const std::vector<std::pair<std::string, Factory>> &registry() {
  static const std::vector<std::pair<std::string, Factory>> policies = {
      {"heft", make_heft},
      {"eager", make_eager},
      {"ws", make_work_stealing},
      {"random", make_random},
      {"round-robin", make_round_robin},
  };
  return policies;
}

}  // namespace

std::unique_ptr<Policy> make_policy(const std::string &name, const SchedulingView &view) {
  for (auto &[n, make] : registry())
    if (n == name) return make(view);
  return nullptr;
}

const std::vector<std::string> &policy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (auto &entry : registry()) v.push_back(entry.first);
    return v;
  }();
  return names;
}

}  // namespace unicl
