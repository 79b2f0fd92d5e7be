// Small helpers shared by the API entry points.
#pragma once
#include "backend/cl_headers.hpp"
#include "core/object.hpp"
#include "core/refusal.hpp"

namespace unicl {

// Sets *errcode_ret and returns a null handle.
inline std::nullptr_t fail(cl_int *errcode_ret, cl_int err) {
  if (errcode_ret) *errcode_ret = err;
  return nullptr;
}

inline void set_error(cl_int *errcode_ret, cl_int err) {
  if (errcode_ret) *errcode_ret = err;
}

// Hands a new object to the application (its one reference moves out).
template <class T>
T *hand_out(Ref<T> obj, cl_int *errcode_ret) {
  set_error(errcode_ret, CL_SUCCESS);
  return obj.detach();
}

template <class T>
cl_int retain_handle(T *h, cl_int invalid) {
  if (!live(h)) return refuse(invalid, "the handle is NULL or not a live object of its type");
  retain(h);
  return CL_SUCCESS;
}

template <class T>
cl_int release_handle(T *h, cl_int invalid) {
  if (!live(h)) return refuse(invalid, "the handle is NULL or not a live object of its type");
  release(h);
  return CL_SUCCESS;
}

inline bool valid_map_flags(cl_map_flags f) {
  if (f & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) return false;
  return !((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)));
}

// A fill pattern must be a power of two from 1 to 128 bytes.
inline bool valid_pattern(const void *pattern, size_t size) {
  return pattern && size >= 1 && size <= 128 && (size & (size - 1)) == 0;
}

}  // namespace unicl
