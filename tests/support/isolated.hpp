// Runs one hidden test case of the current executable in a child process
// with a time limit, for scenarios that may hang inside a vendor: a hang
// then fails one check instead of stopping the whole run.
#pragma once
#include <string>

#include "scenario.hpp"

namespace cltest {

struct IsolatedRun {
  child_process::Result child;
  bool timed_out() const { return child.timed_out; }
  bool passed() const { return child.exit_code == 0; }
};

// `test_name` is the exact name of a hidden ("[.]") test case.
inline IsolatedRun run_isolated(const std::string &test_name, int seconds) {
  return {child_process::run_self({test_name}, {}, seconds)};
}

}  // namespace cltest
