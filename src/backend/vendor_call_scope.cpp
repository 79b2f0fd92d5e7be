#include "backend/vendor_call_scope.hpp"

#include "backend/nested_deferral.hpp"

namespace unicl {
namespace {

// Per thread by nature: a scope is a stretch of one thread's execution.
// One thread-local object, so that each call looks it up once (in a
// shared library every lookup is a call into the dynamic loader).
thread_local NestedDeferral scope;

}  // namespace

void VendorCallScope::enter() { scope.enter(); }
void VendorCallScope::leave() { scope.leave(); }
bool VendorCallScope::inside() { return scope.inside(); }
void VendorCallScope::defer(std::function<void()> fn) { scope.defer(std::move(fn)); }

}  // namespace unicl
