// Contexts and command queues.
#include <algorithm>

#include "api.hpp"
#include "info.hpp"
#include "objects.hpp"

namespace sim::api {
namespace {

cl_int check_properties(const cl_context_properties *props, std::vector<cl_context_properties> &copy) {
  if (!props) return CL_SUCCESS;
  bool seen_platform = false, seen_sync = false;
  for (const cl_context_properties *p = props; *p; p += 2) {
    if (p[0] == CL_CONTEXT_PLATFORM && !seen_platform) {
      seen_platform = true;
      if (remote(reinterpret_cast<cl_platform_id>(p[1])) != platform()) return CL_INVALID_PLATFORM;
    } else if (p[0] == CL_CONTEXT_INTEROP_USER_SYNC && !seen_sync) {
      seen_sync = true;
    } else {
      return CL_INVALID_PROPERTY;
    }
    copy.insert(copy.end(), p, p + 2);
  }
  copy.push_back(0);
  return CL_SUCCESS;
}

cl_context create_context(const cl_context_properties *props, std::vector<Device *> devices, cl_int *errcode_ret) {
  auto ctx = create<Context>();
  if (cl_int err = check_properties(props, ctx->properties); err != CL_SUCCESS) return fail(errcode_ret, err);
  ctx->devices = std::move(devices);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return hand_out(ctx);
}

cl_command_queue create_queue(Context *context, Device *device, cl_command_queue_properties props,
                              cl_int *errcode_ret) {
  if (!checked(context)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  if (!context->has(device)) return fail(errcode_ret, CL_INVALID_DEVICE);
  constexpr cl_command_queue_properties supported = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if (props & ~supported) return fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
  auto q = create<Queue>();
  q->context = context->shared();
  q->device = device;
  q->properties = props;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return hand_out(q);
}

}  // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  // pfn_notify is never called: the simulator has no asynchronous errors.
  if (!devices || num_devices == 0 || (!pfn_notify && user_data)) return fail(errcode_ret, CL_INVALID_VALUE);
  Platform *p = platform();
  std::vector<Device *> list;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device *d = remote(devices[i]);
    if (!d || !p || !p->owns(d)) return fail(errcode_ret, CL_INVALID_DEVICE);
    if (std::find(list.begin(), list.end(), d) == list.end()) list.push_back(d);
  }
  return create_context(properties, std::move(list), errcode_ret);
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties, cl_device_type type,
                                               void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                                               void *user_data, cl_int *errcode_ret) {
  if (!pfn_notify && user_data) return fail(errcode_ret, CL_INVALID_VALUE);
  Platform *p = platform();
  if (!p) return fail(errcode_ret, CL_INVALID_PLATFORM);
  cl_uint n = 0;
  if (cl_int err = api::clGetDeviceIDs(handle(p), type, 0, nullptr, &n); err != CL_SUCCESS)
    return fail(errcode_ret, err);
  std::vector<cl_device_id> found(n);
  api::clGetDeviceIDs(handle(p), type, n, found.data(), nullptr);
  std::vector<Device *> list;
  for (cl_device_id d : found) list.push_back(remote(d));
  return create_context(properties, std::move(list), errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  return retain_handle(remote(context), CL_INVALID_CONTEXT);
}
cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return release_handle(remote(context), CL_INVALID_CONTEXT);
}

cl_int CL_API_CALL clGetContextInfo(cl_context c_handle, cl_context_info param, size_t size, void *value,
                                    size_t *size_ret) {
  auto *c = remote(c_handle);
  if (!checked(c)) return CL_INVALID_CONTEXT;
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return info_value(size, value, size_ret, c->refs.load());
    case CL_CONTEXT_NUM_DEVICES: return info_value(size, value, size_ret, static_cast<cl_uint>(c->devices.size()));
    case CL_CONTEXT_DEVICES: return info_vector(size, value, size_ret, handles(c->devices));
    case CL_CONTEXT_PROPERTIES: return info_vector(size, value, size_ret, c->properties);
    default: return CL_INVALID_VALUE;
  }
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context_handle, cl_device_id device_handle,
                                                  cl_command_queue_properties properties, cl_int *errcode_ret) {
  auto *context = remote(context_handle);
  auto *device = remote(device_handle);
  return create_queue(context, device, properties, errcode_ret);
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context_handle, cl_device_id device_handle,
                                                                const cl_queue_properties *properties,
                                                                cl_int *errcode_ret) {
  auto *context = remote(context_handle);
  auto *device = remote(device_handle);
  cl_command_queue_properties bits = 0;
  for (const cl_queue_properties *p = properties; p && *p; p += 2) {
    if (p[0] != CL_QUEUE_PROPERTIES) return fail(errcode_ret, CL_INVALID_VALUE);
    bits = p[1];
  }
  return create_queue(context, device, bits, errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return retain_handle(remote(command_queue), CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q_handle) {
  auto *q = remote(q_handle);
  // Its commands hold the queue, so they still run (the implicit flush).
  return release_handle(q, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q_handle, cl_command_queue_info param, size_t size,
                                         void *value,
                                         size_t *size_ret) {
  auto *q = remote(q_handle);
  if (!checked(q)) return CL_INVALID_COMMAND_QUEUE;
  switch (param) {
    case CL_QUEUE_CONTEXT: return info_value(size, value, size_ret, handle(q->context.get()));
    case CL_QUEUE_DEVICE: return info_value(size, value, size_ret, handle(q->device));
    case CL_QUEUE_REFERENCE_COUNT: return info_value(size, value, size_ret, q->refs.load());
    case CL_QUEUE_PROPERTIES: return info_value(size, value, size_ret, q->properties);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace sim::api
