// Reading and awaiting the execution status of a vendor event: the one way
// UniCL learns that a vendor command reached a status (the task graph, the
// completions of the memory layer, application callbacks, the trace).
#pragma once
#include <functional>

#include "backend/cl_headers.hpp"

namespace unicl {

// Execution status of vendor event `e` (CL_QUEUED if it cannot be read).
cl_int vendor_status(cl_event e);

// Where a run is moved that a vendor that is not thread-safe would make
// from its callback, inside one of UniCL's calls and under its lock.
using DeferFromVendor = void (*)(std::function<void()> run);

// Runs fn exactly once, when vendor event `e` reaches `type` (CL_SUBMITTED,
// CL_RUNNING or CL_COMPLETE) or fails: at once, on this thread, with `type`
// or the error, if it already has; else from the vendor's callback (or, for
// a serialized vendor, through `defer` when given) with the status the
// vendor passes. Returns the vendor's error when it refused the callback: fn
// has not run then and never will.
cl_int when_vendor_status(cl_event e, cl_int type, std::function<void(cl_int)> fn, DeferFromVendor defer = nullptr);

}  // namespace unicl
