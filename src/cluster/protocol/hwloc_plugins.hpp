// hwloc's OpenCL and GL plugins, kept out of the processes of a UniCL
// cluster job. Open MPI's hwloc, inside MPI_Init (of the program and of the
// daemon a spawn starts, which inherits its environment), would load them:
// the OpenCL plugin calls clGetPlatformIDs, hence the ICD loader and UniCL,
// from inside UniCL's own discovery. hwloc reads which plugins to skip only
// from its environment (HWLOC_PLUGINS_BLACKLIST), once, when it first loads
// its plugins.
#pragma once
#include <string>

namespace unicl::cluster {

inline constexpr const char *kHwlocBlacklistVariable = "HWLOC_PLUGINS_BLACKLIST";

// The value of HWLOC_PLUGINS_BLACKLIST that keeps both plugins out, given
// its value now (null: unset): that value with what it lacks appended;
// empty when it already names both.
std::string hwloc_blacklist_with_ours(const char *now);

}  // namespace unicl::cluster
