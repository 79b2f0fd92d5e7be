// The factor strategies of divided launches (granularity/), on made-up
// statistics: what each explores, then what it keeps to.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "../../granularity/strategy.hpp"

using unicl::FactorOption;

namespace {

// Options undivided, 1..n, with `times` seconds for those already timed
// (negative: not yet); option `start` is the natural first cut.
std::vector<FactorOption> options(const std::vector<double> &times, size_t start = 0) {
  std::vector<FactorOption> out;
  for (size_t i = 0; i < times.size(); ++i) {
    FactorOption o{static_cast<unsigned>(i)};
    if (times[i] >= 0) o.runs = 1, o.mean = times[i];
    o.start = i == start;
    out.push_back(o);
  }
  return out;
}

// Runs `strategy` against a machine where option i takes cost[i] seconds,
// timing each launch at once; returns the options chosen, in order.
// The natural first cut is the factor equal to `devices`.
std::vector<size_t> run(const unicl::FactorStrategy &strategy, const std::vector<double> &cost, size_t launches,
                        size_t devices) {
  std::vector<double> known(cost.size(), -1);
  std::vector<size_t> chosen;
  for (size_t l = 0; l < launches; ++l) {
    auto o = options(known, std::min(devices, cost.size() - 1));
    size_t i = strategy.choose(o, l, devices);
    REQUIRE(i < cost.size());
    chosen.push_back(i);
    known[i] = cost[i];
  }
  return chosen;
}

}  // namespace

TEST_CASE("Both strategies are registered, climb first (the default)") {
  CHECK(unicl::strategy_names() == std::vector<std::string>{"climb", "each-once"});
  CHECK(unicl::make_strategy("each-once"));
  CHECK(unicl::make_strategy("climb"));
  CHECK_FALSE(unicl::make_strategy("nonsense"));
}

TEST_CASE("each-once tries every option once in order, then keeps to the fastest, re-measuring now and then") {
  auto s = unicl::make_strategy("each-once");
  const std::vector<double> cost = {8, 6, 4, 3, 5, 7};  // factor 3 is best
  auto chosen = run(*s, cost, 200, 2);
  CHECK(std::vector<size_t>(chosen.begin(), chosen.begin() + 6) == std::vector<size_t>{0, 1, 2, 3, 4, 5});
  std::vector<size_t> others;
  for (size_t l = 6; l < chosen.size(); ++l)
    if (chosen[l] != 3) others.push_back(l);
  // Re-measures at 7, 23, 55, 119, 183 (the gaps grow to 64) go through the
  // options in turn: the fourth's turn (119) is the best's own.
  CHECK(others == std::vector<size_t>{7, 23, 55, 183});
}

TEST_CASE("Re-measures come at launches 7, 23, 55, 119, then one in 64") {
  std::vector<int64_t> numbers;
  for (uint64_t l = 0; l < 400; ++l)
    if (int64_t k = unicl::resample_number(l); k >= 0) numbers.push_back(static_cast<int64_t>(l) * 100 + k);
  CHECK(numbers == std::vector<int64_t>{700, 2301, 5502, 11903, 18304, 24705, 31106, 37507});
}

TEST_CASE("each-once counts launches in flight as tried: back-to-back launches explore") {
  auto s = unicl::make_strategy("each-once");
  auto o = options({-1, -1, -1});
  o[0].in_flight = 1;
  CHECK(s->choose(o, 1, 2) == 1);
  o[1].in_flight = 1, o[2].in_flight = 1;
  CHECK(s->choose(o, 3, 2) == 0);  // nothing timed yet: undivided
}

TEST_CASE("climb starts at the natural first cut and stops at a minimum with fewer trials") {
  auto s = unicl::make_strategy("climb");
  // Undivided, then factors 1..16; best at factor 6.
  std::vector<double> cost;
  for (int f = 0; f <= 16; ++f) cost.push_back(f == 0 ? 20 : 1 + (f - 6) * (f - 6) * 0.1);
  auto chosen = run(*s, cost, 40, 4);
  CHECK(chosen[0] == 4);  // four devices: factor 4 first
  CHECK(chosen[1] == 0);  // then the launch undivided
  std::set<size_t> tried(chosen.begin(), chosen.end());
  CHECK(tried.size() < cost.size() / 2);  // far fewer than each-once's 17
  size_t at_best = std::count(chosen.begin() + 10, chosen.end(), size_t{6});
  CHECK(at_best >= 25);
}

TEST_CASE("climb keeps the launch whole when one device can run at a time, trying a factor only rarely") {
  auto s = unicl::make_strategy("climb");
  CHECK(s->choose(options({-1, -1, -1, -1}, 2), 0, 2) == 2);  // two devices: the start
  CHECK(s->choose(options({-1, -1, -1, -1}, 2), 0, 1) == 0);  // one at a time: undivided
  auto chosen = run(*s, {10, 5, 6, 7}, 200, 1);          // dividing would pay, but nothing says so
  std::vector<size_t> divided;
  for (size_t l = 0; l < chosen.size(); ++l)
    if (chosen[l] != 0) divided.push_back(l);
  CHECK(divided.front() == 119);  // the fourth re-measure, the first that may try a divided factor
  CHECK(chosen.back() == 1);      // which then holds
}

TEST_CASE("climb walks across a plateau of equal options to a better one beyond it") {
  auto s = unicl::make_strategy("climb");
  // Undivided is best; every divided factor costs the same (two devices on
  // the same cores).
  const std::vector<double> cost = {17, 31, 31, 31.2, 31, 31.1, 31};
  auto chosen = run(*s, cost, 20, 2);
  CHECK(chosen[0] == 2);
  size_t undivided = std::count(chosen.begin() + 8, chosen.end(), size_t{0});
  CHECK(undivided >= 10);
}

TEST_CASE("climb skips the undivided trial when the kernel models show it far slower than the start") {
  auto s = unicl::make_strategy("climb");
  auto o = options({-1, -1, 10, -1, -1}, 2);  // the start (factor 2, two devices) took 10
  o[0].predicted = 20;                      // the kernel alone, undivided, on its fastest device
  CHECK(s->choose(o, 1, 2) != 0);
  o[0].predicted = 12;  // not far slower: tried
  CHECK(s->choose(o, 1, 2) == 0);
  o[0].predicted = -1;  // unknown: tried
  CHECK(s->choose(o, 1, 2) == 0);
}
