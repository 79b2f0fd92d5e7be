#include "backend/vendor_call_scope.hpp"

#include <vector>

namespace unicl {
namespace {

// Per thread by nature: a scope is a stretch of one thread's execution.
// One thread-local object, so that each call looks it up once (in a
// shared library every lookup is a call into the dynamic loader).
struct Scope {
  int depth = 0;
  std::vector<std::function<void()>> deferred;
};
thread_local Scope scope;

}  // namespace

void VendorCallScope::enter() { ++scope.depth; }

void VendorCallScope::leave() {
  Scope &s = scope;
  if (--s.depth > 0) return;
  // Deferred work may defer more (it runs outside any scope, so that runs
  // at once) or enter and leave scopes of its own: take the list first.
  while (!s.deferred.empty()) {
    std::vector<std::function<void()>> now;
    now.swap(s.deferred);
    for (auto &fn : now) fn();
    now.clear();
    if (s.deferred.capacity() == 0) s.deferred.swap(now);  // keep the storage for the next scope
  }
}

bool VendorCallScope::inside() { return scope.depth > 0; }

void VendorCallScope::defer(std::function<void()> fn) {
  Scope &s = scope;
  if (s.depth == 0) return fn();
  s.deferred.push_back(std::move(fn));
}

}  // namespace unicl
