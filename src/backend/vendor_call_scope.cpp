#include "backend/vendor_call_scope.hpp"

#include <vector>

namespace unicl {
namespace {

// Per thread by nature: a scope is a stretch of one thread's execution.
thread_local int depth = 0;
thread_local std::vector<std::function<void()>> deferred;

}  // namespace

void VendorCallScope::enter() { ++depth; }

void VendorCallScope::leave() {
  if (--depth > 0) return;
  // Deferred work may defer more (it runs outside any scope, so that runs
  // at once) or enter and leave scopes of its own: take the list first.
  while (!deferred.empty()) {
    std::vector<std::function<void()>> now;
    now.swap(deferred);
    for (auto &fn : now) fn();
    now.clear();
    if (deferred.capacity() == 0) deferred.swap(now);  // keep the storage for the next scope
  }
}

bool VendorCallScope::inside() { return depth > 0; }

void VendorCallScope::defer(std::function<void()> fn) {
  if (depth == 0) return fn();
  deferred.push_back(std::move(fn));
}

}  // namespace unicl
