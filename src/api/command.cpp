#include "api/command.hpp"

#include "core/division.hpp"
#include "core/runtime.hpp"
#include "core/refusal.hpp"

namespace unicl {

Command::Command(_cl_command_queue *q, cl_command_type type) : q_(q), ctx_(*q->context), type_(type) {
  if (ctx_.multi()) lock_.emplace(ctx_);
  // A part of a command UniCL divides (a launch's piece, a read's part) may
  // only run on the device it was cut for (launches refine this with where
  // their kernel exists: describe_launch).
  if (size_t pin = PinnedSlot::current(); q->scheduled && pin < ctx_.slots.size()) {
    work_.runnable.assign(ctx_.slots.size(), false);
    work_.runnable[pin] = true;
    work_.pinned = true;
  }
}

cl_int Command::wait_for(cl_uint n, const cl_event *events) {
  if (cl_int err = wait_.add_user_list(&ctx_, n, events); err != CL_SUCCESS) return err;
  if (multi())
    for (cl_uint i = 0; i < n; ++i) deps_.emplace_back(events[i]);
  return CL_SUCCESS;
}

cl_int Command::use(cl_mem m, Access access, Touched touched) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (m->context.get() != &ctx_) return refuse(CL_INVALID_CONTEXT, "the memory object belongs to another context");
  m->root()->commands.fetch_add(1, std::memory_order_relaxed);
  if (!multi()) {
    mems_.push_back(m->replicas[0]->get());
    return CL_SUCCESS;
  }
  // An image made from a buffer is that buffer's bytes on each device: the
  // buffer's must be valid where the command runs, and what the command
  // writes is the buffer's too.
  if (m->is_image() && m->parent) {
    _cl_mem *buffer = m->parent.get();
    buffer->root()->commands.fetch_add(1, std::memory_order_relaxed);
    implied_.push_back({Ref<_cl_mem>(buffer), access, false, access, root_range(buffer, 0, kWhole), false});
  }
  uses_.push_back({Ref<_cl_mem>(m), access, false, access, root_range(m, touched.offset, touched.size),
                   touched.overwritten});
  return CL_SUCCESS;
}

cl_int Command::use_host(cl_mem m, Access access, Access recorded, Touched touched) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (m->context.get() != &ctx_) return refuse(CL_INVALID_CONTEXT, "the memory object belongs to another context");
  if (m->root()->vendor_shared) return use(m, access, touched);  // the vendor's memory is the host's
  m->root()->commands.fetch_add(1, std::memory_order_relaxed);
  uses_.push_back({Ref<_cl_mem>(m), access, true, recorded, root_range(m, touched.offset, touched.size),
                   touched.overwritten});
  return CL_SUCCESS;
}

cl_int Command::prepare(std::vector<Use> &uses, size_t slot, WaitList &wait,
                        std::vector<std::shared_ptr<DeviceCopy>> &copies) {
  if (uses.empty()) return CL_SUCCESS;
  // The command's own buffers are the most recently used: eviction spares them.
  UNICL_HOLDS(uses[0].mem->context->mutex, "use_clock and last_use: caller holds the context lock");
  uint64_t stamp = ++uses[0].mem->context->use_clock;
  for (auto &u : uses) u.mem->root()->last_use = stamp;
  for (auto &u : uses) {
    if (u.mem->root()->vendor_shared) {
      copies.push_back(u.mem->replicas[slot]);
      continue;
    }
    cl_int err;
    std::shared_ptr<DeviceCopy> copy;
    if (u.host) {
      err = acquire_host(u.mem.get(), u.range, u.access, slot, wait);
    } else {
      err = replica(u.mem.get(), slot, copy, &wait);
      if (err == CL_SUCCESS) err = acquire(u.mem.get(), u.range, slot, u.access, u.overwritten, wait);
    }
    copies.push_back(std::move(copy));
    if (err != CL_SUCCESS) return err;
  }
  return wait.blocked() ? kBlocked : CL_SUCCESS;
}

void Command::record_all(std::vector<Use> &uses, size_t slot, const std::shared_ptr<Completion> &done) {
  if (uses.empty()) return;
  AccessToken token = access_token(done, slot);
  for (auto &u : uses) {
    if (u.mem->root()->vendor_shared) continue;
    if (u.host) record_host(u.mem.get(), u.range, u.recorded, token);
    else record(u.mem.get(), u.range, u.access, token);
  }
}

