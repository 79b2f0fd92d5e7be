// Exclusive mode: the ICD loader sees a folder holding only unicl.icd, and
// UniCL itself reads the real vendors from UNICL_VENDORS, so programs see
// exactly one platform.
#pragma once
#include <optional>
#include <string>

namespace unicl_tool {

struct ExclusiveOptions {
  std::optional<std::string> vendors;  // --vendors: what UniCL should load
  std::optional<std::string> log;      // --log: UNICL_LOG for the program
};

// Whether this tool is the one in the build tree (else it is installed).
bool from_build_tree();

// The folder holding only unicl.icd: the build tree's when this tool runs
// from the build tree, the installed one otherwise.
std::string exclusive_folder();

// Sets OCL_ICD_VENDORS, UNICL_VENDORS and UNICL_LOG for exclusive mode and
// drops OCL_ICD_FILENAMES (the loader would load those libraries beside
// UniCL). Returns whether anything changed. Throws std::runtime_error when
// the exclusive folder is missing.
bool enter_exclusive_mode(const ExclusiveOptions &options);

// The vendors exclusive mode hands UniCL when --vendors is not given: the
// user's UNICL_VENDORS if set, else what the loader would have read (their
// OCL_ICD_FILENAMES and OCL_ICD_VENDORS, else /etc/OpenCL/vendors).
std::string default_vendors(const std::string &exclusive);

}  // namespace unicl_tool
