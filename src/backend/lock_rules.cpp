#include "backend/lock_rules.hpp"

#include <cstdio>
#include <cstdlib>

namespace unicl {

#if UNICL_LOCK_CHECKS
void broken_lock_rule(const char *rule, const char *file, int line) {
  std::fprintf(stderr, "unicl: lock rule broken at %s:%d: %s\n", file, line, rule);
  std::fflush(stderr);
  std::abort();  // only in builds configured with -Dlock_checks=true (tests)
}
#endif

}  // namespace unicl
