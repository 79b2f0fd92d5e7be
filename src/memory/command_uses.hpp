// The memory objects a command of a multi-device context uses, and what
// coherence does for them: when the command is planned on a slot, each is
// made valid there (transfers planned, in the order of the uses) and its
// accesses recorded as the command's; the command's vendor call then gets
// that slot's copies (VendorCall::mem, in the order the command named them).
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "core/task.hpp"
#include "core/vendor_call.hpp"
#include "memory/coherence.hpp"

namespace unicl {

// The bytes of a memory object a command touches (multi-device contexts
// move and order only those): [offset, offset + size) of the object, all
// of it by default; `overwritten` when the command writes every one of
// them, so their old contents need not be moved in first.
struct Touched {
  size_t offset = 0;
  size_t size = kWhole;
  bool overwritten = false;
};

class CommandUses {
 public:
  // The command reads or writes `m` on its device (`m` checked: live, of
  // the command's context).
  void add(_cl_mem *m, Access access, Touched touched);
  // The command touches the host copy of `m`; it waits as for `access`,
  // and is recorded as `recorded` (a map reads the host copy, the
  // application's writes count at unmap).
  void add_host(_cl_mem *m, Access access, Access recorded, Touched touched);
  // What a scheduling policy sees of them.
  std::vector<std::pair<_cl_mem *, unsigned>> buffers() const;  // with their Access

  // The task's plan: prepares and records the uses on the slot, then hands
  // `call(VendorCall&) -> cl_int`, with the device copies it needs, to the
  // issue step. The uses an object implies (an image's buffer) go last.
  template <class Call>
  Task::Plan plan(Call call) {
    std::vector<Use> uses = uses_;
    uses.insert(uses.end(), implied_.begin(), implied_.end());
    return [uses = std::move(uses), call = std::move(call)](size_t slot, WaitList &wait,
                                                            const std::shared_ptr<Completion> &done,
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

 private:
  struct Use {
    Ref<_cl_mem> mem;
    Access access;
    bool host;
    Access recorded;
    ByteRange range;  // the bytes touched, in the root buffer (root_range)
    bool overwritten;
  };
  static cl_int prepare(std::vector<Use> &uses, size_t slot, WaitList &wait,
                        std::vector<std::shared_ptr<DeviceCopy>> &copies);
  static void record_all(std::vector<Use> &uses, size_t slot, const std::shared_ptr<Completion> &done);

  std::vector<Use> uses_;
  // Uses the command's objects imply (an image's buffer), appended when the
  // plan is made: the call's memory arguments are the explicit uses, in order.
  std::vector<Use> implied_;
};

}  // namespace unicl
