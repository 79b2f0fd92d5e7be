// The kernel analyser (analysis/unicl_analyze.cpp) as UniCL runs it: a
// process of its own, started for one program's source, answering with
// what each kernel touches. Never fatal to the application: an analyser
// that is missing, crashes, or runs past its time leaves the program
// without an analysis (its kernels then run whole), and nothing of the
// application's process changes (no signal handler, no environment
// variable, no descriptor left open; a helper that dies early raises no
// SIGPIPE).
#pragma once
#include <chrono>
#include <optional>
#include <string>

namespace unicl {

// The analyser's path: beside libunicl.so in the build tree
// (analysis/unicl-analyze), else where it was installed.
std::string analyzer_path();

// Runs the analyser on `source` built with `options`; its answer (the
// kernels' text form, access/kernel_access.hpp), or nullopt with the reason
// in `why`.
std::optional<std::string> run_analyzer(const std::string &source, const std::string &options,
                                        std::chrono::milliseconds timeout, std::string &why);

}  // namespace unicl
