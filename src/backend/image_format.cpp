#include "backend/image_format.hpp"

namespace unicl {

size_t image_element_size(const cl_image_format &f) {
  size_t channels = 0;
  switch (f.image_channel_order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_Rx: case CL_DEPTH: channels = 1; break;
    case CL_RG: case CL_RA: case CL_RGx: channels = 2; break;
    case CL_RGB: case CL_RGBx: case CL_sRGB: case CL_sRGBx: channels = 3; break;
    case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_sRGBA: case CL_sBGRA: case CL_ABGR: channels = 4; break;
    default: return 0;
  }
  switch (f.image_channel_data_type) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return channels;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
      return 2 * channels;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4 * channels;
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555: return 2;
    case CL_UNORM_INT_101010: case CL_UNORM_INT_101010_2: return 4;
    default: return 0;
  }
}

}  // namespace unicl
