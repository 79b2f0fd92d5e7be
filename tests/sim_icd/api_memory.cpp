// Buffers and sub-buffers: real host memory, accounted against the memory
// of every device in the context (README.md, "Memory").
#include "api.hpp"
#include "info.hpp"
#include "objects.hpp"

namespace sim::api {
namespace {

constexpr size_t kAlign = 4096;  // page aligned, so PoCL can use the bytes in place (correctness mode)
constexpr size_t kSubBufferAlign = 128;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes

constexpr cl_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
constexpr cl_mem_flags kHostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtr = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

bool at_most_one(cl_mem_flags f) { return (f & (f - 1)) == 0; }

cl_int check_flags(cl_mem_flags flags) {
  if (flags & ~(kAccess | kHostAccess | kHostPtr)) return CL_INVALID_VALUE;
  if (!at_most_one(flags & kAccess) || !at_most_one(flags & kHostAccess)) return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

}  // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context context_handle, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  auto *context = remote(context_handle);
  if (!checked(context)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  if (cl_int err = check_flags(flags); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (!(flags & kAccess)) flags |= CL_MEM_READ_WRITE;
  bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_ptr != (host_ptr != nullptr)) return fail(errcode_ret, CL_INVALID_HOST_PTR);
  if (size == 0) return fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
  for (Device *d : context->devices)
    if (size > d->max_alloc()) return fail(errcode_ret, CL_INVALID_BUFFER_SIZE);

  auto m = create<Memory>();
  m->context = context->shared();
  m->flags = flags;
  m->size = size;
  // Reserve on every device first; undo what succeeded if one is full.
  for (size_t i = 0; i < context->devices.size(); ++i) {
    if (!context->devices[i]->reserve(size)) {
      for (size_t j = 0; j < i; ++j) context->devices[j]->unreserve(size);
      return fail(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
  }
  m->accounted = size;
  if (flags & CL_MEM_USE_HOST_PTR) {
    m->host_ptr = host_ptr;
    m->data = static_cast<std::byte *>(host_ptr);
  } else {
    m->storage.reset(static_cast<std::byte *>(std::aligned_alloc(kAlign, (size + kAlign - 1) / kAlign * kAlign)));
    if (!m->storage) return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);  // ~Memory gives the reservation back
    m->data = m->storage.get();
    if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(m->data, host_ptr, size);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return hand_out(m);
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer_handle, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void *info, cl_int *errcode_ret) {
  auto *buffer = remote(buffer_handle);
  if (!checked(buffer) || buffer->parent) return fail(errcode_ret, CL_INVALID_MEM_OBJECT);
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) return fail(errcode_ret, CL_INVALID_VALUE);
  if ((flags & ~(kAccess | kHostAccess)) || !at_most_one(flags & kAccess) || !at_most_one(flags & kHostAccess))
    return fail(errcode_ret, CL_INVALID_VALUE);
  // Access the parent forbids cannot be asked for; unspecified access is inherited.
  if (((buffer->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((buffer->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((buffer->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((buffer->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((buffer->flags & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return fail(errcode_ret, CL_INVALID_VALUE);
  if (!(flags & kAccess)) flags |= buffer->flags & kAccess;
  if (!(flags & kHostAccess)) flags |= buffer->flags & kHostAccess;
  flags |= buffer->flags & kHostPtr;

  auto region = static_cast<const cl_buffer_region *>(info);
  if (region->size == 0) return fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
  if (region->origin > buffer->size || region->size > buffer->size - region->origin)
    return fail(errcode_ret, CL_INVALID_VALUE);
  if (region->origin % kSubBufferAlign) return fail(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);

  auto m = create<Memory>();
  m->context = buffer->context;
  m->parent = buffer->shared();
  m->flags = flags;
  m->size = region->size;
  m->offset = region->origin;
  m->data = buffer->data + region->origin;
  if (buffer->host_ptr) m->host_ptr = static_cast<std::byte *>(buffer->host_ptr) + region->origin;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return hand_out(m);
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return retain_handle(remote(memobj), CL_INVALID_MEM_OBJECT);
}
cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return release_handle(remote(memobj), CL_INVALID_MEM_OBJECT);
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m_handle, cl_mem_info param, size_t size, void *value, size_t *size_ret) {
  auto *m = remote(m_handle);
  if (!checked(m)) return CL_INVALID_MEM_OBJECT;
  switch (param) {
    case CL_MEM_TYPE: return info_value<cl_mem_object_type>(size, value, size_ret, CL_MEM_OBJECT_BUFFER);
    case CL_MEM_FLAGS: return info_value(size, value, size_ret, m->flags);
    case CL_MEM_SIZE: return info_value(size, value, size_ret, m->size);
    case CL_MEM_HOST_PTR: return info_value(size, value, size_ret, m->host_ptr);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard lock(m->mutex);
      return info_value(size, value, size_ret, static_cast<cl_uint>(m->mappings.size()));
    }
    case CL_MEM_REFERENCE_COUNT: return info_value(size, value, size_ret, m->refs.load());
    case CL_MEM_CONTEXT: return info_value(size, value, size_ret, handle(m->context.get()));
    case CL_MEM_ASSOCIATED_MEMOBJECT: return info_value(size, value, size_ret, handle(m->parent.get()));
    case CL_MEM_OFFSET: return info_value(size, value, size_ret, m->offset);
    default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m_handle, void(CL_CALLBACK *fn)(cl_mem, void *),
                                                    void *user_data) {
  auto *m = remote(m_handle);
  if (!checked(m)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  std::lock_guard lock(m->mutex);
  m->destructor_callbacks.emplace_back(fn, user_data);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context_handle, cl_mem_flags, cl_mem_object_type, cl_uint,
                                              cl_image_format *, cl_uint *num_formats) {
  auto *context = remote(context_handle);
  // No image support: an empty list, not an error, as the spec allows.
  if (!checked(context)) return CL_INVALID_CONTEXT;
  if (num_formats) *num_formats = 0;
  return CL_SUCCESS;
}

}  // namespace sim::api
