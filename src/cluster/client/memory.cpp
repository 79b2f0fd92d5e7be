// The node client's memory objects: buffers, sub-buffers and images,
// checked here against what the node described of its device and posted.
// What only the node's vendor can know (that the device cannot hold one
// more buffer, say) fails the commands that use the object, as their
// event's status (CL_MEM_OBJECT_ALLOCATION_FAILURE, ...).
#include <algorithm>
#include <cstring>

#include "backend/image_format.hpp"
#include "cluster/client/objects.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
using namespace unicl::cluster;

namespace {

constexpr cl_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtr = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

// At most one bit of `group` set.
bool one_of(cl_mem_flags flags, cl_mem_flags group) {
  const cl_mem_flags f = flags & group;
  return (f & (f - 1)) == 0;
}

// The flags of a new memory object, as clCreateBuffer and clCreateImage
// check them.
bool valid_flags(cl_mem_flags flags) {
  if (flags & ~(kAccess | kHostAccess | kHostPtr)) return false;
  if (!one_of(flags, kAccess) || !one_of(flags, kHostAccess)) return false;
  return !((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

// Posts a creation whose initial bytes (`bytes`, or none) travel with it:
// inline when small, else after its batch, from a copy of rank 0's own
// (the application may reuse its memory once the call returns).
void post_with_bytes(int rank, Op op, Writer &w, const void *bytes, size_t size) {
  write_payload(w, bytes, size);
  if (!size || inline_payload(size)) {
    post(rank, op, w);
    return;
  }
  auto copy = std::make_shared<std::vector<char>>(static_cast<const char *>(bytes),
                                                  static_cast<const char *>(bytes) + size);
  post(rank, op, w, copy->data(), copy->size(), copy);
}

// The formats the node's vendor supports in `c` for `flags` (their access
// bits) and `type`, asked once.
cl_int formats_of(RemoteContext *c, cl_mem_flags flags, cl_mem_object_type type, std::vector<cl_image_format> &out) {
  const auto key = std::make_pair(flags & (kAccess | CL_MEM_KERNEL_READ_AND_WRITE), type);
  {
    std::lock_guard lock(c->formats_mutex);
    if (auto it = c->formats.find(key); it != c->formats.end()) {
      out = it->second;
      return CL_SUCCESS;
    }
  }
  Writer w;
  write(w, ImageFormats{c->id, key.first, type});
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kImageFormats, w, &reply); err != CL_SUCCESS) return err;
  auto bytes = Reader(reply).bytes();
  out.resize(bytes.size() / sizeof(cl_image_format));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(cl_image_format));
  std::lock_guard lock(c->formats_mutex);
  c->formats[key] = out;
  return CL_SUCCESS;
}

}  // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context c_handle, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, "context is NULL or not a live context of the node client");
  if (!valid_flags(flags))
    return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE,
                           "flags are not valid (unknown bits, or bits that exclude each other)");
  if (size == 0 || size > c->device->value<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE, ~cl_ulong{0}))
    return refused<cl_mem>(errcode_ret, CL_INVALID_BUFFER_SIZE,
                           "size is 0 or above the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  const bool initial = flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
  if (initial != (host_ptr != nullptr))
    return refused<cl_mem>(errcode_ret, CL_INVALID_HOST_PTR,
                           "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR, or given without them");
  if (node_lost(c->rank)) return refused<cl_mem>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *m = make_proxy<RemoteMemory>(ObjectKind::kMemory, c->rank);
  m->context = c, m->flags = flags, m->size = size;
  m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  retain(c);
  // The node's memory cannot be the application's: its initial bytes travel
  // with the request (USE_HOST_PTR is kept coherent by UniCL above, not here).
  Writer w;
  write(w, CreateBuffer{m->id, c->id, flags & ~kHostPtr, size});
  post_with_bytes(c->rank, Op::kCreateBuffer, w, host_ptr, initial ? size : 0);
  return fail(errcode_ret, CL_SUCCESS, handle(m));
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent_handle, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void *info,
                                     cl_int *errcode_ret) {
  auto *parent = remote(parent_handle);
  if (!live(parent, ObjectKind::kMemory) || parent->parent || parent->type != CL_MEM_OBJECT_BUFFER)
    return refused<cl_mem>(errcode_ret, CL_INVALID_MEM_OBJECT,
                           "buffer is not a live buffer of the node client, or is itself a sub-buffer");
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info)
    return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE,
                           "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION, or buffer_create_info is NULL");
  if ((flags & kHostPtr) || !valid_flags(flags))
    return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE,
                           "flags are not valid for a sub-buffer (host pointer bits, unknown bits, or bits that exclude each other)");
  // What the parent forbids, the sub-buffer cannot allow.
  const cl_mem_flags p = parent->flags;
  if (((p & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((p & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((p & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE, "flags allow what the parent buffer's flags forbid");
  const auto region = *static_cast<const cl_buffer_region *>(info);
  if (region.size == 0) return refused<cl_mem>(errcode_ret, CL_INVALID_BUFFER_SIZE, "the region's size is 0");
  if (region.origin > parent->size || region.size > parent->size - region.origin)
    return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE, "the region is not inside the parent buffer");
  const cl_uint align_bits = parent->context->device->value<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN, 8);
  if (align_bits >= 8 && region.origin % (align_bits / 8) != 0)
    return refused<cl_mem>(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                           "the region's origin is not aligned to the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN");
  if (node_lost(parent->rank)) return refused<cl_mem>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *m = make_proxy<RemoteMemory>(ObjectKind::kMemory, parent->rank);
  // Unset groups inherit the parent's.
  cl_mem_flags effective = flags;
  if (!(flags & kAccess)) effective |= p & kAccess;
  if (!(flags & kHostAccess)) effective |= p & kHostAccess;
  effective |= p & kHostPtr;
  m->context = parent->context, m->parent = parent, m->flags = effective;
  m->size = region.size, m->origin = region.origin;
  m->host_ptr = (p & CL_MEM_USE_HOST_PTR) && parent->host_ptr ? static_cast<char *>(parent->host_ptr) + region.origin
                                                               : nullptr;
  retain(parent);
  Writer w;
  write(w, CreateSubBuffer{m->id, parent->id, flags, region.origin, region.size});
  post(parent->rank, Op::kCreateSubBuffer, w);
  return fail(errcode_ret, CL_SUCCESS, handle(m));
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c_handle, cl_mem_flags flags, cl_mem_object_type type,
                                              cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext)) return cluster::refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context of the node client");
  if (num_entries == 0 && formats) return cluster::refuse(CL_INVALID_VALUE, "num_entries is 0 with image_formats given");
  std::vector<cl_image_format> all;
  if (cl_int err = formats_of(c, flags, type, all); err != CL_SUCCESS) return err;
  if (formats) std::memcpy(formats, all.data(), std::min<size_t>(all.size(), num_entries) * sizeof(cl_image_format));
  if (num_formats) *num_formats = static_cast<cl_uint>(all.size());
  return CL_SUCCESS;
}

cl_mem CL_API_CALL clCreateImage(cl_context c_handle, cl_mem_flags flags, const cl_image_format *format,
                                 const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, "context is NULL or not a live context of the node client");
  if (!valid_flags(flags))
    return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE,
                           "flags are not valid (unknown bits, or bits that exclude each other)");
  if (!format) return refused<cl_mem>(errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  if (!desc) return refused<cl_mem>(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  const bool initial = flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
  if (initial != (host_ptr != nullptr))
    return refused<cl_mem>(errcode_ret, CL_INVALID_HOST_PTR,
                           "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR, or given without them");
  const RemoteMemory *under = remote(desc->buffer);
  if (under && !live(under, ObjectKind::kMemory))
    return refused<cl_mem>(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR,
                           "image_desc->buffer is not a live memory object of the node client");
  if (under) {
    // An image over another memory object: what that object forbids, the
    // image cannot allow; a 2D image over a buffer needs the device's word.
    const cl_mem_flags o = under->flags;
    if ((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ||
        ((o & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((o & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((o & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((o & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((o & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
      return refused<cl_mem>(errcode_ret, CL_INVALID_VALUE,
                             "flags allow what image_desc->buffer's flags forbid, or name a host pointer");
    if (desc->image_type == CL_MEM_OBJECT_IMAGE2D && under->type == CL_MEM_OBJECT_BUFFER &&
        (!c->device->value<cl_uint>(CL_DEVICE_IMAGE_PITCH_ALIGNMENT) ||
         !c->device->value<cl_uint>(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT)))
      return refused<cl_mem>(errcode_ret, CL_INVALID_OPERATION,
                             "the device cannot make a 2D image of a buffer (no image pitch or base address alignment)");
  }
  const size_t element = image_element_size(*format);
  if (!element)
    return refused<cl_mem>(errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                           "image_format's channel order and data type make no pixel");
  if (!c->device->value<cl_bool>(CL_DEVICE_IMAGE_SUPPORT))
    return refused<cl_mem>(errcode_ret, CL_INVALID_OPERATION, "the device does not support images");
  std::vector<cl_image_format> supported;
  if (cl_int err = formats_of(c, flags, desc->image_type, supported); err != CL_SUCCESS)
    return fail<cl_mem>(errcode_ret, err);
  if (std::none_of(supported.begin(), supported.end(), [&](const cl_image_format &f) {
        return f.image_channel_order == format->image_channel_order &&
               f.image_channel_data_type == format->image_channel_data_type;
      }))
    return refused<cl_mem>(errcode_ret, CL_IMAGE_FORMAT_NOT_SUPPORTED,
                           "the device does not support image_format for these flags and image type");
  // The application's bytes travel packed: rows (and slices) as it laid
  // them out, one after another.
  std::vector<char> packed;
  if (initial) {
    const bool arrayed1d = desc->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const size_t width = desc->image_width * element;
    const size_t height = arrayed1d ? desc->image_array_size : std::max<size_t>(desc->image_height, 1);
    const size_t depth = desc->image_type == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth
                         : desc->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? desc->image_array_size
                                                                             : 1;
    const size_t row = desc->image_row_pitch ? desc->image_row_pitch : width;
    const size_t slice = desc->image_slice_pitch ? desc->image_slice_pitch : row * (arrayed1d ? 1 : height);
    packed.resize(width * height * depth);
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        std::memcpy(packed.data() + (z * height + y) * width,
                    static_cast<const char *>(host_ptr) + z * slice + y * (arrayed1d ? slice : row), width);
  }
  if (node_lost(c->rank)) return refused<cl_mem>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *m = make_proxy<RemoteMemory>(ObjectKind::kMemory, c->rank);
  m->element = element, m->format = *format;
  m->context = c, m->flags = flags, m->type = desc->image_type;
  m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  retain(c);
  Writer w;
  write(w, CreateImage{m->id, c->id, flags & ~kHostPtr, *format, desc->image_type, desc->image_width,
                       desc->image_height, desc->image_depth, desc->image_array_size,
                       under ? under->id : 0});
  post_with_bytes(c->rank, Op::kCreateImage, w, packed.data(), packed.size());
  return fail(errcode_ret, CL_SUCCESS, handle(m));
}

cl_int CL_API_CALL clGetImageInfo(cl_mem m_handle, cl_image_info param, size_t size, void *value, size_t *size_ret) {
  auto *m = remote(m_handle);
  if (!live(m, ObjectKind::kMemory) || m->type == CL_MEM_OBJECT_BUFFER) return cluster::refuse(CL_INVALID_MEM_OBJECT, "image is not a live image of the node client");
  if (param == CL_IMAGE_ELEMENT_SIZE) return answer_value(m->element, size, value, size_ret);
  return node_info(m, ObjectKind::kImage, param, 0, size, value, size_ret);
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return retain_handle<ObjectKind::kMemory, CL_INVALID_MEM_OBJECT>(memobj);
}
cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return release_handle<ObjectKind::kMemory, CL_INVALID_MEM_OBJECT>(memobj);
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m_handle, void(CL_CALLBACK *fn)(cl_mem, void *),
                                                    void *user_data) {
  auto *m = remote(m_handle);
  if (!live(m, ObjectKind::kMemory)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "memobj is NULL or not a live memory object of the node client");
  if (!fn) return cluster::refuse(CL_INVALID_VALUE, "pfn_notify is NULL");
  m->destructors.push_back({fn, user_data});
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m_handle, cl_mem_info param, size_t size, void *value, size_t *size_ret) {
  auto *m = remote(m_handle);
  if (!live(m, ObjectKind::kMemory)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "memobj is NULL or not a live memory object of the node client");
  switch (param) {
    case CL_MEM_TYPE: return answer_value(m->type, size, value, size_ret);
    case CL_MEM_FLAGS: return answer_value(m->flags, size, value, size_ret);
    case CL_MEM_SIZE:
      if (m->type != CL_MEM_OBJECT_BUFFER) break;  // the node's
      return answer_value(m->size, size, value, size_ret);
    case CL_MEM_HOST_PTR: return answer_value(m->host_ptr, size, value, size_ret);
    case CL_MEM_REFERENCE_COUNT: return answer_value(m->refs.load(), size, value, size_ret);
    case CL_MEM_CONTEXT: return answer_value(handle(m->context), size, value, size_ret);
    case CL_MEM_ASSOCIATED_MEMOBJECT: return answer_value(handle(m->parent), size, value, size_ret);
    case CL_MEM_OFFSET: return answer_value(m->origin, size, value, size_ret);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard lock(m->maps_mutex);
      return answer_value(static_cast<cl_uint>(m->maps.size()), size, value, size_ret);
    }
    default: break;
  }
  return node_info(m, ObjectKind::kMemory, param, 0, size, value, size_ret);
}

}  // namespace unicl::api
