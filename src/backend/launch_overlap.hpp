// Whether a vendor device may run launches of one kernel side by side.
#pragma once
#include "backend/cl_headers.hpp"

namespace unicl {

// False for a device whose vendor aborts the process when launches of one
// kernel that differ in global offset or grid size overlap on it: the CPU
// devices of PoCL before 6.0. They cache a kernel's compiled work-group
// function per work-group size, global-offset class and grid size, count
// each launch on the entry it used, and release the count on the first
// entry of that work-group size: with two entries in use at once, one
// entry's count reaches zero early and an assertion ends the process
// (pthread device, three threads or more). Pieces of a divided launch are
// such launches; the application's own launches are as it wrote them.
bool overlapping_launches_safe(cl_device_id vendor_device);

}  // namespace unicl
