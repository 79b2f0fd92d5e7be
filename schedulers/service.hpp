// The scheduling layer as the core sees it: installed into the runtime at
// start-up (icd/startup.cpp), it makes each multi-device context's engine
// and owns the performance models every engine shares.
#pragma once

namespace unicl {

class Runtime;

void install_scheduling(Runtime &rt);

}  // namespace unicl
