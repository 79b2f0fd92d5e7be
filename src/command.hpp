// What every enqueue entry point does around the vendor call: validates the
// wait list and memory objects, translates them to the queue's device slot,
// keeps buffers coherent in multi-device contexts, and wraps the resulting
// vendor event.
#pragma once
#include <mutex>
#include <vector>

#include "event.hpp"
#include "memory.hpp"

namespace unicl {

class Command {
 public:
  explicit Command(_cl_command_queue *q) : q_(q), ctx_(*q->context), slot_(q->slot) {
    if (ctx_.multi()) lock_ = std::unique_lock(ctx_.mutex);
  }
  Command(const Command &) = delete;
  Command &operator=(const Command &) = delete;

  cl_int wait_for(cl_uint n, const cl_event *events) { return wait_.add_user_list(&ctx_, slot_, n, events); }
  // Validates `m` for this queue and gives the vendor object to pass on.
  cl_int use(cl_mem m, Access access, cl_mem &vendor_mem);
  // use() for commands that take a buffer (or an image) only.
  cl_int use_buffer(cl_mem m, Access access, cl_mem &vendor_mem) {
    if (live(m) && m->is_image()) return CL_INVALID_MEM_OBJECT;
    return use(m, access, vendor_mem);
  }
  cl_int use_image(cl_mem m, Access access, cl_mem &vendor_mem) {
    if (live(m) && !m->is_image()) return CL_INVALID_MEM_OBJECT;
    return use(m, access, vendor_mem);
  }
  // Multi-device contexts: the host copy is what the command touches (map).
  cl_int use_host(cl_mem m, Access access);

  cl_command_queue vq() const { return q_->vendor.get(); }
  const cl_icd_dispatch &vendor() const { return vd(q_->vendor.get()); }
  cl_uint num_wait() const { return wait_.size(); }
  const cl_event *wait_list() { return wait_.data(); }
  bool multi() const { return ctx_.multi(); }
  size_t slot() const { return slot_; }
  // Where the vendor writes its event: UniCL needs one when the application
  // asked for it or when coherence tracking must record the command.
  cl_event *event_out(cl_event *user_event) { return (user_event || multi()) ? &vendor_event_ : nullptr; }
  // Finishes the command after the vendor call returned `err`.
  cl_int finish(cl_int err, cl_event *user_event, cl_command_type type);
  // Records the finished command as an access of the host copy of `m`.
  void record_host_access(cl_mem m, Access access) { record_host(m, access, vendor_event_, slot_); }
  cl_event vendor_event() const { return vendor_event_; }

 private:
  _cl_command_queue *q_;
  _cl_context &ctx_;
  size_t slot_;
  std::unique_lock<std::mutex> lock_;
  WaitList wait_;
  std::vector<std::pair<cl_mem, Access>> uses_;
  cl_event vendor_event_ = nullptr;
};

}  // namespace unicl
