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

cl_int _cl_command_queue::open(_cl_context *ctx, _cl_device_id *on, size_t at) {
  auto &runtime = unicl::Runtime::get();
  context = unicl::Ref<_cl_context>(ctx);
  device_less = on == nullptr;
  if (on) device = unicl::Ref<_cl_device_id>(on);
  const bool composite = on && on == ctx->composite.get();
  scheduled = ctx->multi() && (device_less || composite || runtime.config().schedule_all);
  if (scheduled) {
    slot = _cl_context::npos;
    return CL_SUCCESS;
  }
  // Traced runs profile every queue (the application still sees its own
  // profiling setting: clGetEventProfilingInfo checks it).
  cl_command_queue_properties asked = properties | (runtime.trace().on() ? CL_QUEUE_PROFILING_ENABLE : 0);
  cl_int err = CL_SUCCESS;
  _cl_device_id *target = on ? on : ctx->slots[at].device.get();
  auto made = unicl::vendor_queue(ctx->vendor(at), target->vendor, asked, err);
  if (err != CL_SUCCESS) return err;
  slot = at;
  vendor = std::move(made);
  return CL_SUCCESS;
}

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

bool _cl_command_queue::must_follow(const std::shared_ptr<unicl::Task> &t) {
  if (!t) return false;
  return t->state() == CL_QUEUED || (scheduled && t->status() != CL_COMPLETE);
}

cl_int _cl_command_queue::submit(const std::shared_ptr<unicl::Task> &task, unicl::ContextLock &lock,
                                 Ordering ordering) {
  UNICL_HOLDS(context->mutex, "a queue's ordering (last_, since_barrier_): caller holds the context lock");
  if (must_follow(last_)) task->depend_on(last_);
  if (!in_order() && ordering.follow_all)
    for (auto &t : since_barrier_)
      if (must_follow(t)) task->depend_on(t);
  if (cl_int err = task->start(); err != CL_SUCCESS) {
    lock.unlock();  // returns unlocked on every path: the caller's error paths may take the lock again
    return err;
  }
  bool planned_now = task->state() != CL_QUEUED;
  std::shared_ptr<unicl::Task> last_before = last_;
  enter(task, in_order() || ordering.barrier);
  lock.unlock();  // the command is issued here, when it was planned at once
  if (cl_int s = task->state(); planned_now && s < 0) {
    // The vendor refused it: like a command whose enqueue failed, it never
    // was in the queue (a barrier's list is not restored: nothing depends
    // on the commands it ordered more than on the barrier's predecessor).
    unicl::ContextLock relock(*context);
    if (last_ == task) last_ = last_before;
    std::erase(since_barrier_, task);
    return s;
  }
  return CL_SUCCESS;
}

void _cl_command_queue::enter(const std::shared_ptr<unicl::Task> &task, bool barrier) {
  if (barrier) {
    last_ = task;
    since_barrier_.clear();
    prune_at_ = 32;
    return;
  }
  // Finished commands are dropped when the list has doubled since the last
  // time: amortized constant work per command even when thousands are in
  // flight.
  if (since_barrier_.size() >= prune_at_) {
    std::erase_if(since_barrier_, [&](auto &t) { return !must_follow(t); });
    prune_at_ = std::max<size_t>(32, 2 * since_barrier_.size());
  }
  since_barrier_.push_back(task);
}

std::vector<std::shared_ptr<unicl::Task>> _cl_command_queue::unsubmitted() {
  unicl::ContextLock lock(*context);
  std::vector<std::shared_ptr<unicl::Task>> out;
  if (last_) out.push_back(last_);
  out.insert(out.end(), since_barrier_.begin(), since_barrier_.end());
  return out;
}

_cl_command_queue::DividedFollow _cl_command_queue::divided_follow() {
  unicl::ContextLock lock(*context);
  auto gate = divided_gate_.lock();
  if (gate && last_ == gate && divided_before_ && all_planned(divided_chain_)) return {divided_before_, divided_after_};
  return {{}, {}, !last_ || last_->status() == CL_COMPLETE};
}

// Coherence orders a piece after the accesses of its bytes that are
// recorded, that is after the pieces already planned: a piece still waiting
// to be planned (for bytes from another device) would be passed by the new
// launch's pieces of the same bytes. So a launch joins the chain only while
// every piece of it is planned.
bool _cl_command_queue::all_planned(const std::vector<std::shared_ptr<unicl::DivisionRecord>> &chain) {
  for (auto &record : chain)
    for (auto &piece : record->pieces())
      if (piece->state() == CL_QUEUED) return false;
  return true;
}

void _cl_command_queue::remember_division(_cl_event *gate, _cl_event *before, _cl_event *after,
                                          std::shared_ptr<unicl::DivisionRecord> record, bool joined) {
  unicl::ContextLock lock(*context);
  divided_gate_ = gate->task;
  divided_before_ = before ? unicl::Ref<_cl_event>(before) : unicl::Ref<_cl_event>();
  divided_after_ = after ? unicl::Ref<_cl_event>(after) : unicl::Ref<_cl_event>();
  if (!before) divided_chain_.clear();
  else if (joined) divided_chain_.push_back(std::move(record));
  else divided_chain_ = {std::move(record)};
}

bool _cl_command_queue::divided_launch_running() {
  UNICL_HOLDS(context->mutex, "a queue's divided launch state: caller holds the context lock");
  auto gate = divided_gate_.lock();
  return gate && gate->status() != CL_COMPLETE;
}
