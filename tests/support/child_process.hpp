// Runs a program in a child process with a changed environment, captures its
// standard output and error, and optionally ends it after a time limit. The
// tests need this because UniCL discovers its vendors once per process, so
// every discovery scenario needs a process of its own; the benchmarks, for
// runtimes that must not share the process (their own OCL_ICD_VENDORS) or
// that may hang or crash, and for plot.py.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace child_process {

// Environment changes for a child: a value sets the variable, nullopt
// removes it. Everything else is inherited.
using EnvChanges = std::map<std::string, std::optional<std::string>>;

struct Result {
  int exit_code = -1;  // -1 when it could not start, died of a signal or timed out
  int signal = 0;      // the signal that ended it, if one did
  bool timed_out = false;
  double time_limit = 0;  // seconds; 0: none
  std::string start_error;  // why it could not start; empty when it did
  std::string out;
  std::string err;

  bool ok() const { return exit_code == 0; }
  // When not ok: could not start, timeout, signal or exit status, and the end of its stderr.
  std::string why() const;
  std::vector<std::string> out_lines() const { return lines(out); }
  std::vector<std::string> err_lines() const { return lines(err); }
  // The non-empty lines of `text`.
  static std::vector<std::string> lines(const std::string &text);
};

// Runs argv[0] (looked up on PATH when it has no '/') with stdin from
// /dev/null. With `timeout_seconds` > 0 the child runs in a process group of
// its own, and the whole group (threads and helpers it started) is killed
// when the limit passes.
Result run(const std::vector<std::string> &argv, const EnvChanges &env = {}, double timeout_seconds = 0);

// Runs this program again with `args`.
Result run_self(const std::vector<std::string> &args, const EnvChanges &env = {}, double timeout_seconds = 0);

// The path of this program.
std::string self_executable();

}  // namespace child_process
