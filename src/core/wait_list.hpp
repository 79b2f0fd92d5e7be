// What a command waits for, in the form its vendor call takes: the
// application's wait list and, in multi-device contexts, the work it
// depends on, on the command's own device (or the other device's work it
// must not be planned before).
#pragma once
#include <memory>
#include <vector>

#include "backend/completion.hpp"
#include "backend/vendor.hpp"

struct _cl_context;

namespace unicl {

// Validated wait list translated into vendor events for one slot.
class WaitList {
 public:
  // Checks an application wait list; for one-device contexts also adds it.
  cl_int add_user_list(_cl_context *ctx, cl_uint n, const cl_event *events);
  void add(VendorRef<cl_event> e) {
    if (e) owned_.push_back(std::move(e));
    resolved_ = false;
  }
  // What a command on slot `to` must follow, done on slot `from`: on the
  // same device the vendor orders it (it joins the list; planned earlier
  // on that device, it is issued earlier, so its vendor event exists by
  // the time the list is read); another device's work that is not done
  // yet becomes the blocker: the command must not be planned before it is
  // (see task.hpp).
  void add_from(const std::shared_ptr<Completion> &done, size_t from, size_t to);
  // Work already issued to a device whose events the command's vendor
  // takes (_cl_context::events_reach): it joins the list as the same
  // device's work does.
  void add_issued(const std::shared_ptr<Completion> &done) {
    same_device_.push_back(done);
    resolved_ = false;
  }
  // Work on the same device the command only runs after, with no data
  // between them (Task::take_turn): its vendor event joins the list;
  // refused before it reached the device, it is left out and fails nothing.
  void add_order(const std::shared_ptr<Completion> &done) {
    ordered_after_.push_back(done);
    resolved_ = false;
  }
  void block_on(std::shared_ptr<Completion> done, size_t slot) {
    if (blocker_) return;
    blocker_ = std::move(done);
    blocker_slot_ = slot;
  }
  bool blocked() const { return static_cast<bool>(blocker_); }
  const std::shared_ptr<Completion> &blocker() const { return blocker_; }
  size_t blocker_slot() const { return blocker_slot_; }
  // The list in the form vendor enqueue calls take (null when empty). Read
  // when the command is issued: work that was refused before reaching its
  // device ran nothing to wait for and is left out.
  cl_uint size();
  const cl_event *data();
  // When read: the error of work on the same device that failed before
  // reaching it (a transfer the command needs), else CL_SUCCESS.
  cl_int failed();

 private:
  void resolve();
  std::vector<VendorRef<cl_event>> owned_;
  std::vector<std::shared_ptr<Completion>> same_device_;
  std::vector<std::shared_ptr<Completion>> ordered_after_;
  std::vector<cl_event> raw_;
  bool resolved_ = false;
  cl_int failed_ = CL_SUCCESS;
  std::shared_ptr<Completion> blocker_;
  size_t blocker_slot_ = 0;
};

}  // namespace unicl
