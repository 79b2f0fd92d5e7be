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
  if (multi()) uses_.add(m, access, touched);
  else mems_.push_back(m->replicas[0]->get());
  return CL_SUCCESS;
}

cl_int Command::use_host(cl_mem m, Access access, Access recorded, Touched touched) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (m->context.get() != &ctx_) return refuse(CL_INVALID_CONTEXT, "the memory object belongs to another context");
  if (m->root()->vendor_shared) return use(m, access, touched);  // the vendor's memory is the host's
  m->root()->commands.fetch_add(1, std::memory_order_relaxed);
  uses_.add_host(m, access, recorded, touched);
  return CL_SUCCESS;
}

cl_int Command::run_task(Task::Plan plan, cl_event *event, cl_bool blocking) {
  auto task = std::make_shared<Task>(q_, std::move(plan));
  task->work = std::move(work_);
  task->type = type_;
  task->work.buffers = uses_.buffers();
  for (auto &e : deps_) {
    if (e->task) task->depend_on(e->task);
    else
      task->depend_on(Task::Awaited{[e] { return e->status(); },
                                    [e](std::function<void(cl_int)> fn) { e->on_complete(std::move(fn)); }});
  }
  if (cl_int err = q_->submit(task, *lock_, ordering_); err != CL_SUCCESS) return err;
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
  if (vendor_event_ && Runtime::get().trace().on()) {
    const _cl_device_id &device = q_->device ? *q_->device : *ctx_.slots[0].device;
    Runtime::get().trace().record(vendor_event_, device, work_.kernel.empty() ? command_name(type_) : work_.kernel,
                                  "command");
  }
  if (event) *event = make_command_event(q_, type_, std::move(owned)).detach();
  return CL_SUCCESS;
}

}  // namespace unicl
