// What the memory layer keeps per multi-device context: the planner that
// routes missing byte ranges between the context's copies, and the link
// models it learns from the transfers UniCL times.
#pragma once
#include <memory>
#include <mutex>
#include <string>
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

// Sets up the memory state of a multi-device context whose slots are open:
// the planner's first guess of each route, the device memory limits (the
// context's property, then `mem_limits`, UNICL_DEVICE_MEM_LIMIT's text).
// CL_OUT_OF_RESOURCES for more devices than coherence tracks,
// CL_INVALID_PROPERTY for malformed limits.
cl_int init_context_memory(_cl_context &ctx, const std::string &mem_limits);

}  // namespace unicl
