// Validation of image descriptors. UniCL checks them itself so that every
// vendor behind it reports the specification's error codes (vendors differ:
// PoCL answers a zero width with CL_INVALID_BUFFER_SIZE, for one).
#pragma once
#include "core/context.hpp"

namespace unicl {

// The error clCreateImage must give for `desc` in `ctx`, or CL_SUCCESS.
// `element_size` is the format's bytes per pixel.
cl_int check_image_desc(const _cl_context &ctx, const cl_image_desc &desc, size_t element_size, const void *host_ptr);

}  // namespace unicl
