// The kernel analysis on the corpus (tests/kernel_corpus): for each kernel,
// the modes of its arguments, and for each launch the verdict at that launch
// (the dimension and each argument's window, or a reason to run whole),
// against what its file says. The analysis runs in this process, as
// unicl-analyze runs it; the launch's verdict is the one libunicl.so takes.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>

#include "access/launch_split.hpp"
#include "analyze.hpp"
#include "kernel_corpus.hpp"

#ifndef CORPUS_DIR
#error "CORPUS_DIR: the corpus folder, set by the build"
#endif

namespace {

const char *mode_text(uint8_t m) {
  static const char *kText[] = {"-", "r", "w", "rw"};
  return kText[m & 3];
}

// The launch as the analysis sees it: each buffer its own memory.
std::vector<unicl::access::LaunchArg> launch_args(const corpus::Case &c) {
  std::vector<unicl::access::LaunchArg> out(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i) {
    const corpus::Arg &a = c.args[i];
    if (a.kind == corpus::Arg::Kind::Scalar) out[i].value = a.bytes;
    if (a.kind == corpus::Arg::Kind::Buffer || a.kind == corpus::Arg::Kind::Image) {
      out[i].buffer = &a;
      out[i].size = a.bytes.size();
    }
  }
  return out;
}

unicl::access::LaunchShape shape_of(const corpus::Case &c) {
  unicl::access::LaunchShape s;
  s.dim = c.dim;
  for (int i = 0; i < 3; ++i) {
    s.global[i] = c.global[i];
    s.offset[i] = c.offset[i];
    s.local[i] = c.local_given ? c.local[i] : 0;
  }
  return s;
}

std::string windows_text(const std::vector<corpus::Window> &ws) {
  std::string out;
  for (auto &w : ws)
    out += std::to_string(w.arg) + ":" + std::to_string(w.offset) + ":" + std::to_string(w.stride) + ":" +
           std::to_string(w.size) + " ";
  return out;
}

}  // namespace

TEST_CASE("the analysis finds each corpus kernel's modes and verdicts", "[analysis]") {
  // -I folders of the corpus are relative to it, as a program's are to the
  // application's working folder.
  REQUIRE(chdir(CORPUS_DIR) == 0);
  const auto kernels = corpus::load(".");
  REQUIRE(kernels.size() >= 60);
  for (const corpus::Kernel &k : kernels) {
    DYNAMIC_SECTION(k.name) {
      unicl::analysis::Analysis a = unicl::analysis::analyze(k.source, k.build);
      INFO(a.log);
      REQUIRE(a.compiled);
      REQUIRE(a.kernels.size() == 1);
      const unicl::access::KernelAccess &found = a.kernels[0];
      CHECK(found.name == k.name);
      std::vector<std::string> modes;
      for (auto &p : found.params) modes.push_back(mode_text(p.modes));
      CHECK(modes == k.modes);
      for (size_t i = 0; i < k.cases.size(); ++i) {
        const corpus::Case &c = k.cases[i];
        INFO("launch " << i + 1);
        auto verdict = unicl::access::split_at_launch(found, shape_of(c), launch_args(c));
        if (c.split_dim) {
          INFO(verdict.reason);
          REQUIRE(verdict.split);
          CHECK(verdict.split->dim == *c.split_dim);
          std::vector<corpus::Window> got;
          for (auto &w : verdict.split->windows) got.push_back({w.arg, w.offset, w.stride, w.size});
          CHECK(windows_text(got) == windows_text(c.windows));
        } else {
          CHECK_FALSE(verdict.split);
          CHECK_THAT(verdict.reason, Catch::Contains(c.whole_words));
        }
      }
    }
  }
}
