// The composition root: the layers above the core (the scheduling layer;
// later granularity and cluster) register with the runtime here, once,
// before the loader is handed a platform. The core never names them.
#pragma once

namespace unicl {

void start_runtime();

}  // namespace unicl
