// One vendor call of a command, as the call sees it: the vendor queue and
// slot it runs on, what it waits for, the event it makes and its memory
// objects' vendor handles.
#pragma once
#include <array>
#include <span>
#include <vector>

#include "backend/vendor_commands.hpp"
#include "core/wait_list.hpp"

namespace unicl {

struct VendorCall {
  cl_command_queue vq;
  size_t slot;
  bool multi;
  bool deferred;  // running after the enqueue call returned
  WaitList *wait;
  cl_event *event;
  std::span<const cl_mem> mems;  // vendor handles, in the order the command named its memory objects

  VendorEnqueue on() const { return {vq, wait->size(), wait->data(), event}; }
  cl_mem mem(size_t i) const { return mems[i]; }
  // Multi-device contexts never block inside the vendor: the enqueue call
  // waits for the task after releasing the context lock.
  cl_bool blocking(cl_bool b) const { return multi ? CL_FALSE : b; }
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

}  // namespace unicl
