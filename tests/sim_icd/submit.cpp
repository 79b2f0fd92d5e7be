#include "submit.hpp"

#include <algorithm>

#include "objects.hpp"

namespace sim {
namespace {

// Commands a device's copy engine runs (config.copy_engine): those that
// move bytes over its link.
bool moves_bytes(cl_command_type t) {
  switch (t) {
    case CL_COMMAND_READ_BUFFER: case CL_COMMAND_WRITE_BUFFER: case CL_COMMAND_COPY_BUFFER:
    case CL_COMMAND_READ_BUFFER_RECT: case CL_COMMAND_WRITE_BUFFER_RECT: case CL_COMMAND_COPY_BUFFER_RECT:
    case CL_COMMAND_READ_IMAGE: case CL_COMMAND_WRITE_IMAGE: case CL_COMMAND_COPY_IMAGE:
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
    case CL_COMMAND_MAP_BUFFER: case CL_COMMAND_MAP_IMAGE: case CL_COMMAND_UNMAP_MEM_OBJECT:
      return true;
    default:
      return false;
  }
}

}  // namespace

cl_int check_wait_list(Context *context, cl_uint n, const cl_event *list) {
  if ((n == 0) != (list == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; ++i) {
    if (!checked(list[i])) return CL_INVALID_EVENT_WAIT_LIST;
    if (remote(list[i])->context.get() != context) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

cl_int submit(Queue *q, cl_uint num_events, const cl_event *wait_list, cl_event *event_out, Submission s,
              bool blocking) {
  if (cl_int err = check_wait_list(q->context.get(), num_events, wait_list); err != CL_SUCCESS) return err;
  Command c;
  for (cl_uint i = 0; i < num_events; ++i) {
    if (blocking && remote(wait_list[i])->status < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    c.dependencies.push_back(remote(wait_list[i])->shared());
  }
  auto ev = create<Event>();
  ev->context = q->context;
  ev->queue = q->shared();
  ev->type = s.type;
  ev->queued = ev->submitted = now_ns();
  ev->status = CL_SUBMITTED;  // no callback can be registered yet: no need for set_status()
  c.event = ev;
  c.seconds = s.seconds;
  c.work = std::move(s.work);
  // `move_bytes no`: the transfer only takes its time. Its memcpy would load
  // the host's cores, which a device's DMA engine does not.
  // (Maps point into the buffer's own memory and move nothing anyway; an
  // unmap's work holds its buffer until it runs.)
  const Config &config = platform()->config;
  if (!config.correctness && !config.move_bytes && moves_bytes(s.type) && s.type != CL_COMMAND_MAP_BUFFER &&
      s.type != CL_COMMAND_MAP_IMAGE && s.type != CL_COMMAND_UNMAP_MEM_OBJECT)
    c.work = nullptr;
  {
    std::lock_guard lock(q->mutex);
    auto &unfinished = q->unfinished;
    unfinished.erase(std::remove_if(unfinished.begin(), unfinished.end(),
                                    [](const auto &w) {
                                      auto e = w.lock();
                                      return !e || e->done();
                                    }),
                     unfinished.end());
    auto add = [&c](const std::weak_ptr<Event> &w) {
      if (auto e = w.lock(); e && !e->done()) c.dependencies.push_back(e);
    };
    if (q->in_order()) {
      add(q->last);  // which already waits for everything before it
    } else {
      add(q->barrier);
      if (s.ordering != Ordering::command && num_events == 0)
        for (const auto &w : unfinished) add(w);
    }
    q->last = ev;
    if (s.ordering == Ordering::barrier) q->barrier = ev;
    unfinished.push_back(ev);
    auto &engine = q->device->config.copy_engine && moves_bytes(s.type) ? q->device->copier : q->device->worker;
    engine.submit(std::move(c));
  }
  if (event_out) *event_out = hand_out(ev);
  if (!blocking) return CL_SUCCESS;
  ev->wait();
  return ev->status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

}  // namespace sim
