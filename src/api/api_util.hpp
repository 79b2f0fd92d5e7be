// Small helpers shared by the API entry points.
#pragma once
#include "backend/cl_headers.hpp"
#include "core/object.hpp"

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
  if (!live(h)) return invalid;
  retain(h);
  return CL_SUCCESS;
}

template <class T>
cl_int release_handle(T *h, cl_int invalid) {
  if (!live(h)) return invalid;
  release(h);
  return CL_SUCCESS;
}

}  // namespace unicl
