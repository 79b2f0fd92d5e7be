// A performance model's prediction of a command's run time on a device, as
// the models give it and as a task caches it for the engine.
#pragma once
#include <cstddef>
#include <limits>

namespace unicl {

// `seconds`: negative when the models know nothing of it (NaN in a task's
// cache: not looked up yet); `samples`: the measurements behind it.
struct ExecPrediction {
  // A model is calibrated once it holds this many samples; until then it
  // is the fastest of them, and the policies and the divider give the
  // device runs that correct it.
  static constexpr size_t kCalibrationSamples = 3;
  double seconds = std::numeric_limits<double>::quiet_NaN();
  size_t samples = 0;
  bool calibrated() const { return samples >= kCalibrationSamples; }
};

}  // namespace unicl
