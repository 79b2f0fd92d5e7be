// Shares of a divided launch for devices whose model of the kernel is not
// calibrated yet: at least one work-group each. One slow first run (a cold
// cache, a loaded machine) can make a model look dozens of times slower; a
// proportional share then rounds to nothing, and a device that never runs
// the kernel never corrects its model.
#pragma once
#include <cstddef>
#include <vector>

namespace unicl {

// Per device, whether its model of the kernel is `calibrated`
// (ExecPrediction::calibrated) and `groups` its share in work-groups; each
// device not calibrated and with no group gets one, taken from the device
// with the most (while one has two or more). Whether any was given one.
bool give_uncalibrated_a_group(const std::vector<bool> &calibrated, std::vector<size_t> &groups);

}  // namespace unicl
