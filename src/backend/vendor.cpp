#include "backend/vendor.hpp"

#include <cstdio>

namespace unicl {

unsigned parse_cl_version(const std::string &s) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(s.c_str(), "OpenCL %u.%u", &major, &minor) != 2) return 0;
  return major * 100 + minor * 10;
}

}  // namespace unicl
