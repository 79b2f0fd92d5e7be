// Finding vendor platforms the way ICD loaders do, without the loader.
#pragma once
#include <string>
#include <vector>

#include "../src/runtime.hpp"

namespace unicl {

// Library names or paths of every vendor to load, in order, deduplicated:
// UNICL_VENDORS when set, otherwise OCL_ICD_FILENAMES, OCL_ICD_VENDORS and
// /etc/OpenCL/vendors. Each entry of UNICL_VENDORS / OCL_ICD_VENDORS may be
// a folder of .icd files, an .icd file or a library.
std::vector<std::string> vendor_library_names();

// dlopens each vendor (skipping UniCL itself by resolved path) and returns
// its platforms. Failures are logged and skipped.
std::vector<VendorPlatform> load_vendor_platforms(Runtime &rt);

}  // namespace unicl
