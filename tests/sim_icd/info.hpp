// The clGet*Info return convention in one place: copy the answer if the
// caller's buffer is large enough, report its size if asked.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cl.hpp"

namespace sim {

inline cl_int info_bytes(size_t size, void *value, size_t *size_ret, const void *data, size_t n) {
  if (value) {
    if (size < n) return CL_INVALID_VALUE;
    if (n) std::memcpy(value, data, n);
  }
  if (size_ret) *size_ret = n;
  return CL_SUCCESS;
}

template <class T>
cl_int info_value(size_t size, void *value, size_t *size_ret, const T &v) {
  static_assert(!requires { typename std::remove_pointer_t<T>::Handle; }, "an object is answered by its handle");
  return info_bytes(size, value, size_ret, &v, sizeof v);
}

template <class T>
cl_int info_vector(size_t size, void *value, size_t *size_ret, const std::vector<T> &v) {
  static_assert(!requires { typename std::remove_pointer_t<T>::Handle; }, "objects are answered by their handles");
  return info_bytes(size, value, size_ret, v.data(), v.size() * sizeof(T));
}

inline cl_int info_string(size_t size, void *value, size_t *size_ret, const std::string &s) {
  return info_bytes(size, value, size_ret, s.c_str(), s.size() + 1);
}

}  // namespace sim
