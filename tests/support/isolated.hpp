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

// Runs the hidden ("[.]") test case named exactly `test_name` in a child
// with the environment changed by `env`. A name that matches no test case
// fails the child: Catch would run nothing and pass (a comma in a name
// splits it into two names that match nothing).
inline child_process::Result run_hidden(const std::string &test_name, const child_process::EnvChanges &env,
                                        double seconds) {
  return child_process::run_self({test_name, "--warn", "NoTests"}, env, seconds);
}

// `test_name` is the exact name of a hidden ("[.]") test case.
inline IsolatedRun run_isolated(const std::string &test_name, int seconds) {
  return {run_hidden(test_name, {}, seconds)};
}

}  // namespace cltest
