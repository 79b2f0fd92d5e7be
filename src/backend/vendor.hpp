// Calling vendor platforms. UniCL never links libOpenCL: every call to a
// vendor goes through the dispatch table at the start of the vendor's own
// object, exactly as the ICD loader would call it, or for a vendor that is
// not thread-safe through a table that serializes the calls
// (vendor_execution.hpp).
#pragma once
#include <cassert>
#include <mutex>
#include <string>
#include <utility>

#include "backend/cl_headers.hpp"
#include "backend/vendor_call_scope.hpp"
#include "backend/vendor_execution.hpp"

namespace unicl {

// The dispatch table of a vendor object, as the vendor made it.
template <class H>
const cl_icd_dispatch *own_table(H h) {
  return *reinterpret_cast<const cl_icd_dispatch *const *>(h);
}

// The table to call a vendor object through: every call to a vendor goes
// through here, never from inside a context lock (vendor_call_scope.hpp).
template <class H>
const cl_icd_dispatch &vendor_table(H h) {
  assert(!VendorCallScope::inside() && "vendor call made while holding a context lock");
  return VendorExecution::table_for(own_table(h));
}

// Whether the vendor of `h` is called one call at a time.
template <class H>
bool vendor_serialized(H h) {
  return VendorExecution::serialized(own_table(h));
}

// For a serialized vendor, its lock, held: several calls then form one step
// no other thread's call into the vendor can split. Empty for others.
template <class H>
std::unique_lock<std::recursive_mutex> hold_vendor(H h) {
  return VendorExecution::hold(own_table(h));
}

template <class H> struct VendorOps;
#define UNICL_VENDOR_OPS(H, RETAIN, RELEASE)                              \
  template <> struct VendorOps<H> {                                        \
    static void retain(H h) { vendor_table(h).RETAIN(h); }                           \
    static void release(H h) { vendor_table(h).RELEASE(h); }                         \
  };
UNICL_VENDOR_OPS(cl_context, clRetainContext, clReleaseContext)
UNICL_VENDOR_OPS(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
UNICL_VENDOR_OPS(cl_mem, clRetainMemObject, clReleaseMemObject)
UNICL_VENDOR_OPS(cl_program, clRetainProgram, clReleaseProgram)
UNICL_VENDOR_OPS(cl_kernel, clRetainKernel, clReleaseKernel)
UNICL_VENDOR_OPS(cl_event, clRetainEvent, clReleaseEvent)
UNICL_VENDOR_OPS(cl_sampler, clRetainSampler, clReleaseSampler)
UNICL_VENDOR_OPS(cl_device_id, clRetainDevice, clReleaseDevice)
#undef UNICL_VENDOR_OPS

// RAII owner of one reference to a vendor object.
template <class H>
class VendorRef {
 public:
  VendorRef() = default;
  // Takes over a reference the vendor returned (creation calls).
  static VendorRef adopt(H h) {
    VendorRef r;
    r.h_ = h;
    return r;
  }
  // Adds a reference of its own.
  static VendorRef share(H h) {
    if (h) VendorOps<H>::retain(h);
    return adopt(h);
  }
  VendorRef(const VendorRef &o) : h_(o.h_) {
    if (h_) VendorOps<H>::retain(h_);
  }
  VendorRef(VendorRef &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  VendorRef &operator=(VendorRef o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  // Inside a context lock the release waits until the lock is released.
  ~VendorRef() {
    if (!h_) return;
    if (VendorCallScope::inside()) VendorCallScope::defer([h = h_] { VendorOps<H>::release(h); });
    else VendorOps<H>::release(h_);
  }
  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }
  H detach() { return std::exchange(h_, nullptr); }

 private:
  H h_ = nullptr;
};

// Reads a string-valued info query of a vendor object through `query`,
// a callable (size, value, size_ret) -> cl_int.
template <class Query>
cl_int vendor_string(Query &&query, std::string &out) {
  size_t n = 0;
  if (cl_int err = query(0, nullptr, &n); err != CL_SUCCESS) return err;
  out.assign(n, '\0');
  if (cl_int err = query(n, out.data(), nullptr); err != CL_SUCCESS) return err;
  while (!out.empty() && out.back() == '\0') out.pop_back();
  return CL_SUCCESS;
}

// "OpenCL 3.0 ..." -> 300; 0 when unparseable.
unsigned parse_cl_version(const std::string &version_string);

}  // namespace unicl
