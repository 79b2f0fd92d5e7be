#include "core/image_desc.hpp"

#include "core/composite_device.hpp"

#include "backend/vendor_info.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

bool is_image_type(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D:
      return true;
    default:
      return false;
  }
}

size_t device_limit(cl_device_id d, cl_device_info param) {
  if (!d->members.empty()) {  // the composite: the limit that holds on each member
    size_t v = 0;
    return composite_info(*d, param, sizeof v, &v, nullptr) == CL_SUCCESS ? v : 0;
  }
  return vendor_value<size_t>(d->vendor, param);
}

// True when `desc`'s dimensions fit the limits of device `d`.
bool fits(cl_device_id d, const cl_image_desc &desc) {
  auto within = [&](size_t value, cl_device_info param) { return value <= device_limit(d, param); };
  switch (desc.image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
      return within(desc.image_width, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return within(desc.image_width, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return within(desc.image_width, CL_DEVICE_IMAGE2D_MAX_WIDTH) &&
             within(desc.image_array_size, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
    case CL_MEM_OBJECT_IMAGE2D:
      return within(desc.image_width, CL_DEVICE_IMAGE2D_MAX_WIDTH) &&
             within(desc.image_height, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return within(desc.image_width, CL_DEVICE_IMAGE2D_MAX_WIDTH) &&
             within(desc.image_height, CL_DEVICE_IMAGE2D_MAX_HEIGHT) &&
             within(desc.image_array_size, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
    default:
      return within(desc.image_width, CL_DEVICE_IMAGE3D_MAX_WIDTH) &&
             within(desc.image_height, CL_DEVICE_IMAGE3D_MAX_HEIGHT) &&
             within(desc.image_depth, CL_DEVICE_IMAGE3D_MAX_DEPTH);
  }
}

}  // namespace

cl_int check_image_desc(const _cl_context &ctx, const cl_image_desc &desc, size_t element_size, const void *host_ptr) {
  const cl_mem_object_type t = desc.image_type;
  if (!is_image_type(t) || desc.num_mip_levels != 0 || desc.num_samples != 0) return refuse(CL_INVALID_IMAGE_DESCRIPTOR, "image_type is not an image type, or mip levels or samples are asked");
  bool has_height = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  bool is_array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (desc.image_width == 0 || (has_height && desc.image_height == 0) ||
      (t == CL_MEM_OBJECT_IMAGE3D && desc.image_depth == 0) || (is_array && desc.image_array_size == 0))
    return refuse(CL_INVALID_IMAGE_DESCRIPTOR, "a size the image type needs (width, height, depth, array size) is 0");
  if ((t == CL_MEM_OBJECT_IMAGE1D_BUFFER) != (desc.buffer != nullptr) && t != CL_MEM_OBJECT_IMAGE2D)
    return refuse(CL_INVALID_IMAGE_DESCRIPTOR, "a buffer is given for an image type that takes none, or none for CL_MEM_OBJECT_IMAGE1D_BUFFER");
  // Pitches describe the application's memory, so they need a host pointer
  // (images made from a buffer follow the buffer's layout instead).
  if (!desc.buffer) {
    if (!host_ptr && (desc.image_row_pitch != 0 || desc.image_slice_pitch != 0)) return refuse(CL_INVALID_IMAGE_DESCRIPTOR, "a row or slice pitch without host_ptr");
    size_t row = desc.image_width * element_size;
    if (desc.image_row_pitch != 0 && (desc.image_row_pitch < row || desc.image_row_pitch % element_size != 0))
      return refuse(CL_INVALID_IMAGE_DESCRIPTOR, "image_row_pitch is below a row's bytes or not a multiple of the element size");
  }
  // A composite context's application sees one device, whose limits hold
  // on every member.
  if (ctx.composite) {
    if (fits(ctx.composite.get(), desc)) return CL_SUCCESS;
    return refuse(CL_INVALID_IMAGE_SIZE, "the image is larger than the composite device allows");
  }
  for (const auto &s : ctx.slots)
    if (fits(s.device.get(), desc)) return CL_SUCCESS;
  return refuse(CL_INVALID_IMAGE_SIZE, "the image is larger than any device of the context allows");
}

}  // namespace unicl
