// Runs this benchmark again in a child process with a changed environment
// and a time limit. Used for runtimes that must not share the process (they
// need their own OCL_ICD_VENDORS) or that may hang or crash: a failing child
// costs one "n/a" cell, not the whole benchmark.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace bench {

struct ChildResult {
  bool ok = false;     // exited with status 0 within the time limit
  std::string out;     // its standard output
  std::string why;     // when not ok: timeout, signal or exit status, and the end of its stderr
};

ChildResult run_self(const std::vector<std::string> &args, const std::map<std::string, std::string> &env,
                     double timeout_seconds);

}  // namespace bench
