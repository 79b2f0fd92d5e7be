// The node client's contexts, queues and samplers. Creations are checked
// here, against what the node described of its device, and posted (the
// node keeps a failed creation's error for the commands that use it);
// what rank 0 knows (the objects one belongs to, references) is answered
// here, the rest by the node.
#include "cluster/protocol/idle_backoff.hpp"
#include "cluster/client/objects.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
using namespace unicl::cluster;

// ---- contexts ----------------------------------------------------------------

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices, void(CL_CALLBACK *)(const char *, const void *,
                                                                                       size_t, void *),
                                       void *, cl_int *errcode_ret) {
  if (!devices || num_devices == 0)
    return refused<cl_context>(errcode_ret, CL_INVALID_VALUE, "devices is NULL or num_devices is 0");
  // UniCL makes one vendor context per device; a context of several devices
  // of one node would need the node to make one too (not yet).
  if (num_devices != 1)
    return refused<cl_context>(errcode_ret, CL_INVALID_OPERATION, "a context of a node's devices holds one device");
  auto *device = remote(devices[0]);
  if (!is_device(device))
    return refused<cl_context>(errcode_ret, CL_INVALID_DEVICE, "devices[0] is not a device of the node client");
  if (node_lost(device->rank)) return refused<cl_context>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *c = make_proxy<RemoteContext>(ObjectKind::kContext, device->rank);
  c->device = device;
  if (properties) {
    size_t n = 0;
    while (properties[n]) n += 2;
    c->properties.assign(properties, properties + n + 1);
  }
  Writer w;
  write(w, CreateContext{c->id, device->handle});
  post(c->rank, Op::kCreateContext, w);
  return fail(errcode_ret, CL_SUCCESS, handle(c));
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  return retain_handle<ObjectKind::kContext, CL_INVALID_CONTEXT>(context);
}
cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return release_handle<ObjectKind::kContext, CL_INVALID_CONTEXT>(context);
}

cl_int CL_API_CALL clGetContextInfo(cl_context c_handle, cl_context_info param, size_t size, void *value,
                                    size_t *size_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext)) return cluster::refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context of the node client");
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return answer_value(c->refs.load(), size, value, size_ret);
    case CL_CONTEXT_NUM_DEVICES: return answer_value(cl_uint{1}, size, value, size_ret);
    case CL_CONTEXT_DEVICES: return answer_value(handle(c->device), size, value, size_ret);
    case CL_CONTEXT_PROPERTIES:
      return answer(c->properties.data(), c->properties.size() * sizeof(cl_context_properties), size, value,
                    size_ret);
    default: return node_info(c, ObjectKind::kContext, param, 0, size, value, size_ret);
  }
}

