// Buffer, sub-buffer and image entry points.
#include <algorithm>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/composite_device.hpp"
#include "core/image_desc.hpp"
#include "backend/image_format.hpp"
#include "core/info.hpp"
#include "memory/coherence.hpp"
#include "core/refusal.hpp"

namespace unicl {

namespace {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

bool more_than_one(cl_mem_flags f) { return (f & (f - 1)) != 0; }

cl_int check_flags(cl_mem_flags flags) {
  if (flags & ~(kAccessFlags | kHostPtrFlags | kHostAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE)) return refuse(CL_INVALID_VALUE, "flags & ~(kAccessFlags | kHostPtrFlags | kHostAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE)");
  if (more_than_one(flags & kAccessFlags) || more_than_one(flags & kHostAccessFlags)) return refuse(CL_INVALID_VALUE, "flags name more than one device access or more than one host access");
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return refuse(CL_INVALID_VALUE, "CL_MEM_USE_HOST_PTR with CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  return CL_SUCCESS;
}

cl_int check_host_ptr(cl_mem_flags flags, const void *host_ptr) {
  bool wants = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants == (host_ptr != nullptr)) return CL_SUCCESS;
  return refuse(CL_INVALID_HOST_PTR, wants ? "CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR without host_ptr"
                                           : "host_ptr without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
}

cl_mem_flags with_default_access(cl_mem_flags flags) {
  return (flags & kAccessFlags) ? flags : flags | CL_MEM_READ_WRITE;
}

cl_int check_properties(const cl_mem_properties *props, _cl_mem &m) {
  if (!props) return CL_SUCCESS;
  m.properties_given = true;
  if (*props != 0) return refuse(CL_INVALID_PROPERTY, "a memory property is given (the specification defines none)");  // no buffer/image properties are defined by the core spec
  m.property_list.push_back(0);
  return CL_SUCCESS;
}

Ref<_cl_mem> new_mem(cl_context ctx, cl_mem_object_type type, cl_mem_flags flags, void *host_ptr) {
  auto m = make_object<_cl_mem>();
  m->context = Ref<_cl_context>(ctx);
  m->type = type;
  m->flags = with_default_access(flags);
  m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  m->replicas.resize(ctx->slots.size());
  m->notice = std::make_shared<DestructionNotice>();
  m->notice->handle = m.get();
  return m;
}

// Creates the vendor object of a single-device context, flags unchanged.
template <class Create>
cl_int single_slot_create(_cl_mem &m, Create &&create) {
  cl_int err = CL_SUCCESS;
  VendorRef<cl_mem> made = create(m.context->vendor(0), err);
  if (err != CL_SUCCESS) return err;
  cl_mem v = made.get();
  m.replicas[0] = std::make_shared<DeviceCopy>(std::move(made));
  return register_replica(&m, 0, v);
}

// Multi-device contexts: one vendor object every slot uses (_cl_mem's
// vendor_shared), made in the vendor context they share.
template <class Create>
cl_int share_by_vendor(_cl_mem &m, Create &&create) {
  if (cl_int err = single_slot_create(m, std::forward<Create>(create)); err != CL_SUCCESS) return err;
  for (auto &copy : m.replicas) copy = m.replicas[0];
  m.vendor_shared = true;
  return CL_SUCCESS;
}

cl_mem create_buffer(cl_context context, const cl_mem_properties *props, cl_mem_flags flags, size_t size,
                     void *host_ptr, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  if (cl_int err = check_flags(flags); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (size == 0) return fail(errcode_ret, refuse(CL_INVALID_BUFFER_SIZE, "size is 0"));
  if (cl_int err = check_host_ptr(flags, host_ptr); err != CL_SUCCESS) return fail(errcode_ret, err);
  auto m = new_mem(context, CL_MEM_OBJECT_BUFFER, flags, host_ptr);
  if (cl_int err = check_properties(props, *m); err != CL_SUCCESS) return fail(errcode_ret, err);
  m->size = size;
  if (!context->multi()) {
    cl_int err = single_slot_create(*m, [&](cl_context v, cl_int &e) {
      return vendor_buffer(v, flags, size, host_ptr, e);
    });
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
    return hand_out(std::move(m), errcode_ret);
  }
  if (context->svm_capabilities && (flags & CL_MEM_USE_HOST_PTR) && context->svm_allocations.contains(host_ptr, size)) {
    cl_int err = share_by_vendor(*m, [&](cl_context v, cl_int &e) { return vendor_buffer(v, flags, size, host_ptr, e); });
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
    return hand_out(std::move(m), errcode_ret);
  }
  cl_ulong largest = 0;
  for (auto &s : context->slots) {
    largest = std::max(largest, vendor_value<cl_ulong>(s.device->vendor, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  }
  // The composite's application sees one device, with the smallest limit.
  if (context->composite) composite_info(*context->composite, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof largest, &largest, nullptr);
  if (size > largest) return fail(errcode_ret, refuse(CL_INVALID_BUFFER_SIZE, "size is above CL_DEVICE_MAX_MEM_ALLOC_SIZE of every device of the context"));
  if (cl_int err = init_coherence(m.get(), host_ptr); err != CL_SUCCESS) return fail(errcode_ret, err);
  return hand_out(std::move(m), errcode_ret);
}

// The image's vendor objects: in a one-device context made now; else its
// host copy, and a copy on every device (each vendor checks it now).
cl_int make_image(_cl_mem &m, cl_mem_flags flags, const cl_image_format &format, void *host_ptr) {
  if (m.context->multi()) {
    if (cl_int err = init_coherence(&m, host_ptr); err != CL_SUCCESS) return err;
    if (cl_int err = make_every_copy(&m); err != CL_SUCCESS) return err;
  } else {
    cl_image_desc d = m.desc;
    if (m.parent) d.buffer = m.parent->replicas[0]->get();
    cl_int err = single_slot_create(m, [&](cl_context v, cl_int &e) {
      return vendor_image(v, flags, format, d, host_ptr, e);
    });
    if (err != CL_SUCCESS) return err;
  }
  if (m.replicas[0]) m.size = vendor_value<size_t>(m.replicas[0]->get(), CL_MEM_SIZE, m.size);
  return CL_SUCCESS;
}

cl_mem create_image(cl_context context, const cl_mem_properties *props, cl_mem_flags flags,
                    const cl_image_format *format, const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  if (cl_int err = check_flags(flags); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (!format || image_element_size(*format) == 0)
    return fail(errcode_ret, refuse(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL or names no format"));
  if (!desc) return fail(errcode_ret, refuse(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL"));
  if (cl_int err = check_host_ptr(flags, host_ptr); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (cl_int err = check_image_desc(*context, *desc, image_element_size(*format), host_ptr); err != CL_SUCCESS)
    return fail(errcode_ret, err);
  cl_mem buffer = desc->buffer;
  if (buffer && (!live(buffer) || buffer->is_image()))
    return fail(errcode_ret, refuse(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc's buffer is not a live buffer"));
  auto m = new_mem(context, desc->image_type, flags, host_ptr);
  if (cl_int err = check_properties(props, *m); err != CL_SUCCESS) return fail(errcode_ret, err);
  m->format = *format;
  m->desc = *desc;
  m->element_size = image_element_size(*format);
  if (buffer) {
    m->parent = Ref<_cl_mem>(buffer);
    buffer->children.fetch_add(1);
  }
  if (cl_int err = make_image(*m, flags, *format, host_ptr); err != CL_SUCCESS) return fail(errcode_ret, err);
  return hand_out(std::move(m), errcode_ret);
}

// A sub-buffer's flags may not allow what its buffer's forbid.
cl_int check_sub_buffer_flags(cl_mem_flags buffer, cl_mem_flags flags) {
  if (cl_int err = check_flags(flags); err != CL_SUCCESS || (flags & kHostPtrFlags))
    return refuse(CL_INVALID_VALUE, "flags are not valid memory flags for a sub-buffer (host pointer flags are inherited)");
  bool conflict = ((buffer & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
                  ((buffer & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
                  ((buffer & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
                  ((buffer & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
                  ((buffer & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
  if (conflict) return refuse(CL_INVALID_VALUE, "flags allow an access the buffer's flags forbid");
  return CL_SUCCESS;
}

// A sub-buffer inherits from its buffer what its own flags do not set.
cl_mem_flags inherited_flags(cl_mem_flags buffer, cl_mem_flags flags) {
  cl_mem_flags out = flags;
  if (!(flags & kAccessFlags)) out |= buffer & kAccessFlags;
  if (!(flags & kHostAccessFlags)) out |= buffer & kHostAccessFlags;
  return out | (buffer & kHostPtrFlags);
}

// Whether some device of `ctx` accepts a sub-buffer at `origin`.
bool aligned_on_a_device(const _cl_context &ctx, size_t origin) {
  for (auto &s : ctx.slots) {
    cl_uint bits = vendor_value<cl_uint>(s.device->vendor, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    if (bits == 0 || origin % (bits / 8) == 0) return true;
  }
  return false;
}

size_t image_row_pitch(const _cl_mem &m) {
  if (m.desc.image_row_pitch && m.host_ptr) return m.desc.image_row_pitch;
  return m.desc.image_width * m.element_size;
}

// Bytes between the slices of a 3D image or the layers of an array; 0 for
// images that have neither.
size_t image_slice_pitch(const _cl_mem &m) {
  switch (m.type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return image_row_pitch(m);
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      if (m.desc.image_slice_pitch && m.host_ptr) return m.desc.image_slice_pitch;
      return image_row_pitch(m) * m.desc.image_height;
    default: return 0;
  }
}

// clCreateImage2D/3D take sizes and pitches as arguments, and report bad
// ones as CL_INVALID_IMAGE_SIZE rather than as a bad descriptor.
cl_mem create_legacy_image(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                           const cl_image_desc &desc, void *host_ptr, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_mem m = create_image(context, nullptr, flags, format, &desc, host_ptr, &err);
  set_error(errcode_ret, err == CL_INVALID_IMAGE_DESCRIPTOR ? CL_INVALID_IMAGE_SIZE : err);
  return m;
}

}  // namespace
}  // namespace unicl

namespace unicl::api {

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  return create_buffer(context, nullptr, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  return create_buffer(context, properties, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void *info,
                                     cl_int *errcode_ret) {
  if (!live(buffer) || buffer->type != CL_MEM_OBJECT_BUFFER || buffer->parent)
    return fail(errcode_ret, refuse(CL_INVALID_MEM_OBJECT, "buffer is not a live buffer, or is a sub-buffer"));
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION, or buffer_create_info is NULL"));
  if (cl_int err = check_sub_buffer_flags(buffer->flags, flags); err != CL_SUCCESS) return fail(errcode_ret, err);
  const auto *region = static_cast<const cl_buffer_region *>(info);
  if (region->size == 0) return fail(errcode_ret, refuse(CL_INVALID_BUFFER_SIZE, "the region's size is 0"));
  if (region->origin > buffer->size || region->size > buffer->size - region->origin)
    return fail(errcode_ret, refuse(CL_INVALID_VALUE, "the region is not inside the buffer"));
  cl_context ctx = buffer->context.get();
  if (!aligned_on_a_device(*ctx, region->origin))
    return fail(errcode_ret, refuse(CL_MISALIGNED_SUB_BUFFER_OFFSET, "the region's origin is not a multiple of any device's CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  cl_mem_flags sub_flags = inherited_flags(buffer->flags, flags);
  auto m = new_mem(ctx, CL_MEM_OBJECT_BUFFER, sub_flags, nullptr);
  m->flags = sub_flags;
  m->parent = Ref<_cl_mem>(buffer);
  buffer->children.fetch_add(1);
  m->origin = region->origin;
  m->size = region->size;
  if (buffer->flags & CL_MEM_USE_HOST_PTR) m->host_ptr = static_cast<std::byte *>(buffer->host_ptr) + region->origin;
  if (!ctx->multi() || buffer->root()->vendor_shared) {
    cl_mem parent_v = buffer->replicas[0]->get();
    auto make = [&](cl_context, cl_int &e) { return vendor_sub_buffer(parent_v, flags, type, info, e); };
    cl_int err = ctx->multi() ? share_by_vendor(*m, make) : single_slot_create(*m, make);
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
  } else {
    m->notice->staging = buffer->root()->notice->staging;
  }
  return hand_out(std::move(m), errcode_ret);
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                                 const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  return create_image(context, nullptr, flags, format, desc, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                                               cl_mem_flags flags, const cl_image_format *format,
                                               const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  return create_image(context, properties, flags, format, desc, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                                   size_t width, size_t height, size_t row_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_row_pitch = row_pitch;
  return create_legacy_image(context, flags, format, desc, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                                   size_t width, size_t height, size_t depth, size_t row_pitch, size_t slice_pitch,
                                   void *host_ptr, cl_int *errcode_ret) {
  // The 1.x entry point, unlike clCreateImage, wants a real third dimension.
  if (depth <= 1 && live(context)) return fail(errcode_ret, refuse(CL_INVALID_IMAGE_SIZE, "a 3D image has a depth of 1 or less"));
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  desc.image_row_pitch = row_pitch;
  desc.image_slice_pitch = slice_pitch;
  return create_legacy_image(context, flags, format, desc, host_ptr, errcode_ret);
}

cl_int CL_API_CALL clRetainMemObject(cl_mem m) { return retain_handle(m, CL_INVALID_MEM_OBJECT); }
cl_int CL_API_CALL clReleaseMemObject(cl_mem m) { return release_handle(m, CL_INVALID_MEM_OBJECT); }

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                                              cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats) {
  if (!live(context)) return refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context");
  if (num_entries == 0 && formats) return refuse(CL_INVALID_VALUE, "num_entries is 0 with image_formats given");
  if (check_flags(flags) != CL_SUCCESS) return refuse(CL_INVALID_VALUE, "flags are not valid memory flags");
  std::vector<cl_image_format> all;
  for (auto &s : context->slots) {
    cl_context v = s.vendor.get();
    std::vector<cl_image_format> mine;
    if (cl_int err = vendor_image_formats(v, flags, type, mine); err != CL_SUCCESS) return err;
    for (auto &f : mine) {
      bool seen = std::any_of(all.begin(), all.end(), [&](const cl_image_format &g) {
        return g.image_channel_order == f.image_channel_order && g.image_channel_data_type == f.image_channel_data_type;
      });
      if (!seen) all.push_back(f);
    }
  }
  if (formats) std::copy_n(all.begin(), std::min<size_t>(num_entries, all.size()), formats);
  if (num_formats) *num_formats = static_cast<cl_uint>(all.size());
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  switch (param) {
    case CL_MEM_TYPE: return info_value(size, value, size_ret, m->type);
    case CL_MEM_FLAGS: return info_value(size, value, size_ret, m->flags);
    case CL_MEM_SIZE: return info_value(size, value, size_ret, m->size);
    case CL_MEM_HOST_PTR: return info_value(size, value, size_ret, m->host_ptr);
    case CL_MEM_MAP_COUNT: return info_value<cl_uint>(size, value, size_ret, m->map_count.load());
    case CL_MEM_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, m->refs.load());
    case CL_MEM_CONTEXT: return info_value<cl_context>(size, value, size_ret, m->context.get());
    // A sub-buffer's buffer, or the buffer an image was created over
    // (cl_image_desc's mem_object); NULL otherwise.
    case CL_MEM_ASSOCIATED_MEMOBJECT: return info_value<cl_mem>(size, value, size_ret, m->parent.get());
    case CL_MEM_OFFSET: return info_value(size, value, size_ret, m->origin);
    case CL_MEM_USES_SVM_POINTER: {
      // A buffer over memory of one of the context's SVM allocations (a
      // sub-buffer asks its parent, as the specification says).
      const _cl_mem *root = m->root();
      bool svm = (root->flags & CL_MEM_USE_HOST_PTR) && root->host_ptr &&
                 m->context->svm_allocations.contains(root->host_ptr, root->size);
      return info_value<cl_bool>(size, value, size_ret, svm ? CL_TRUE : CL_FALSE);
    }
    case CL_MEM_PROPERTIES: return info_vector(size, value, size_ret, m->property_list);
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(m) || !m->is_image()) return refuse(CL_INVALID_MEM_OBJECT, "image is not a live image");
  switch (param) {
    case CL_IMAGE_FORMAT: return info_value(size, value, size_ret, m->format);
    case CL_IMAGE_ELEMENT_SIZE: return info_value(size, value, size_ret, m->element_size);
    case CL_IMAGE_BUFFER: return info_value<cl_mem>(size, value, size_ret, m->parent.get());
    case CL_IMAGE_NUM_MIP_LEVELS: return info_value<cl_uint>(size, value, size_ret, 0);
    case CL_IMAGE_NUM_SAMPLES: return info_value<cl_uint>(size, value, size_ret, 0);
    case CL_IMAGE_ROW_PITCH:
    case CL_IMAGE_SLICE_PITCH: {
      cl_mem v = m->replicas[0]->get();
      size_t pitch = 0;
      if (cl_int err = vendor_image_info(v, param, sizeof pitch, &pitch, nullptr); err != CL_SUCCESS) return err;
      // Some vendors (oclgrind) echo the pitch the application passed,
      // 0 included; the specification wants the pitch in effect.
      if (pitch == 0) pitch = param == CL_IMAGE_ROW_PITCH ? image_row_pitch(*m) : image_slice_pitch(*m);
      return info_value(size, value, size_ret, pitch);
    }
    default: {
      cl_mem v = m->replicas[0]->get();
      return vendor_image_info(v, param, size, value, size_ret);
    }
  }
}

// Pipes are an optional feature UniCL reports absent: no memory object is a
// pipe, which the spec answers with CL_INVALID_MEM_OBJECT.
cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info, size_t, void *, size_t *) {
  (void)pipe;
  return refuse(CL_INVALID_MEM_OBJECT, "UniCL has no pipes: no memory object is one");
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *pfn)(cl_mem, void *), void *user_data) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (!pfn) return refuse(CL_INVALID_VALUE, "pfn_notify is NULL");
  std::lock_guard lock(m->notice->mutex);
  m->notice->callbacks.emplace_back(pfn, user_data);
  return CL_SUCCESS;
}

}  // namespace unicl::api
