#include "cluster/client/refusal.hpp"

#include <cstdio>
#include <string_view>

#include "backend/error_names.hpp"
#include "cluster/client/log.hpp"

namespace unicl::cluster {

cl_int refuse(cl_int code, const char *why, std::source_location where) {
  if (log_level() < 2) return code;
  std::string_view name = function_name(where.function_name());
  std::fprintf(stderr, "unicl nodes: %.*s: %s: %s\n", static_cast<int>(name.size()), name.data(), error_name(code), why);
  return code;
}

}  // namespace unicl::cluster
