// UniCL events. An event is either backed by the vendor event of the command
// it stands for, or native to UniCL (user events). Either kind can be waited
// on by commands of any device of the context: `wait_event_in` hands out a
// vendor event valid in the waiting device's slot, bridging across vendors
// with a vendor user event completed from the source's completion callback.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "queue.hpp"

struct _cl_event : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Event;
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);
  _cl_event() : ObjectHeader(kKind) {}

  unicl::Ref<_cl_context> context;
  unicl::Ref<_cl_command_queue> queue;  // null for user events
  cl_command_type type = CL_COMMAND_USER;
  unicl::VendorRef<cl_event> vendor;   // null for user events
  size_t slot = 0;                     // slot of `vendor`

  bool is_user() const { return !vendor; }
  cl_int status();
  // Runs `fn(final_status)` once the event completes or fails.
  void on_complete(std::function<void(cl_int)> fn);
  cl_int set_user_status(cl_int status);
  cl_int add_callback(cl_int type, Callback fn, void *data);
  cl_int wait();

 private:
  struct Pending {
    cl_int type;
    std::function<void(cl_int)> fn;
  };
  std::mutex mutex_;
  std::condition_variable done_;
  cl_int user_status_ = CL_SUBMITTED;
  std::vector<Pending> pending_;
  void add_pending(cl_int type, std::function<void(cl_int)> fn);
};

namespace unicl {

// A vendor event valid in `to_slot` of `ctx` that completes when
// `vendor_event` (of `from_slot`) does.
VendorRef<cl_event> bridge(_cl_context &ctx, cl_event vendor_event, size_t from_slot, size_t to_slot);
VendorRef<cl_event> wait_event_in(cl_event e, size_t slot);

// A UniCL event standing for a command that ran on `q` as `vendor_event`.
Ref<_cl_event> make_command_event(_cl_command_queue *q, cl_command_type type, VendorRef<cl_event> vendor_event);

// Validated wait list translated into vendor events for one slot.
class WaitList {
 public:
  cl_int add_user_list(_cl_context *ctx, size_t slot, cl_uint n, const cl_event *events);
  void add(VendorRef<cl_event> e) {
    if (e) owned_.push_back(std::move(e));
  }
  void add_bridged(_cl_context &ctx, cl_event vendor_event, size_t from, size_t to) {
    if (vendor_event) add(from == to ? VendorRef<cl_event>::share(vendor_event) : bridge(ctx, vendor_event, from, to));
  }
  cl_uint size() const { return static_cast<cl_uint>(owned_.size()); }
  // The list in the form vendor enqueue calls take (null when empty).
  const cl_event *data();

 private:
  std::vector<VendorRef<cl_event>> owned_;
  std::vector<cl_event> raw_;
};

}  // namespace unicl
