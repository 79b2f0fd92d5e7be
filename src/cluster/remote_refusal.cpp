#include "cluster/remote_refusal.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "backend/error_names.hpp"

namespace unicl::cluster {

namespace {

// UNICL_LOG as the process started with it (UniCL reads its own the same way).
bool refusals_logged() {
  static const bool logged = [] {
    const char *level = std::getenv("UNICL_LOG");
    return level && std::atoi(level) >= 2;
  }();
  return logged;
}

}  // namespace

cl_int refuse(cl_int code, const char *why, std::source_location where) {
  if (!refusals_logged()) return code;
  std::string_view name = function_name(where.function_name());
  std::fprintf(stderr, "unicl nodes: %.*s: %s: %s\n", static_cast<int>(name.size()), name.data(), error_name(code), why);
  return code;
}

}  // namespace unicl::cluster
