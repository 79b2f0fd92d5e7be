// The scheduling layer as the core sees it: installed into the runtime at
// start-up (icd/startup.cpp), it makes each multi-device context's engine
// on the performance models every engine (and the granularity layer) shares.
#pragma once
#include <memory>

namespace unicl {

class Runtime;
class PerfModels;

void install_scheduling(Runtime &rt, std::shared_ptr<PerfModels> models);

}  // namespace unicl
