#include "backend/profiling.hpp"

#include "backend/vendor.hpp"

namespace unicl {

bool profiling_times(cl_event e, cl_ulong &start, cl_ulong &end) {
  const cl_icd_dispatch &d = vendor_table(e);
  return d.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS &&
         d.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS &&
         end >= start;
}

}  // namespace unicl
