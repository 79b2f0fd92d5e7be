// A program's kernel analysis: what each kernel of a program built from
// source touches (access/kernel_access.hpp), found by the analyser process
// (core/analyzer_process.hpp) on the runtime's analysis thread while the
// vendors build. Launches made before it ends run as they would without it;
// the build waits for it only as long as a small part of its own time.
#pragma once
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "access/kernel_access.hpp"

namespace unicl {

class ProgramAnalysis {
 public:
  // Starts analysing `source` as built with each of `builds` (options):
  // what a kernel touches is what it touches in any of them.
  static std::shared_ptr<ProgramAnalysis> start(std::string source, std::vector<std::string> builds);

  // What kernel `name` touches; null while the analysis runs, and when it
  // failed or found no such kernel.
  std::shared_ptr<const access::KernelAccess> kernel(const std::string &name) const;
  // Waits for the end of the analysis, at most `limit`; whether it ended.
  bool wait_for(std::chrono::nanoseconds limit) const;
  // Each kernel's verdict for people (`unicl analyze`'s), or why there is
  // none; waits for the end of the analysis.
  std::string verdicts() const;

 private:
  void run(const std::string &source, const std::vector<std::string> &builds);

  mutable std::mutex mutex_;
  mutable std::condition_variable ended_;
  bool done_ = false;
  std::string failure_;  // why there is no analysis
  std::map<std::string, std::shared_ptr<const access::KernelAccess>> kernels_;
};

}  // namespace unicl
