// The kernel analysis from end to end: an OpenCL C program's source and
// build options in, what each of its kernels touches out
// (access/kernel_access.hpp).
#pragma once
#include <string>
#include <vector>

#include "access/kernel_access.hpp"

namespace unicl::analysis {

struct Analysis {
  bool compiled = false;  // false: the source did not compile here; `log` says why
  std::string log;
  std::vector<access::KernelAccess> kernels;
};

Analysis analyze(const std::string &source, const std::string &options);

}  // namespace unicl::analysis
