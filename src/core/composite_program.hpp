// Programs and kernels as the composite device answers for them
// (core/composite_device.hpp): one binary holding each member's, so that a
// program that caches its binary (OpenCV, hashcat) rebuilds from it with
// clCreateProgramWithBinary; one build status and log; work-group limits
// that hold on every member.
#pragma once
#include <optional>
#include <vector>

#include "core/kernel.hpp"
#include "core/program.hpp"

namespace unicl {

// The composite binary of `p`: a header, then per member (slot order) its
// device's name and its binary.
cl_int composite_binary(_cl_program &p, std::vector<unsigned char> &out);

// The members' binaries a composite binary holds, in slot order; nullopt
// when `data` is no composite binary, or one for other devices than
// `ctx`'s members.
std::optional<std::vector<std::vector<unsigned char>>> member_binaries(const _cl_context &ctx, const unsigned char *data,
                                                                       size_t size);

// clGetProgramBuildInfo for the composite: the worst status of its members,
// their logs one after the other (each headed by its device), the
// application's options.
cl_int composite_build_info(_cl_program &p, cl_program_build_info param, size_t size, void *value, size_t *size_ret);

// clGetKernelWorkGroupInfo for the composite: the smallest work-group size,
// the largest local and private memory, what holds on every member.
cl_int composite_work_group_info(_cl_kernel &k, cl_kernel_work_group_info param, size_t size, void *value,
                                 size_t *size_ret);

}  // namespace unicl
