// The granularity layer as the core sees it: installed into the runtime at
// start-up (icd/startup.cpp), it runs the launches of kernels that carry a
// divide function (core/division.hpp) and learns their factors, keeping the
// times in the performance models the scheduling layer also uses.
#pragma once
#include <memory>

namespace unicl {

class Runtime;
class PerfModels;

void install_granularity(Runtime &rt, std::shared_ptr<PerfModels> models);

}  // namespace unicl
