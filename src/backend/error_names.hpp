// The name of an OpenCL error code ("CL_INVALID_VALUE"), for the messages
// that say why a call failed (core/refusal.hpp, backend/vendor_failures.hpp).
// The table is generated from the headers (gen_error_names.py).
#pragma once
#include "backend/cl_headers.hpp"

namespace unicl {

const char *error_name(cl_int code);

}  // namespace unicl
