// Answering clGet*Info queries: the size/value/size_ret protocol of the spec
// in one place.
#pragma once
#include <cstring>
#include <string_view>
#include <vector>

#include "backend/cl_headers.hpp"
#include "core/refusal.hpp"

namespace unicl {

inline cl_int info_bytes(size_t size, void *value, size_t *size_ret, const void *src, size_t n) {
  if (value) {
    if (size < n) return refuse(CL_INVALID_VALUE, "param_value_size is below the size of the answer");
    if (n) std::memcpy(value, src, n);
  }
  if (size_ret) *size_ret = n;
  return CL_SUCCESS;
}

template <class T>
cl_int info_value(size_t size, void *value, size_t *size_ret, const T &v) {
  return info_bytes(size, value, size_ret, &v, sizeof(T));
}

inline cl_int info_string(size_t size, void *value, size_t *size_ret, std::string_view s) {
  if (value) {
    if (size < s.size() + 1) return refuse(CL_INVALID_VALUE, "param_value_size is below the size of the answer");
    std::memcpy(value, s.data(), s.size());
    static_cast<char *>(value)[s.size()] = '\0';
  }
  if (size_ret) *size_ret = s.size() + 1;
  return CL_SUCCESS;
}

template <class T>
cl_int info_vector(size_t size, void *value, size_t *size_ret, const std::vector<T> &v) {
  return info_bytes(size, value, size_ret, v.data(), v.size() * sizeof(T));
}

}  // namespace unicl
