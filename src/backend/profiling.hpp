// Reading when a vendor command ran, from its event's profiling info.
#pragma once
#include "backend/cl_headers.hpp"

namespace unicl {

// START and END of vendor event `e`, a finished command of a profiled queue,
// in the device's clock (nanoseconds). False when the vendor does not give
// both, or gives an END before the START: there is no time to use then.
bool profiling_times(cl_event e, cl_ulong &start, cl_ulong &end);

}  // namespace unicl
