// Finding vendor platforms the way ICD loaders do, without the loader.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend/cl_headers.hpp"

namespace unicl {

// One platform of a vendor library: plain data for the runtime to wrap.
struct VendorPlatform {
  std::string library;
  std::string name;
  cl_platform_id platform;
  unsigned version;  // OpenCL version of the platform, e.g. 300
};

// Receives discovery messages with their verbosity (1: a vendor skipped,
// 2: details); the runtime decides what to print.
using DiscoveryLog = std::function<void(int level, const std::string &message)>;

// Where the vendors are listed, as the caller read the environment: each
// list is colon-separated. Discovery reads no variable itself.
struct VendorSources {
  std::optional<std::string> unicl_vendors;  // UNICL_VENDORS: when set, the whole list
  std::string icd_filenames;                 // OCL_ICD_FILENAMES: libraries
  std::string icd_vendors;                   // OCL_ICD_VENDORS
  // Libraries loaded after the lists, whatever they say (UniCL's node
  // client in an MPI job).
  std::vector<std::string> extra_libraries;
  // File names never loaded (a node must not serve UniCL itself).
  std::vector<std::string> skip_libraries;
};

// The non-empty entries of a colon-separated list.
std::vector<std::string> vendor_list_entries(const std::string &list);

// Library names or paths of every vendor to load, in order, deduplicated:
// UNICL_VENDORS when set, otherwise OCL_ICD_FILENAMES, OCL_ICD_VENDORS and
// /etc/OpenCL/vendors; then the extra libraries; none whose file name is
// one of the skipped. Each entry of UNICL_VENDORS / OCL_ICD_VENDORS may be
// a folder of .icd files (read in name order), an .icd file or a library.
std::vector<std::string> vendor_library_names(const VendorSources &sources);

// dlopens each vendor (skipping UniCL itself by resolved path) and returns
// its platforms. Failures are logged and skipped.
std::vector<VendorPlatform> load_vendor_platforms(const VendorSources &sources, const DiscoveryLog &log);

}  // namespace unicl
