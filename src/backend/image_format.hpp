// Bytes per pixel of an image format: what UniCL needs to lay out an
// image's bytes in host memory (the core's host copies, the node client's
// packed transfers).
#pragma once
#include "backend/cl_headers.hpp"

namespace unicl {
// Bytes per pixel of an image format; 0 for an invalid format.
size_t image_element_size(const cl_image_format &f);
}
