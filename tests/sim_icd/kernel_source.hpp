// Kernel signatures read from OpenCL C source text. The simulator never
// compiles anything; it only needs the kernel names and, per parameter, what
// clGetKernelArgInfo reports and how big a clSetKernelArg value must be.
#pragma once

#include <string>
#include <vector>

#include "cl.hpp"

namespace sim {

struct KernelParam {
  std::string name;
  std::string type_name;  // as written, qualifiers removed, "*" appended for pointers: "float*"
  cl_kernel_arg_address_qualifier address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;
  cl_kernel_arg_type_qualifier qualifiers = CL_KERNEL_ARG_TYPE_NONE;
  bool pointer = false;
  size_t size = 0;  // the clSetKernelArg size a private argument must have; 0: unknown, any size
  bool is_buffer() const {
    return pointer && (address == CL_KERNEL_ARG_ADDRESS_GLOBAL || address == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  }
};

struct KernelSignature {
  std::string name;
  std::vector<KernelParam> params;
};

// Every `__kernel`/`kernel` function defined in the source, in order of
// appearance. Comments, preprocessor lines and __attribute__((...)) are
// skipped; macros are not expanded.
std::vector<KernelSignature> scan_kernels(const std::string &source);

}  // namespace sim