// ---- queues ------------------------------------------------------------------

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context c_handle, cl_device_id device_handle,
                                                  cl_command_queue_properties properties, cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  auto *device = remote(device_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT,
                                     "context is NULL or not a live context of the node client");
  if (device != c->device)
    return refused<cl_command_queue>(errcode_ret, CL_INVALID_DEVICE, "device is not the context's device");
  constexpr cl_command_queue_properties kKnown = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if (properties & ~kKnown)
    return refused<cl_command_queue>(errcode_ret, CL_INVALID_VALUE, "properties has bits no queue property names");
  const auto supported = device->value<cl_command_queue_properties>(CL_DEVICE_QUEUE_PROPERTIES, kKnown);
  if (properties & ~supported)
    return refused<cl_command_queue>(errcode_ret, CL_INVALID_QUEUE_PROPERTIES,
                                     "the device does not support these queue properties");
  if (node_lost(c->rank)) return refused<cl_command_queue>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *q = make_proxy<RemoteQueue>(ObjectKind::kQueue, c->rank);
  q->context = c, q->device = device, q->properties = properties;
  retain(c);
  Writer w;
  write(w, CreateQueue{q->id, c->id, device->handle, properties});
  post(c->rank, Op::kCreateQueue, w);
  return fail(errcode_ret, CL_SUCCESS, handle(q));
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties *properties,
                                                                cl_int *errcode_ret) {
  cl_command_queue_properties bits = 0;
  for (size_t i = 0; properties && properties[i]; i += 2) {
    if (properties[i] == CL_QUEUE_PROPERTIES) bits = properties[i + 1];
    else return refused<cl_command_queue>(errcode_ret, CL_INVALID_QUEUE_PROPERTIES,
                                          "a queue property other than CL_QUEUE_PROPERTIES (on-device queues are not offered)");
  }
  return api::clCreateCommandQueue(context, device, bits, errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return retain_handle<ObjectKind::kQueue, CL_INVALID_COMMAND_QUEUE>(command_queue);
}
// The spec's implicit flush on release is the node's: it flushes a queue
// when told it goes.
cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  return release_handle<ObjectKind::kQueue, CL_INVALID_COMMAND_QUEUE>(command_queue);
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q_handle, cl_command_queue_info param, size_t size,
                                         void *value,
                                         size_t *size_ret) {
  auto *q = remote(q_handle);
  if (!live(q, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  switch (param) {
    case CL_QUEUE_CONTEXT: return answer_value(handle(q->context), size, value, size_ret);
    case CL_QUEUE_DEVICE: return answer_value(handle(q->device), size, value, size_ret);
    case CL_QUEUE_REFERENCE_COUNT: return answer_value(q->refs.load(), size, value, size_ret);
    case CL_QUEUE_PROPERTIES: return answer_value(q->properties, size, value, size_ret);
    default: return node_info(q, ObjectKind::kQueue, param, 0, size, value, size_ret);
  }
}

// Nothing to send: the node submits each batch of commands as it comes (it
// flushes the queues that got some once a batch is done). UniCL flushes a
// device's queue each time its worker stops issuing; a message per flush
// would double a stream's messages.
cl_int CL_API_CALL clFlush(cl_command_queue q_handle) {
  auto *q = remote(q_handle);
  return live(q, ObjectKind::kQueue) ? CL_SUCCESS
                                     : cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
}

cl_int CL_API_CALL clFinish(cl_command_queue q_handle) {
  auto *q = remote(q_handle);
  if (!live(q, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  // The commands sent without an event since the last wait end before a
  // marker after them, which is followed as any command.
  bool untracked = false;
  {
    std::lock_guard lock(q->mutex);
    untracked = q->untracked > 0;
    q->untracked = 0;
  }
  if (untracked) {
    cl_event marker = nullptr;
    if (cl_int err = api::clEnqueueMarkerWithWaitList(q_handle, 0, nullptr, &marker); err != CL_SUCCESS) return err;
    release(remote(marker));  // followed until its end all the same
  }
  // Every command followed reports its end: waiting for those is the node's
  // clFinish without a round trip of its own; the ends the node may still
  // hold are asked for (want_ends), once.
  want_ends(q);
  std::unique_lock lock(q->mutex);
  wait_briefly_spinning(lock, q->ended, [&] { return q->in_flight == 0; }, kCallerSpin);
  // A lost node failed what was in flight: the call says so too.
  return node_lost(q->rank) ? CL_DEVICE_NOT_AVAILABLE : CL_SUCCESS;
}

// ---- samplers ----------------------------------------------------------------

cl_sampler CL_API_CALL clCreateSampler(cl_context c_handle, cl_bool normalized, cl_addressing_mode addressing,
                                       cl_filter_mode filter, cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT,
                               "context is NULL or not a live context of the node client");
  if (!c->device->value<cl_bool>(CL_DEVICE_IMAGE_SUPPORT))
    return refused<cl_sampler>(errcode_ret, CL_INVALID_OPERATION, "the device does not support images");
  const bool known_addressing = addressing == CL_ADDRESS_NONE || addressing == CL_ADDRESS_CLAMP_TO_EDGE ||
                                addressing == CL_ADDRESS_CLAMP || addressing == CL_ADDRESS_REPEAT ||
                                addressing == CL_ADDRESS_MIRRORED_REPEAT;
  if ((normalized != CL_TRUE && normalized != CL_FALSE) || !known_addressing ||
      (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR))
    return refused<cl_sampler>(errcode_ret, CL_INVALID_VALUE,
                               "normalized_coords, addressing_mode or filter_mode is not a valid value");
  if (node_lost(c->rank)) return refused<cl_sampler>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *s = make_proxy<RemoteSampler>(ObjectKind::kSampler, c->rank);
  s->context = c;
  retain(c);
  Writer w;
  write(w, CreateSampler{s->id, c->id, normalized, addressing, filter});
  post(c->rank, Op::kCreateSampler, w);
  return fail(errcode_ret, CL_SUCCESS, handle(s));
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return retain_handle<ObjectKind::kSampler, CL_INVALID_SAMPLER>(sampler);
}
cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return release_handle<ObjectKind::kSampler, CL_INVALID_SAMPLER>(sampler);
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s_handle, cl_sampler_info param, size_t size, void *value,
                                    size_t *size_ret) {
  auto *s = remote(s_handle);
  if (!live(s, ObjectKind::kSampler)) return cluster::refuse(CL_INVALID_SAMPLER, "sampler is NULL or not a live sampler of the node client");
  switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return answer_value(s->refs.load(), size, value, size_ret);
    case CL_SAMPLER_CONTEXT: return answer_value(handle(s->context), size, value, size_ret);
    default: return node_info(s, ObjectKind::kSampler, param, 0, size, value, size_ret);
  }
}

}  // namespace unicl::api
