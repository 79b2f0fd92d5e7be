// A context's lifetime: its policy goes first, then the application's
// destructor callbacks run (its slots and their vendor contexts after).
#include "core/context.hpp"

#include "core/scheduling.hpp"

_cl_context::_cl_context() : ObjectHeader(kKind) {}

_cl_context::~_cl_context() {
  engine.reset();
  // The spec calls destructor callbacks in reverse order of registration.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->first(this, it->second);
}
