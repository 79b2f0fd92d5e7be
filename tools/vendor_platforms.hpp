// The vendor platforms behind UniCL's devices. UniCL shows every device on
// its one platform; to say which vendor platform a device comes from, the
// tool loads the same vendor libraries UniCL loads and lists their devices.
#pragma once
#include <CL/cl.h>

#include <string>
#include <vector>

namespace unicl_tool {

struct VendorDevice {
  std::string platform;  // vendor platform name, e.g. "Portable Computing Language"
  std::string library;   // the vendor ICD library
  std::string name;      // CL_DEVICE_NAME
  cl_uint vendor_id = 0;
};

// Every device of every vendor platform named by `vendors` (a UNICL_VENDORS
// list: folders of .icd files, .icd files or libraries, colon-separated),
// in UniCL's order. UniCL itself is skipped.
std::vector<VendorDevice> list_vendor_devices(const std::string &vendors);

}  // namespace unicl_tool
