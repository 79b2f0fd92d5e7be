// Shared virtual memory. SVM is the vendor's: a context whose devices all
// share one vendor context (core/context.hpp) hands out that vendor's
// allocations, and its SVM commands and kernel arguments reach the vendor
// as given; UniCL's buffer coherence never sees an SVM pointer. A context
// of several vendors, or of other nodes' devices, has no address valid on
// all of its devices, and offers none.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>

#include "backend/cl_headers.hpp"

struct _cl_device_id;
struct _cl_context;

namespace unicl {

// The SVM allocations a context handed out, for the questions only UniCL
// can answer (does a host pointer lie in one, was this pointer ours).
class SvmAllocations {
 public:
  void add(void *pointer, size_t size);
  // False when `pointer` starts no allocation of this context.
  bool remove(void *pointer);
  // Whether [pointer, pointer + size) lies inside one allocation.
  bool contains(const void *pointer, size_t size) const;

 private:
  mutable std::mutex mutex_;
  std::map<const std::byte *, size_t> by_start_;
};

// What a device offers: the vendor's answer for a device of this machine
// whose vendor speaks OpenCL 2.0 or later; nothing for other nodes' devices
// (their memory is not this process's) and older vendors. A composite
// offers what its members offer when one vendor holds them all.
cl_device_svm_capabilities device_svm_capabilities(const _cl_device_id &device);

// What a context offers: what every one of its devices offers when they
// share one vendor context; nothing otherwise.
cl_device_svm_capabilities context_svm_capabilities(const _cl_context &context);

}  // namespace unicl
