// What an entry point hands back: a new object's handle (its one reference
// moves to the application) or a null one with the error in errcode_ret,
// and the retain and release of a handle it was given.
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

}  // namespace unicl
