// Runs one hidden test case of the current executable in a child process
// with a time limit, for scenarios that may hang inside a vendor: a hang
// then fails one check instead of stopping the whole run.
#pragma once
#include <string>

#include "child_process.hpp"

namespace cltest {

inline std::string self_executable() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("cannot find own executable");
  return std::string(buf, static_cast<size_t>(n));
}

struct IsolatedRun {
  ChildResult child;
  bool timed_out() const { return child.exit_code == 124 || child.signal == SIGKILL; }
  bool passed() const { return child.exit_code == 0; }
};

// `test_name` is the exact name of a hidden ("[.]") test case.
inline IsolatedRun run_isolated(const std::string &test_name, int seconds) {
  IsolatedRun r;
  r.child = run_child({"timeout", "-s", "KILL", std::to_string(seconds), self_executable(), test_name}, {});
  return r;
}

}  // namespace cltest
