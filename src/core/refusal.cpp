#include "core/refusal.hpp"

#include <string_view>

#include "backend/error_names.hpp"
#include "core/runtime.hpp"

namespace unicl {

cl_int refuse(cl_int code, const char *why, std::source_location where) {
  Runtime &runtime = Runtime::get();
  if (runtime.log_level() < kLogRefusals) return code;
  const char *entry = EntryPointScope::current();
  // The entry point the application called; when no dispatch table recorded
  // it (the loader calls a few exports directly), the function that refused.
  std::string_view name = entry ? std::string_view(entry) : function_name(where.function_name());
  runtime.log(kLogRefusals, "%.*s: %s: %s", static_cast<int>(name.size()), name.data(), error_name(code), why);
  return code;
}

}  // namespace unicl
