#include "core/program_analysis.hpp"

#include "access/describe.hpp"
#include "core/analyzer_process.hpp"
#include "core/refusal.hpp"
#include "core/runtime.hpp"

namespace unicl {
namespace {

// Longer than any front end takes on a real source (a second or two for
// the largest seen); a hung analyser costs its program only this.
constexpr std::chrono::seconds kAnalyzerTimeout{60};

}  // namespace

std::shared_ptr<ProgramAnalysis> ProgramAnalysis::start(std::string source, std::vector<std::string> builds) {
  auto analysis = std::make_shared<ProgramAnalysis>();
  Runtime::get().analysis_queue().post(
      [analysis, source = std::move(source), builds = std::move(builds)] { analysis->run(source, builds); });
  return analysis;
}

namespace {

// The kernels of one build's analysis, by name; nullopt with `why`.
std::optional<std::map<std::string, access::KernelAccess>> analyse_build(const std::string &source,
                                                                        const std::string &options, std::string &why) {
  auto answer = run_analyzer(source, options, kAnalyzerTimeout, why);
  if (!answer) return std::nullopt;
  auto kernels = access::parse_kernels(*answer);
  if (!kernels) {
    why = "the analyser's answer is malformed";
    return std::nullopt;
  }
  std::map<std::string, access::KernelAccess> out;
  for (auto &k : *kernels) {
    std::string name = k.name;  // before k moves
    out.emplace(std::move(name), std::move(k));
  }
  return out;
}

}  // namespace

void ProgramAnalysis::run(const std::string &source, const std::vector<std::string> &builds) {
  std::string why;
  std::optional<std::map<std::string, access::KernelAccess>> merged;
  for (const std::string &options : builds) {
    auto kernels = analyse_build(source, options, why);
    if (!kernels) {
      merged.reset();
      break;
    }
    if (!merged) {
      merged = std::move(kernels);
      continue;
    }
    // A kernel analysed in every build: what it touches in any of them.
    for (auto it = merged->begin(); it != merged->end();) {
      auto other = kernels->find(it->first);
      auto both = other == kernels->end() ? std::nullopt : access::merge(it->second, other->second);
      if (both) it->second = std::move(*both), ++it;
      else it = merged->erase(it);
    }
  }
  std::map<std::string, std::shared_ptr<const access::KernelAccess>> found;
  if (merged)
    for (auto &[name, k] : *merged) found[name] = std::make_shared<access::KernelAccess>(std::move(k));
  auto &rt = Runtime::get();
  if (rt.log_level() >= kLogRefusals) {
    if (!why.empty()) rt.log(kLogRefusals, "kernel analysis: none, so every kernel of the program runs whole: %s", why.c_str());
    for (auto &[name, k] : found) rt.log(kLogRefusals, "kernel analysis: %s", access::describe(*k).c_str());
  }
  std::lock_guard lock(mutex_);
  kernels_ = std::move(found);
  failure_ = why;
  done_ = true;
  ended_.notify_all();
}

std::shared_ptr<const access::KernelAccess> ProgramAnalysis::kernel(const std::string &name) const {
  std::lock_guard lock(mutex_);
  auto found = kernels_.find(name);
  return found == kernels_.end() ? nullptr : found->second;
}

bool ProgramAnalysis::wait_for(std::chrono::nanoseconds limit) const {
  std::unique_lock lock(mutex_);
  return ended_.wait_for(lock, limit, [this] { return done_; });
}

std::string ProgramAnalysis::verdicts() const {
  std::unique_lock lock(mutex_);
  ended_.wait(lock, [this] { return done_; });
  if (!failure_.empty()) return "no analysis: " + failure_ + "\n";
  std::string out;
  for (auto &[name, k] : kernels_) out += access::describe(*k);
  return out;
}

}  // namespace unicl
