#pragma once
#include "backend/cl_headers.hpp"

namespace unicl {
// Bytes per pixel of an image format; 0 for an invalid format.
size_t image_element_size(const cl_image_format &f);
}
