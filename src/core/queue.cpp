// A queue's vendor queues: its device's, or for a scheduled queue one per
// slot its commands went to, made on first use; and flushing them from
// UniCL's threads.
#include "core/queue.hpp"

#include "backend/vendor_objects.hpp"
#include "core/event.hpp"
#include "core/runtime.hpp"

// Here, not in the header: the members' destructors need the whole
// _cl_event.
_cl_command_queue::_cl_command_queue() : ObjectHeader(kKind) {}
_cl_command_queue::~_cl_command_queue() = default;

cl_int _cl_command_queue::vendor_for(size_t slot, cl_command_queue &out) {
  if (!scheduled) {
    out = vendor.get();
    return CL_SUCCESS;
  }
  std::lock_guard lock(per_slot_mutex);
  if (per_slot.empty()) per_slot.resize(context->slots.size());
  auto &q = per_slot[slot];
  if (!q) {
    // Always profiled: the performance models need the times.
    auto &s = context->slots[slot];
    cl_int err = CL_SUCCESS;
    auto v = unicl::vendor_queue(s.vendor.get(), s.device->vendor, properties | CL_QUEUE_PROFILING_ENABLE, err);
    if (err != CL_SUCCESS) return err;
    q = std::move(v);
  }
  out = q.get();
  return CL_SUCCESS;
}

std::vector<cl_command_queue> _cl_command_queue::vendor_queues() {
  std::vector<cl_command_queue> out;
  if (vendor) out.push_back(vendor.get());
  std::lock_guard lock(per_slot_mutex);
  for (auto &q : per_slot)
    if (q) out.push_back(q.get());
  return out;
}

void _cl_command_queue::flush_off_caller() {
  auto &runtime = unicl::Runtime::get();
  // This queue keeps its vendor queues until it goes: holding it keeps them
  // for the flush with no vendor call here (a retain of a vendor that is
  // serialized would wait while it runs a kernel).
  auto flush_on_worker = [&](_cl_device_id *on, cl_command_queue v) {
    runtime.device_worker(on).post([self = unicl::Ref<_cl_command_queue>(this), v] { unicl::vendor_flush(v); });
  };
  if (vendor) flush_on_worker(device.get(), vendor.get());
  std::lock_guard lock(per_slot_mutex);
  for (size_t slot = 0; slot < per_slot.size(); ++slot)
    if (per_slot[slot]) flush_on_worker(context->slots[slot].device.get(), per_slot[slot].get());
}
