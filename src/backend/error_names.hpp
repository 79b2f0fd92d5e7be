// The name of an OpenCL error code ("CL_INVALID_VALUE"), for the messages
// that say why a call failed (core/refusal.hpp, backend/vendor_execution.cpp,
// the node client's cluster/remote_refusal.cpp).
// The table is generated from the headers (gen_error_names.py).
#pragma once
#include <string_view>

#include "backend/cl_headers.hpp"

namespace unicl {

const char *error_name(cl_int code);

// A function's signature as the compiler spells it
// (std::source_location::function_name()), reduced to its name: what a
// refusal message calls the function that refused.
inline std::string_view function_name(std::string_view signature) {
  if (auto paren = signature.find('('); paren != std::string_view::npos) signature = signature.substr(0, paren);
  if (auto scope = signature.rfind("::"); scope != std::string_view::npos) signature = signature.substr(scope + 2);
  if (auto space = signature.rfind(' '); space != std::string_view::npos) signature = signature.substr(space + 1);
  return signature;
}

}  // namespace unicl
