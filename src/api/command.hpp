// What every enqueue entry point does around its vendor call: validates the
// wait list and memory objects, then runs the call.
//
// One-device contexts: the call runs at once on the queue's vendor queue,
// with handles and events translated (plain pass-through).
// Multi-device contexts: the command becomes a task (task.hpp). When it is
// planned (under the context lock), its memory objects are made valid on
// its device (transfers planned) and its accesses recorded for coherence;
// the call is issued after the lock is released, with that device's
// replicas. The call may therefore run later, from another thread: it
// must own copies of everything it reads.
#pragma once
#include <array>
#include <mutex>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "backend/vendor_commands.hpp"
#include "core/event.hpp"
#include "memory/coherence.hpp"
#include "core/refusal.hpp"

namespace unicl {

// One vendor call of a command, as the call sees it.
struct VendorCall {
  cl_command_queue vq;
  size_t slot;
  bool multi;
  bool deferred;  // running after the enqueue call returned
  WaitList *wait;
  cl_event *event;
  std::span<const cl_mem> mems;  // vendor handles, in the order of use()

  VendorEnqueue on() const { return {vq, wait->size(), wait->data(), event}; }
  cl_mem mem(size_t i) const { return mems[i]; }
  // Multi-device contexts never block inside the vendor: the enqueue call
  // waits for the task after releasing the context lock.
  cl_bool blocking(cl_bool b) const { return multi ? CL_FALSE : b; }
};

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

// The bytes of a memory object a command touches (multi-device contexts
// move and order only those): [offset, offset + size) of the object, all
// of it by default; `overwritten` when the command writes every one of
// them, so their old contents need not be moved in first.
struct Touched {
  size_t offset = 0;
  size_t size = kWhole;
  bool overwritten = false;
};

// Vendor handles of a command's memory objects: a few inline, so that a
// launch in a one-device context allocates nothing for them.
class MemList {
 public:
  void push_back(cl_mem m) {
    if (more_.empty() && count_ < few_.size()) {
      few_[count_++] = m;
      return;
    }
    if (more_.empty()) more_.assign(few_.begin(), few_.begin() + static_cast<std::ptrdiff_t>(count_));
    more_.push_back(m);
  }
  std::span<const cl_mem> view() const {
    return more_.empty() ? std::span<const cl_mem>(few_.data(), count_) : std::span<const cl_mem>(more_);
  }

 private:
  std::array<cl_mem, 8> few_{};
  size_t count_ = 0;
  std::vector<cl_mem> more_;
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
  void follow_all(bool barrier) {
    follow_all_ = true;
    barrier_ = barrier;
  }
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
    // The implied uses go last: the call's memory arguments are uses_'s.
    uses_.insert(uses_.end(), implied_.begin(), implied_.end());
    return run_task(Task::Plan(make_plan(std::forward<Call>(call))), event, blocking);
  }

 private:
  struct Use {
    Ref<_cl_mem> mem;
    Access access;
    bool host;
    Access recorded;
    ByteRange range;  // the bytes touched, in the root buffer (root_range)
    bool overwritten;
  };
  // The task's plan: prepares and records the uses on the slot, then hands
  // the call, with the device copies it needs, to the issue step.
  template <class Call>
  auto make_plan(Call call) {
    return [uses = uses_, call = std::move(call)](size_t slot, WaitList &wait, const std::shared_ptr<Completion> &done,
                                                  Task::Issue &issue) mutable -> cl_int {
      std::vector<std::shared_ptr<DeviceCopy>> copies;
      if (cl_int err = prepare(uses, slot, wait, copies); err != CL_SUCCESS) return err;
      record_all(uses, slot, done);
      issue = [copies = std::move(copies), call = std::move(call)](size_t slot, cl_command_queue vq, WaitList &wait,
                                                                  bool deferred, cl_event *out) mutable -> cl_int {
        MemList mems;
        for (auto &c : copies) {
          if (c && !c->get()) return c->error.load();  // the vendor refused to make it
          mems.push_back(c ? c->get() : nullptr);
        }
        VendorCall l{vq, slot, true, deferred, &wait, out, mems.view()};
        return call(l);
      };
      return CL_SUCCESS;
    };
  }
  static cl_int prepare(std::vector<Use> &uses, size_t slot, WaitList &wait,
                        std::vector<std::shared_ptr<DeviceCopy>> &copies);
  static void record_all(std::vector<Use> &uses, size_t slot, const std::shared_ptr<Completion> &done);
  cl_int run_task(Task::Plan plan, cl_event *event, cl_bool blocking);
  cl_int finish(cl_int err, cl_event *event);
  static bool tracing();

  _cl_command_queue *q_;
  _cl_context &ctx_;
  cl_command_type type_;
  std::optional<ContextLock> lock_;  // multi-device contexts
  WaitList wait_;
  MemList mems_;              // one-device contexts
  std::vector<Use> uses_;     // multi-device contexts
  // Uses the command's objects imply (an image's buffer), appended to
  // uses_ when it runs: the call's memory arguments (VendorCall::mem) are
  // the explicit uses, in order.
  std::vector<Use> implied_;
  std::vector<Ref<_cl_event>> deps_;
  bool follow_all_ = false, barrier_ = false;
  Task::Work work_;
  cl_event vendor_event_ = nullptr;
  std::function<void(cl_int)> on_later_failure_;
};

}  // namespace unicl
