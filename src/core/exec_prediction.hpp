// A performance model's prediction of a command's run time on a device, as
// the models give it and as a task caches it for the engine.
#pragma once
#include <cstddef>
#include <limits>

namespace unicl {

// `seconds`: negative when the models know nothing of it (NaN in a task's
// cache: not looked up yet); `samples`: the measurements behind it.
struct ExecPrediction {
  double seconds = std::numeric_limits<double>::quiet_NaN();
  size_t samples = 0;
};

}  // namespace unicl