cl_int Command::run_task(Task::Plan plan, cl_event *event, cl_bool blocking) {
  UNICL_HOLDS(q_->context->mutex, "a queue's ordering (last, since_barrier): caller holds the context lock");
  auto task = std::make_shared<Task>(q_, std::move(plan));
  task->work = std::move(work_);
  task->type = type_;
  for (auto &u : uses_) task->work.buffers.emplace_back(u.mem.get(), u.access);
  for (auto &e : deps_) {
    if (e->task) task->depend_on(e->task);
    else
      task->depend_on(Task::Awaited{[e] { return e->status(); },
                                    [e](std::function<void(cl_int)> fn) { e->on_complete(std::move(fn)); }});
  }
  // Earlier commands of the same queue it must follow (see queue.hpp): on a
  // device queue only those not yet planned, since the device's issue
  // order and the vendor queue order the rest; on a scheduled queue every
  // unfinished one, since the next command may go to another device.
  auto pending = [](const std::shared_ptr<Task> &t) { return t && t->state() == CL_QUEUED; };
  auto follow = [&](const std::shared_ptr<Task> &t) {
    return pending(t) || (t && q_->scheduled && t->status() != CL_COMPLETE);
  };
  if (follow(q_->last)) task->depend_on(q_->last);
  if (!q_->in_order() && follow_all_)
    for (auto &t : q_->since_barrier)
      if (follow(t)) task->depend_on(t);
  if (cl_int err = task->start(); err != CL_SUCCESS) {
    lock_->unlock();  // run() returns unlocked on every path: error paths may take the lock again
    return err;
  }
  bool planned_now = task->state() != CL_QUEUED;
  std::shared_ptr<Task> last_before = q_->last;
  if (q_->in_order() || barrier_) {
    q_->last = task;
    q_->since_barrier.clear();
    q_->prune_at = 32;
  } else {
    // Finished commands are dropped when the list has doubled since the
    // last time: amortized constant work per command even when thousands
    // are in flight.
    if (q_->since_barrier.size() >= q_->prune_at) {
      std::erase_if(q_->since_barrier, [&](auto &t) { return !follow(t); });
      q_->prune_at = std::max<size_t>(32, 2 * q_->since_barrier.size());
    }
    q_->since_barrier.push_back(task);
  }
  lock_->unlock();  // the command is issued here, when it was planned at once
  if (cl_int s = task->state(); planned_now && s < 0) {
    // The vendor refused it: like a command whose enqueue failed, it never
    // was in the queue (a barrier's list is not restored: nothing depends
    // on the commands it ordered more than on the barrier's predecessor).
    ContextLock relock(ctx_);
    if (q_->last == task) q_->last = last_before;
    std::erase(q_->since_barrier, task);
    return s;
  }
  if (DivisionRecord *division = DivisionScope::current()) division->add_piece(task);
  if (on_later_failure_)
    task->on_status(CL_COMPLETE, [fn = std::move(on_later_failure_)](cl_int status) {
      if (status < 0) fn(status);
    });
  if (blocking && task->wait() != CL_SUCCESS) {
    // A blocking call whose command failed returns the failure (its own
    // error, or that of what it waited for) and no event.
    cl_int s = task->state();
    return s < 0 ? s : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  if (event) *event = make_task_event(q_, type_, task).detach();
  return CL_SUCCESS;
}

bool Command::tracing() { return Runtime::get().trace().on(); }

cl_int Command::finish(cl_int err, cl_event *event) {
  auto owned = VendorRef<cl_event>::adopt(vendor_event_);
  if (err != CL_SUCCESS) return err;
  if (vendor_event_ && Runtime::get().trace().on())
    Runtime::get().trace().record(vendor_event_, q_->device ? q_->device->name : ctx_.slots[0].device->name,
                                  work_.kernel.empty() ? command_name(type_) : work_.kernel, "command");
  if (event) *event = make_command_event(q_, type_, std::move(owned)).detach();
  return CL_SUCCESS;
}

}  // namespace unicl
