// Why the node client refused a call. Rank 0 checks what the specification
// makes each call check before anything travels (checks.hpp); every
// such refusal returns through refuse(), which with UNICL_LOG=2 prints one
// line on stderr, as UniCL's own refusals do (src/core/refusal.hpp):
//
//   unicl nodes: clEnqueueReadBuffer: CL_INVALID_VALUE: offset + size is past the buffer's end
//
// The level is the client's own reading of UNICL_LOG (log.hpp).
#pragma once
#include <source_location>

#include "backend/cl_headers.hpp"

namespace unicl::cluster {

cl_int refuse(cl_int code, const char *why, std::source_location where = std::source_location::current());

}  // namespace unicl::cluster
