// From an enqueue call to a command on the device's worker: the wait list
// checks, the command's event, and the ordering the queue imposes.
#pragma once

#include <functional>

#include "cl.hpp"

namespace sim {

struct Context;
struct Queue;

enum class Ordering {
  command,  // waits for its wait list (and, in-order, the previous command)
  marker,   // with an empty wait list: waits for everything enqueued before it
  barrier,  // a marker that every later command of the queue waits for
};

struct Submission {
  cl_command_type type;
  double seconds = 0;              // modeled duration, time_scale applied
  std::function<cl_int()> work;    // the real part (see Command::work); may be empty
  Ordering ordering = Ordering::command;
};

// CL_SUCCESS or the spec's error for a wait list given to a command of `context`.
cl_int check_wait_list(Context *context, cl_uint n, const cl_event *list);

// Enqueues on q (which the caller has checked). With `blocking`, returns once
// the command is complete; CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it failed.
cl_int submit(Queue *q, cl_uint num_events, const cl_event *wait_list, cl_event *event_out, Submission s,
              bool blocking = false);

}  // namespace sim
