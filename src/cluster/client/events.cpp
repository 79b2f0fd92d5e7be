// The node client's events: rank 0 names each command's event before asking
// the node (so the node's report of its end always finds it), keeps its
// status, times and callbacks, and learns of its end from the node's
// reports (protocol/messages.hpp, EventEnded), handled on the communication thread;
// callbacks run on the client's callback thread.
//
// Which ends the node reports at once (kPrompt) and which it may gather:
// a command is sent prompt when someone will wait for it (a blocking call,
// an event handed out, or its queue was waited for since its previous
// command); a wait for the others asks for them (want_ends, kReportNow).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <unordered_map>

#include "cluster/protocol/idle_backoff.hpp"
#include "cluster/client/objects.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/client/refusal.hpp"
#include "cluster/protocol/steady_clock.hpp"

namespace unicl::cluster {
namespace {

struct InFlight {
  std::mutex mutex;
  std::unordered_map<uint64_t, RemoteEvent *> events;  // each holds a reference until its end
};
InFlight &in_flight() {
  static InFlight *f = std::make_unique<InFlight>().release();  // immortal, as the proxies' registry
  return *f;
}

// Sets `e`'s final status, wakes its waiters and runs the client's own
// hooks; returns the application's callbacks it reached, for the caller to
// run.
std::vector<RemoteEvent::Callback> complete(RemoteEvent *e, cl_int status) {
  std::vector<RemoteEvent::Callback> due;
  std::vector<std::function<void(cl_int)>> hooks;
  {
    std::lock_guard lock(e->mutex);
    e->status = status;
    due.swap(e->callbacks);
    hooks.swap(e->on_end);
  }
  e->changed.notify_all();
  for (auto &fn : hooks) fn(status);
  return due;
}

void run_callbacks(RemoteEvent *e, cl_int status, const std::vector<RemoteEvent::Callback> &due) {
  for (auto &c : due) c.fn(handle(e), status < 0 ? status : CL_COMPLETE, c.user_data);
}

// `e` (a command of `q`) has ended or failed: one less in flight.
void leaves_queue(RemoteQueue *q, RemoteEvent *e, bool was_prompt) {
  {
    std::lock_guard lock(q->mutex);
    --q->in_flight;
    if (!was_prompt) --q->unprompted;
    std::erase(q->host_fills, e);
  }
  q->ended.notify_all();
}

}  // namespace

RemoteEvent *new_command_event(RemoteQueue *queue, cl_command_type type, Promptness promptness) {
  auto *e = make_proxy<RemoteEvent>(ObjectKind::kEvent, queue->rank);
  e->context = queue->context, e->queue = queue, e->type = type;
  retain(queue->context), retain(queue);
  retain(e);  // the in-flight reference, dropped at its end
  bool prompt = false;
  {
    std::lock_guard lock(queue->mutex);
    prompt = promptness == Promptness::kPrompt || (promptness == Promptness::kAfterWait && queue->waited);
    if (promptness != Promptness::kHeld) queue->waited = false;
    ++queue->in_flight;
    if (!prompt) ++queue->unprompted;
    if (fills_host(type)) queue->host_fills.push_back(e);
  }
  e->prompt = prompt;
  {
    std::lock_guard lock(in_flight().mutex);
    in_flight().events[e->id] = e;
  }
  expect_event(queue->rank);
  return e;
}

bool fills_host(cl_command_type type) {
  return type == CL_COMMAND_READ_BUFFER || type == CL_COMMAND_READ_BUFFER_RECT || type == CL_COMMAND_READ_IMAGE ||
         type == CL_COMMAND_MAP_BUFFER || type == CL_COMMAND_MAP_IMAGE;
}

void when_ended(RemoteEvent *e, std::function<void(cl_int)> fn) {
  cl_int status = CL_COMPLETE;
  {
    std::lock_guard lock(e->mutex);
    status = e->status;
    if (status > CL_COMPLETE) {
      e->on_end.push_back(std::move(fn));
      return;
    }
  }
  fn(status);
}

void want_ends(RemoteQueue *queue) {
  size_t asked = 0;
  {
    std::lock_guard lock(in_flight().mutex);
    for (auto &[id, e] : in_flight().events)
      if (e->queue == queue && !e->prompt) e->prompt = true, ++asked;
  }
  {
    std::lock_guard lock(queue->mutex);
    queue->unprompted -= asked;
    queue->waited = true;
  }
  if (!asked) return;
  Writer w;
  write(w, ReportNow{queue->id});
  post(queue->rank, Op::kReportNow, w);
}

void forget_command_event(RemoteEvent *e) {
  // The in-flight reference is this call's to drop only if no one took the
  // event meanwhile (a lost node's failure, on the communication thread).
  bool still_in_flight = false, was_prompt = false;
  {
    std::lock_guard lock(in_flight().mutex);
    still_in_flight = in_flight().events.erase(e->id) > 0;
    was_prompt = e->prompt;
  }
  if (still_in_flight) {
    leaves_queue(e->queue, e, was_prompt);
    release(e);
  }
  release(e);  // the enqueue's own
}

void fail_events_of(int rank, cl_int status) {
  std::vector<std::pair<RemoteEvent *, bool>> lost;  // and whether it was sent prompt
  {
    std::lock_guard lock(in_flight().mutex);
    for (auto it = in_flight().events.begin(); it != in_flight().events.end();) {
      RemoteEvent *e = it->second;
      if (e->rank == rank || e->peer_source == rank) lost.emplace_back(e, e->prompt), it = in_flight().events.erase(it);
      else ++it;
    }
  }
  for (auto [e, was_prompt] : lost) {
    // A copy from the lost node: its receiver's write would wait forever
    // for the bytes (and its queue behind it).
    if (e->rank != rank) {
      Writer w;
      write(w, PeerCancel{e->id, status});
      post(e->rank, Op::kPeerCancel, w);
    }
    auto due = complete(e, status);
    leaves_queue(e->queue, e, was_prompt);
    run_later([e, status, due = std::move(due)] {
      run_callbacks(e, status, due);
      release(e);
    });
  }
}

void *read_destination(uint64_t id, size_t size) {
  std::lock_guard lock(in_flight().mutex);
  auto it = in_flight().events.find(id);
  if (it == in_flight().events.end()) return nullptr;
  RemoteEvent *e = it->second;
  return e->read_into && e->read_size >= size ? e->read_into : nullptr;
}

// A transfer's times as this rank sees them: the node times its vendor's
// command, but the bytes also cross the network. A write that started as
// its node received it began when its bytes left here; a read into this
// rank's memory ends when its bytes are here. (Timed on the node alone, a
// 4 KiB write or read to a node took about a microsecond, and the transfer
// planner took the route through this rank between two nodes for nearly
// free: bench-cluster's moves between nodes went that way in some runs, at
// twice the time of the direct copy.)
namespace {
EventEnded timed_here(const RemoteEvent &e, EventEnded t) {
  if (t.status < 0 || !t.end) return t;
  constexpr cl_ulong kStartedAtOnce = 50'000;  // ns from its arrival on the node to its start
  if (e.posted_ns && t.start >= t.queued && t.start - t.queued < kStartedAtOnce) t.start_at(e.posted_ns);
  if (fills_host(e.type)) t.end = std::max<cl_ulong>(t.end, steady_ns());
  return t;
}
}  // namespace

void event_ended(const EventEnded &reported, const char *bytes, size_t size) {
  RemoteEvent *e = nullptr;
  bool was_prompt = false;
  {
    std::lock_guard lock(in_flight().mutex);
    auto it = in_flight().events.find(reported.id);
    if (it == in_flight().events.end()) return;
    e = it->second;
    was_prompt = e->prompt;
    in_flight().events.erase(it);
  }
  const EventEnded ended = timed_here(*e, reported);
  // On the communication thread: the bytes are in place (a plain read's
  // were received there; a rectangle is unpacked here), then the status is
  // set and waiters wake; callbacks, which may call OpenCL, run on the
  // callback thread.
  if (e->deliver && ended.status >= 0 && bytes && size) e->deliver(bytes, size);
  {
    std::lock_guard lock(e->mutex);
    e->times[0] = ended.queued, e->times[1] = ended.submit, e->times[2] = ended.start, e->times[3] = ended.end;
  }
  auto due = complete(e, ended.status);
  leaves_queue(e->queue, e, was_prompt);
  run_later([e, status = ended.status, due = std::move(due)] {
    run_callbacks(e, status, due);
    release(e);
  });
}

}  // namespace unicl::cluster

