#include "backend/launch_overlap.hpp"

#include <cstdlib>
#include <string>

#include "backend/vendor_info.hpp"

namespace unicl {

bool overlapping_launches_safe(cl_device_id vendor_device) {
  // PoCL names itself in CL_DEVICE_VERSION ("OpenCL 3.0 PoCL HSTR: ...")
  // and gives its release as CL_DRIVER_VERSION ("3.1+debian"); a node's
  // device answers its node's.
  if (vendor_text(vendor_device, CL_DEVICE_VERSION).find("PoCL") == std::string::npos) return true;
  if ((vendor_value<cl_device_type>(vendor_device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) == 0) return true;
  const std::string release = vendor_text(vendor_device, CL_DRIVER_VERSION);
  return std::strtol(release.c_str(), nullptr, 10) >= 6;  // the cache counts per entry since 6.0
}

}  // namespace unicl
