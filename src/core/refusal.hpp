// Why a call was refused.
//
// Every error UniCL decides itself (a CL_INVALID_* for bad input, an
// operation a context cannot do) is returned through refuse(), which with
// UNICL_LOG=2 prints one line on stderr:
//
//   unicl: clCreateBuffer: CL_INVALID_BUFFER_SIZE: size == 0
//
// the entry point the application called, the error's name and the failed
// check. With logging off refuse() is one comparison, on error paths only,
// and the entry points run as they would without it: the entry point's name
// is recorded only by the logging dispatch table the objects carry when
// UNICL_LOG is 2 or more (icd/gen_dispatch.py, api::dispatch_in_use()).
// Errors a vendor returns are named where UniCL calls it
// (backend/vendor_execution.hpp).
#pragma once
#include <source_location>

#include "backend/cl_headers.hpp"

namespace unicl {

// The UNICL_LOG level from which refusals and vendor failures are printed.
inline constexpr int kLogRefusals = 2;

// Returns `code`; prints why when refusals are logged. `why` names the
// failed check, in the code's words ("size == 0") or plain ones.
cl_int refuse(cl_int code, const char *why, std::source_location where = std::source_location::current());

// The entry point the application called, for the refusals made while it
// runs on this thread. Nested scopes keep the outermost name: UniCL's own
// calls of its entry points are not what the application called.
class EntryPointScope {
 public:
  explicit EntryPointScope(const char *name) : outer_(current_) {
    if (!current_) current_ = name;
  }
  ~EntryPointScope() { current_ = outer_; }
  EntryPointScope(const EntryPointScope &) = delete;
  EntryPointScope &operator=(const EntryPointScope &) = delete;
  static const char *current() { return current_; }

 private:
  const char *outer_;
  static inline thread_local const char *current_ = nullptr;
};

}  // namespace unicl
