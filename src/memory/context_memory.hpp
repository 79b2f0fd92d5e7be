// What the memory layer keeps per multi-device context: the planner that
// routes missing byte ranges between the context's copies, and the link
// models it learns from the transfers UniCL times.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "core/context.hpp"
#include "memory/eviction_order.hpp"
#include "memory/transfer_planner.hpp"

namespace unicl {

struct ContextMemory {
  explicit ContextMemory(size_t slots) : planner(slots), eviction(slots) {}
  // Guards the planner: timings arrive on vendor threads, without the
  // context mutex.
  std::mutex mutex;
  TransferPlanner planner;
  // Per slot; guarded by the context's memory_mutex, like the accounting.
  std::vector<EvictionOrder> eviction;
};

}  // namespace unicl
