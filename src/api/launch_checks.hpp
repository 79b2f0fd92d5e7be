// The work-group checks of clEnqueueNDRangeKernel, made by UniCL for
// launches in contexts of several devices: there the vendor sees a launch
// only once it is planned, too late to refuse it, and the launch may go to
// any device its kernel exists on, so it must fit each of them.
#pragma once
#include <CL/cl.h>

#include "core/kernel.hpp"

namespace unicl::api {

// Reads what the device of `slot` allows launches of kernel `k` (its
// vendor kernel made): WorkGroupLimits.
WorkGroupLimits read_limits(const _cl_kernel &k, size_t slot);

// CL_SUCCESS, or what the devices' vendors would answer: local sizes past
// a device's per-dimension limit (CL_INVALID_WORK_ITEM_SIZE); a work-group
// larger than the kernel allows, other than the one it requires, or not
// dividing the global size where the program may not have partial groups
// (CL_INVALID_WORK_GROUP_SIZE).
// `slot`: the queue's device; npos for a scheduled queue, whose launch may
// go to any device the kernel exists on.
cl_int check_work_groups(const _cl_kernel &k, size_t slot, cl_uint dim, const size_t *global, const size_t *local);

}  // namespace unicl::api
