// Stretches of a thread in which it must not call into a vendor.
//
// A thread holding a context lock must not call a vendor: a call can take
// long (oclgrind runs kernels inside clFlush; a device of another node
// answers over the network), and every other thread of the context would
// wait for it. The core marks each context-lock scope (core/context.hpp,
// ContextLock); inside one, work that needs a vendor is handed to defer()
// and runs on this thread as soon as the outermost scope ends, after the
// lock is released. VendorRef defers its releases that way by itself; any
// other vendor call made inside a scope is a bug, and builds with
// assertions stop at it (vendor_table(), vendor.hpp).
#pragma once
#include <functional>

namespace unicl {

class VendorCallScope {
 public:
  // Enters a scope (they nest). Leaving the outermost one runs what was
  // deferred inside it, in order, outside any scope.
  static void enter();
  static void leave();
  // Whether this thread is inside a scope.
  static bool inside();
  // Runs `fn` once this thread leaves its outermost scope, or now when it
  // is in none.
  static void defer(std::function<void()> fn);
};

}  // namespace unicl
