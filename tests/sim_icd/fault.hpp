// Injected failures (README.md, "Injected failures"): UNICL_SIM_FAIL makes
// chosen entry points fail with a chosen error code once they have
// succeeded a given number of times, so that the error paths of a caller
// (UniCL) can be tested against a vendor that fails where real ones rarely do;
// or take long (a delay before the call runs), so that a caller can be
// shown not to hold others up while it is inside a vendor call.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cl.hpp"

namespace sim {

// An implemented entry point: its position in SIM_IMPLEMENTED (api.hpp).
// Not an enum of their names: the tests see OpenCL 1.2 headers, where the
// slot types of later entry points, and so api.hpp, do not exist.
using Entry = std::size_t;

const char *entry_name(Entry e);

struct FaultRule {
  Entry entry;
  cl_int error;             // what the call returns (or sets in errcode_ret) instead of running; CL_SUCCESS: a delay
  std::uint64_t after = 0;  // successful calls let through first
  std::uint64_t delay_ms = 0;  // error CL_SUCCESS: how long the call waits before it runs
};

// Rules "entry:error[:after=N]" or "entry:delay=MS[:after=N]", separated by
// commas; `error` is a CL_* error name or a negative number. Throws std::runtime_error on anything
// else (unknown entry point or error, an entry point given twice).
std::vector<FaultRule> parse_faults(const std::string &spec);

// The rules in force and how many calls each has let through.
class Faults {
 public:
  Faults() = default;
  explicit Faults(const std::vector<FaultRule> &rules);

  // The error a call of `e` returns now instead of running, or CL_SUCCESS
  // (after the rule's delay, if it is one).
  cl_int injected(Entry e) {
    Armed *a = e < armed_.size() ? armed_[e].get() : nullptr;
    return a && a->passed.load(std::memory_order_relaxed) >= a->rule.after ? fire(*a) : CL_SUCCESS;
  }
  // A call of `e` that was let through succeeded. Calls already under way
  // when the rule's count is reached still run: with concurrent callers a
  // few more than `after` may succeed.
  void succeeded(Entry e) {
    if (Armed *a = e < armed_.size() ? armed_[e].get() : nullptr) a->passed.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  struct Armed {
    FaultRule rule;
    std::atomic<std::uint64_t> passed{0};
    std::atomic<bool> announced{false};
  };
  static cl_int fire(Armed &a);
  std::vector<std::unique_ptr<Armed>> armed_;  // by entry point; empty without rules
};

// UNICL_SIM_FAIL's rules (none when it is unset or empty), or nothing when
// it is invalid; the reason goes to stderr.
std::optional<std::vector<FaultRule>> load_faults_from_env();

}  // namespace sim
