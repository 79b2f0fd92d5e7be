// Vendor callbacks as C++ callables. A vendor takes a C function and a
// void *; these hand it a heap copy of the callable instead, owned by the
// vendor once registration succeeded and freed after its one call (a
// vendor calls an event callback once, when the status is reached, and a
// destructor callback once, when the object goes).
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

#include "backend/vendor.hpp"

namespace unicl {
namespace detail {

// The C function the vendor calls with `Args` and the user data: takes the
// callable back, calls it and frees it.
template <class Fn, class... Args>
struct OwnedCallback {
  static void CL_CALLBACK run(Args... args, void *data) {
    std::unique_ptr<Fn> fn(static_cast<Fn *>(data));
    (*fn)(args...);
  }
};

// Registers a copy of `fn` through `set(function, user_data)`; the copy is
// freed here when the vendor refuses it.
template <class... Args, class Fn, class Set>
cl_int register_owned(Fn &&fn, Set &&set) {
  using Owned = std::decay_t<Fn>;
  auto data = std::make_unique<Owned>(std::forward<Fn>(fn));
  cl_int err = set(&OwnedCallback<Owned, Args...>::run, static_cast<void *>(data.get()));
  if (err == CL_SUCCESS) data.release();  // the callback owns it now
  return err;
}

}  // namespace detail

// clSetEventCallback on vendor event `e` with `fn(cl_event, cl_int status)`.
// Some vendors (oclgrind) never call a callback registered after the status
// was reached: callers look at the status first.
template <class Fn>
cl_int set_vendor_event_callback(cl_event e, cl_int type, Fn &&fn) {
  return detail::register_owned<cl_event, cl_int>(std::forward<Fn>(fn), [&](auto run, void *data) {
    return vendor_table(e).clSetEventCallback(e, type, run, data);
  });
}

// clSetMemObjectDestructorCallback on vendor memory object `m` with
// `fn(cl_mem)`.
template <class Fn>
cl_int set_vendor_destructor_callback(cl_mem m, Fn &&fn) {
  return detail::register_owned<cl_mem>(std::forward<Fn>(fn), [&](auto run, void *data) {
    return vendor_table(m).clSetMemObjectDestructorCallback(m, run, data);
  });
}

}  // namespace unicl