namespace unicl::api {
using namespace unicl::cluster;

cl_event CL_API_CALL clCreateUserEvent(cl_context c_handle, cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext)) {
    if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  if (node_lost(c->rank)) {
    if (errcode_ret) *errcode_ret = CL_DEVICE_NOT_AVAILABLE;
    return nullptr;
  }
  auto *e = make_proxy<RemoteEvent>(ObjectKind::kEvent, c->rank);
  e->context = c, e->status = CL_SUBMITTED;
  retain(c);
  Writer w;
  write(w, CreateUserEvent{e->id, c->id});
  post(c->rank, Op::kCreateUserEvent, w);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return handle(e);
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event e_handle, cl_int status) {
  auto *e = remote(e_handle);
  if (!live(e, ObjectKind::kEvent) || e->queue) return cluster::refuse(CL_INVALID_EVENT, "event is not a live user event of the node client");
  if (status > CL_COMPLETE) return cluster::refuse(CL_INVALID_VALUE, "status > CL_COMPLETE");
  {
    std::lock_guard lock(e->mutex);
    if (e->status <= CL_COMPLETE) return cluster::refuse(CL_INVALID_OPERATION, "the user event's status was already set");
  }
  Writer w;
  write(w, SetUserEventStatus{e->id, status});
  if (!post(e->rank, Op::kSetUserEventStatus, w)) return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the user event's node could not be reached");
  run_callbacks(e, status, complete(e, status));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *events) {
  if (!n || !events) return cluster::refuse(CL_INVALID_VALUE, "no events (num_events is 0 or event_list NULL)");
  for (cl_uint i = 0; i < n; ++i)
    if (!live(events[i], ObjectKind::kEvent)) return cluster::refuse(CL_INVALID_EVENT, "an event of the list is not a live event of the node client");
  // The ends the nodes may still hold are asked for, once per queue.
  std::vector<RemoteQueue *> asked;
  for (cl_uint i = 0; i < n; ++i) {
    RemoteQueue *q = remote(events[i])->queue;
    if (!q || std::find(asked.begin(), asked.end(), q) != asked.end()) continue;
    asked.push_back(q);
    want_ends(q);
  }
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < n; ++i) {
    RemoteEvent *e = remote(events[i]);
    std::unique_lock lock(e->mutex);
    wait_briefly_spinning(lock, e->changed, [&] { return e->status <= CL_COMPLETE; }, kCallerSpin);
    if (e->status < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return result;
}

cl_int CL_API_CALL clGetEventInfo(cl_event e_handle, cl_event_info param, size_t size, void *value, size_t *size_ret) {
  auto *e = remote(e_handle);
  if (!live(e, ObjectKind::kEvent)) return cluster::refuse(CL_INVALID_EVENT, "event is NULL or not a live event of the node client");
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE: return answer_value(handle(e->queue), size, value, size_ret);
    case CL_EVENT_CONTEXT: return answer_value(handle(e->context), size, value, size_ret);
    case CL_EVENT_COMMAND_TYPE: return answer_value(e->type, size, value, size_ret);
    case CL_EVENT_REFERENCE_COUNT: return answer_value(e->refs.load(), size, value, size_ret);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
      std::lock_guard lock(e->mutex);
      return answer_value(e->status, size, value, size_ret);
    }
    default: return cluster::refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e_handle, cl_profiling_info param, size_t size, void *value,
                                           size_t *size_ret) {
  auto *e = remote(e_handle);
  if (!live(e, ObjectKind::kEvent)) return cluster::refuse(CL_INVALID_EVENT, "event is NULL or not a live event of the node client");
  if (!e->queue || !(e->queue->properties & CL_QUEUE_PROFILING_ENABLE)) return cluster::refuse(CL_PROFILING_INFO_NOT_AVAILABLE, "a user event, or its queue does not profile (CL_QUEUE_PROFILING_ENABLE)");
  std::lock_guard lock(e->mutex);
  if (e->status != CL_COMPLETE) return cluster::refuse(CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed");
  switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: return answer_value(e->times[0], size, value, size_ret);
    case CL_PROFILING_COMMAND_SUBMIT: return answer_value(e->times[1], size, value, size_ret);
    case CL_PROFILING_COMMAND_START: return answer_value(e->times[2], size, value, size_ret);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: return answer_value(e->times[3], size, value, size_ret);
    default: return cluster::refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clSetEventCallback(cl_event e_handle, cl_int type, void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                      void *user_data) {
  auto *e = remote(e_handle);
  if (!live(e, ObjectKind::kEvent)) return cluster::refuse(CL_INVALID_EVENT, "event is NULL or not a live event of the node client");
  if (!fn || (type != CL_COMPLETE && type != CL_SUBMITTED && type != CL_RUNNING)) return cluster::refuse(CL_INVALID_VALUE, "pfn_notify is NULL, or command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
  std::unique_lock lock(e->mutex);
  if (e->status > CL_COMPLETE) {
    // Only the end is reported: earlier levels are reached with it.
    e->callbacks.push_back({type, fn, user_data});
    return CL_SUCCESS;
  }
  const cl_int status = e->status;
  lock.unlock();
  // Reached already: run it from the callback thread, never inside this call.
  retain(e);
  run_later([e, fn, user_data, status] {
    fn(handle(e), status < 0 ? status : CL_COMPLETE, user_data);
    release(e);
  });
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return retain_handle<ObjectKind::kEvent, CL_INVALID_EVENT>(event);
}
cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return release_handle<ObjectKind::kEvent, CL_INVALID_EVENT>(event);
}

}  // namespace unicl::api
