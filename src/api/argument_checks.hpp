// Checks of argument values several entry points share.
#pragma once
#include "backend/cl_headers.hpp"

namespace unicl {

// Map flags: read and write in any mix, or CL_MAP_WRITE_INVALIDATE_REGION
// alone.
inline bool valid_map_flags(cl_map_flags f) {
  if (f & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) return false;
  return !((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)));
}

// A fill pattern must be a power of two from 1 to 128 bytes.
inline bool valid_pattern(const void *pattern, size_t size) {
  return pattern && size >= 1 && size <= 128 && (size & (size - 1)) == 0;
}

}  // namespace unicl
