// What every enqueue entry point does around its vendor call: checks the
// wait list and memory objects, then runs the call.
//
// One-device contexts: the call runs at once on the queue's vendor queue,
// with handles and events translated (plain pass-through).
// Multi-device contexts: the command becomes a task (core/task.hpp) whose
// plan is its memory uses' (memory/command_uses.hpp: made valid on the
// device it is planned on, accesses recorded for coherence), submitted in
// its queue's order (_cl_command_queue::submit); the call is issued after
// the context lock is released, with that device's copies. The call may
// therefore run later, from another thread: it must own copies of
// everything it reads.
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "core/event.hpp"
#include "core/queue.hpp"
#include "core/refusal.hpp"
#include "core/vendor_call.hpp"
#include "memory/command_uses.hpp"

namespace unicl {

// An array argument (origin, region, work sizes) copied for a deferred call.
struct Sizes {
  std::array<size_t, 3> v{};
  bool given = false;
  Sizes(const size_t *p, size_t n = 3) {
    if (p) std::copy(p, p + std::min<size_t>(n, 3), v.begin());
    given = p != nullptr;
  }
  const size_t *get() const { return given ? v.data() : nullptr; }
};

class Command {
 public:
  Command(_cl_command_queue *q, cl_command_type type);
  Command(const Command &) = delete;
  Command &operator=(const Command &) = delete;

  cl_int wait_for(cl_uint n, const cl_event *events);
  // Validates `m` for this queue; the call gets its vendor handle as
  // VendorCall::mem(i), i counting use() calls.
  cl_int use(cl_mem m, Access access, Touched touched = {});
  cl_int use_buffer(cl_mem m, Access access, Touched touched = {}) {
    if (live(m) && m->is_image()) return refuse(CL_INVALID_MEM_OBJECT, "an image where a buffer is expected");
    return use(m, access, touched);
  }
  cl_int use_image(cl_mem m, Access access) {
    if (live(m) && !m->is_image()) return refuse(CL_INVALID_MEM_OBJECT, "a buffer where an image is expected");
    return use(m, access);
  }
  // Multi-device contexts: the command touches the host copy of `m`; it
  // waits as for `access`, and is recorded as `recorded` (a map reads the
  // host copy, the application's writes count at unmap).
  cl_int use_host(cl_mem m, Access access, Access recorded, Touched touched = {});
  // Out-of-order queues: the command follows every earlier one (barriers,
  // markers without a wait list); `barrier` also makes later ones follow it.
  void follow_all(bool barrier) { ordering_ = {true, barrier}; }
  bool multi() const { return ctx_.multi(); }
  // Multi-device contexts: runs fn(error) if the command, enqueued, fails
  // later (its enqueue call could not report it), from the work queue.
  void on_later_failure(std::function<void(cl_int)> fn) { on_later_failure_ = std::move(fn); }
  // What a scheduling policy should know of a kernel launch.
  void describe_launch(std::string kernel, size_t items, std::vector<bool> runnable, bool pinned = false) {
    work_.kernel = std::move(kernel);
    work_.items = items;
    work_.runnable = std::move(runnable);
    work_.pinned = pinned;
  }

  // Runs `call(VendorCall&) -> cl_int` and hands out the event. Multi-device
  // contexts: returns with the context lock released, whatever the result,
  // so that what the caller does next (undoing a map) may take it again.
  template <class Call>
  cl_int run(Call &&call, cl_event *event, cl_bool blocking = CL_FALSE) {
    if (!multi()) {
      VendorCall l{q_->vendor.get(), q_->slot, false, false, &wait_, (event || tracing() ? &vendor_event_ : nullptr),
               mems_.view()};
      return finish(call(l), event);
    }
    return run_task(uses_.plan(std::forward<Call>(call)), event, blocking);
  }

 private:
  cl_int run_task(Task::Plan plan, cl_event *event, cl_bool blocking);
  cl_int finish(cl_int err, cl_event *event);
  static bool tracing();

  _cl_command_queue *q_;
  _cl_context &ctx_;
  cl_command_type type_;
  std::optional<ContextLock> lock_;  // multi-device contexts
  WaitList wait_;
  MemList mems_;              // one-device contexts
  CommandUses uses_;          // multi-device contexts
  std::vector<Ref<_cl_event>> deps_;
  _cl_command_queue::Ordering ordering_;
  Task::Work work_;
  cl_event vendor_event_ = nullptr;
  std::function<void(cl_int)> on_later_failure_;
};

}  // namespace unicl
