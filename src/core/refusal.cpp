#include "core/refusal.hpp"

#include <string_view>

#include "backend/error_names.hpp"
#include "core/runtime.hpp"

namespace unicl {

namespace {

// A function's signature as the compiler spells it, reduced to its name:
// the entry point's, when no dispatch table recorded it (the loader calls
// a few exports directly), else the helper's that refused.
std::string_view caller_name(std::string_view signature) {
  if (auto paren = signature.find('('); paren != std::string_view::npos) signature = signature.substr(0, paren);
  if (auto scope = signature.rfind("::"); scope != std::string_view::npos) signature = signature.substr(scope + 2);
  if (auto space = signature.rfind(' '); space != std::string_view::npos) signature = signature.substr(space + 1);
  return signature;
}

}  // namespace

cl_int refuse(cl_int code, const char *why, std::source_location where) {
  Runtime &runtime = Runtime::get();
  if (runtime.log_level() < kLogRefusals) return code;
  const char *entry = EntryPointScope::current();
  std::string_view name = entry ? std::string_view(entry) : caller_name(where.function_name());
  runtime.log(kLogRefusals, "%.*s: %s: %s", static_cast<int>(name.size()), name.data(), error_name(code), why);
  return code;
}

}  // namespace unicl
