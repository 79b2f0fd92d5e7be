// Vendors that must not be called from two threads at once.
//
// oclgrind runs its commands on the calling thread (inside clFlush, clFinish,
// clWaitForEvents and blocking enqueues) and keeps all of its state without
// a lock: reference counts, queues, callback lists. Two threads calling it
// at once, even only to release two references to one event, corrupt it.
// UniCL's work queue, device workers and the application's threads all call
// vendors, so every call into such a vendor is serialized here, at the one
// place all of them pass: vd() hands out, for the vendor's objects, a
// dispatch table of UniCL's whose every entry holds one recursive lock
// around the vendor's own entry (recursive: the vendor calls UniCL back from
// inside a call, and UniCL may call it again from there). Other vendors are
// called through their own tables: no lock, one comparison per call.
//
// The runtime owns the one instance (Runtime::execution()); vd(), a free
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
  // before any object of that vendor is handed out.
  void add_runs_on_caller(const cl_icd_dispatch *table);

  // The table to call an object whose own dispatch table is `own` through.
  static const cl_icd_dispatch &table_for(const cl_icd_dispatch *own) {
    if (const VendorExecution *x = active_.load(std::memory_order_acquire))
      for (size_t i = 0, n = x->count_.load(std::memory_order_acquire); i < n; ++i)
        if (x->serialized_[i].own == own) return x->serialized_[i].table;
    return *own;
  }
  // Whether calls to that vendor are serialized.
  static bool serialized(const cl_icd_dispatch *own) { return &table_for(own) != own; }
  // The lock of a serialized vendor, held: no call of another thread runs
  // in the vendor until it is released, so several calls form one step.
  // Empty for other vendors.
  static std::unique_lock<std::recursive_mutex> hold(const cl_icd_dispatch *own);

 private:
  struct Serialized {
    const cl_icd_dispatch *own = nullptr;
    cl_icd_dispatch table{};  // each entry locks, then calls own's
  };
  // One serialized vendor is known (oclgrind); a few more cost nothing.
  static constexpr size_t kMaxSerialized = 4;
  template <class Slot> struct Entry;  // a locking entry (vendor_execution.cpp)
  template <size_t I> static void serialize(Serialized &s);

  static inline std::atomic<VendorExecution *> active_{nullptr};
  std::array<Serialized, kMaxSerialized> serialized_{};
  std::atomic<size_t> count_{0};  // entries of serialized_ in use; written once each, by discovery
  std::recursive_mutex mutex_;
};

}  // namespace unicl
