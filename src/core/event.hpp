// UniCL events. An event stands for a command of a one-device context (its
// vendor event), a command of a multi-device context (a task of the task
// graph, see task.hpp), or is native to UniCL (user events).
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "core/division.hpp"
#include "core/queue.hpp"
#include "core/task.hpp"
#include "core/wait_list.hpp"

struct _cl_event : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Event;
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);
  _cl_event() : ObjectHeader(kKind) {}

  unicl::Ref<_cl_context> context;
  unicl::Ref<_cl_command_queue> queue;  // null for user events
  cl_command_type type = CL_COMMAND_USER;
  unicl::VendorRef<cl_event> vendor;   // commands of one-device contexts
  std::shared_ptr<unicl::Task> task;   // commands of multi-device contexts
  // A divided launch (division.hpp): the event stands for all its pieces.
  std::shared_ptr<unicl::DivisionRecord> division;

  bool is_user() const { return !vendor && !task; }
  cl_int status();
  // Runs `fn(final_status)` once the event completes or fails.
  void on_complete(std::function<void(cl_int)> fn);
  cl_int set_user_status(cl_int status);
  cl_int add_callback(cl_int type, Callback fn, void *data);
  cl_int wait();

 private:
  // A failed divided launch reports its own error rather than its gate's.
  cl_int division_status(cl_int s) const;
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

// What a command of a one-device context waits for to follow UniCL event e:
// its vendor event, or for a user event a vendor user event completed with it.
cl_int wait_event_in(cl_event e, VendorRef<cl_event> &out);

// A UniCL event standing for a command that ran on `q` as `vendor_event`,
// or for the task of a multi-device context.
Ref<_cl_event> make_command_event(_cl_command_queue *q, cl_command_type type, VendorRef<cl_event> vendor_event);
Ref<_cl_event> make_task_event(_cl_command_queue *q, cl_command_type type, std::shared_ptr<Task> task);

}  // namespace unicl
