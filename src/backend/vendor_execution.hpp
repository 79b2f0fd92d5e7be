// Vendors that must not be called from two threads at once.
//
// oclgrind runs its commands on the calling thread (inside clFlush, clFinish,
// clWaitForEvents and blocking enqueues) and keeps all of its state without
// a lock: reference counts, queues, callback lists. Two threads calling it
// at once, even only to release two references to one event, corrupt it.
// UniCL's work queue, device workers and the application's threads all call
// vendors, so every call into such a vendor is serialized here, at the one
// place all of them pass: vendor_table() hands out, for the vendor's objects, a
// dispatch table of UniCL's whose every entry holds one recursive lock
// around the vendor's own entry (recursive: the vendor calls UniCL back from
// inside a call, and UniCL may call it again from there). Other vendors are
// called through their own tables: no lock, one comparison per call.
//
// The runtime owns the one instance (Runtime::execution()); vendor_table(), a free
// function every layer calls, reaches it through active_.
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>

#include "backend/cl_headers.hpp"

namespace unicl {

class VendorExecution {
 public:
  VendorExecution();
  ~VendorExecution();
  VendorExecution(const VendorExecution &) = delete;
  VendorExecution &operator=(const VendorExecution &) = delete;

  // The vendor whose objects start with `table` is not thread-safe (it runs
  // commands on the caller's thread). Called while vendors are discovered,
  // before any object of that vendor is handed out. False when kMaxWrapped
  // vendor libraries are wrapped already: the vendor cannot be called
  // safely, and must not be used.
  [[nodiscard]] bool add_runs_on_caller(const cl_icd_dispatch *table);
  // Calls of the vendor whose objects start with `table` that fail are
  // passed to `report` as one line naming `vendor`, the call, the device
  // and the error. Called while vendors are discovered, after
  // add_runs_on_caller(). False when kMaxWrapped vendor libraries are
  // wrapped already: that vendor's failures go unnamed.
  using FailureReport = void (*)(const char *line);
  [[nodiscard]] bool log_failures(const cl_icd_dispatch *table, const char *vendor, FailureReport report);
  // How many vendor libraries can be serialized or logged: each has its
  // own compiled entries (one set per index).
  static constexpr size_t kMaxWrapped = 8;

  // The table to call an object whose own dispatch table is `own` through.
  static const cl_icd_dispatch &table_for(const cl_icd_dispatch *own) {
    const Wrapped *w = find(own);
    return w ? *w->outer : *own;
  }
  // Whether calls to that vendor are serialized.
  static bool serialized(const cl_icd_dispatch *own) {
    const Wrapped *w = find(own);
    return w && w->inner == &w->serialized;
  }
  // While one lives on a thread, that thread's failed vendor calls are not
  // named: UniCL's own questions, whose failure only means "not known"
  // (an optional device query, argument information PoCL keeps unless
  // asked), are no failure of the application's, and a user reading
  // UNICL_LOG=2 for why a call was refused should not read them.
  class Quiet {
   public:
    Quiet() { ++depth_; }
    ~Quiet() { --depth_; }
    Quiet(const Quiet &) = delete;
    Quiet &operator=(const Quiet &) = delete;
    static bool on() { return depth_ > 0; }

   private:
    static inline thread_local int depth_ = 0;
  };

  // The lock of a serialized vendor, held: no call of another thread runs
  // in the vendor until it is released, so several calls form one step.
  // Empty for other vendors.
  static std::unique_lock<std::recursive_mutex> hold(const cl_icd_dispatch *own);

 private:
  // A vendor called through tables of UniCL's.
  struct Wrapped {
    const cl_icd_dispatch *own = nullptr;
    cl_icd_dispatch serialized{};  // each entry locks, then calls own's
    cl_icd_dispatch logged{};      // each entry calls inner's, and names a failure
    const cl_icd_dispatch *inner = nullptr;  // own, or &serialized
    const cl_icd_dispatch *outer = nullptr;  // what table_for() hands out
    const char *vendor = "";
    FailureReport report = nullptr;
  };
  // The vendors of one process (PoCL, oclgrind, the node client, ...): one
  // entry per vendor library, and wrapped only if serialized or logged.
  template <class Slot> struct Entry;  // the entries (vendor_execution.cpp)
  template <size_t I, bool Logging>
  static void fill(cl_icd_dispatch &table, const cl_icd_dispatch &from);
  // `table` (w.serialized or w.logged): w's own table with every entry
  // wrapped, locking or logging.
  template <bool Logging>
  void fill_entries(Wrapped &w, cl_icd_dispatch &table);
  Wrapped *wrapped(const cl_icd_dispatch *own);  // own's entry, added if new; null when there is no room
  // own's entry, if it has one (every vendor_table() call passes here).
  static const Wrapped *find(const cl_icd_dispatch *own) {
    if (const VendorExecution *x = active_.load(std::memory_order_acquire))
      for (size_t i = 0, n = x->count_.load(std::memory_order_acquire); i < n; ++i)
        if (x->wrapped_[i].own == own) return &x->wrapped_[i];
    return nullptr;
  }

  static inline std::atomic<VendorExecution *> active_{nullptr};
  std::array<Wrapped, kMaxWrapped> wrapped_{};
  std::atomic<size_t> count_{0};  // entries of wrapped_ in use; written once each, by discovery
  std::recursive_mutex mutex_;
};

}  // namespace unicl
