// Context and command-queue entry points.
#include <algorithm>
#include <string>
#include <type_traits>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/device_info.hpp"
#include "core/info.hpp"
#include "core/named_factories.hpp"
#include "core/scheduling.hpp"
#include "CL/cl_ext_unicl.h"
#include "memory/context_memory.hpp"
#include "core/queue.hpp"
#include "core/runtime.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// The policy names of the scheduling layer (none before it is installed).
const std::vector<std::string> &policies() {
  static const std::vector<std::string> none;
  auto *scheduling = Runtime::get().scheduling();
  return scheduling ? scheduling->policy_names() : none;
}

// The factor strategies of the granularity layer (none before it is installed).
const std::vector<std::string> &strategies() {
  static const std::vector<std::string> none;
  auto *granularity = Runtime::get().granularity();
  return granularity ? granularity->strategy_names() : none;
}

// A fixed divide factor as UNICL_DIVIDE_FACTOR gives it: a whole number.
bool parse_factor(const std::string &text, cl_uint &out) {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  out = static_cast<cl_uint>(std::stoul(text));
  return true;
}

// Sets `target` from a context property when it was given, else from the
// environment variable `name` (`text` as read at start; empty: unset) when
// `parse` accepts it. False, with a line saying what was expected (`expected()`,
// built only then: every context creation passes here), when the variable
// holds something else.
template <class T, class Given, class Expected, class Parse>
bool choose_setting(T &target, const Given &property, const std::string &text, const char *name,
                    Expected &&expected, Parse &&parse) {
  if (property) {
    if constexpr (std::is_pointer_v<Given>) target = property;  // a name
    else target = *property;                                     // an optional value
    return true;
  }
  if (text.empty() || parse(text, target)) return true;
  Runtime::get().log(1, "%s=%s is not %s", name, text.c_str(), expected().c_str());
  return false;
}

// A context's property list as given, each property checked by its own
// handler: UniCL's own properties, and the standard ones a vendor would
// check (the platform, interop synchronization).
class ContextProperties {
 public:
  const char *scheduler = nullptr;
  const char *granularity = nullptr;
  cl_ulong mem_limit = 0;
  std::optional<cl_uint> divide_factor;
  std::optional<bool> auto_split;
  cl_context_properties interop_user_sync = -1;

  // Checks `props` (may be null), copying each property to `copy`, ended by 0.
  cl_int read(const cl_context_properties *props, std::vector<cl_context_properties> &copy) {
    if (!props) return CL_SUCCESS;
    for (const cl_context_properties *p = props; *p; p += 2) {
      if (cl_int err = take(p[0], p[1]); err != CL_SUCCESS) return err;
      copy.insert(copy.end(), p, p + 2);
    }
    copy.push_back(0);
    return CL_SUCCESS;
  }

 private:
  cl_int take(cl_context_properties name, cl_context_properties value) {
    switch (name) {
      case CL_CONTEXT_SCHEDULER_UNICL:
      case CL_CONTEXT_SCHEDULER_SOCL: return take_scheduler(value);
      case CL_CONTEXT_GRANULARITY_UNICL: return take_granularity(value);
      case CL_CONTEXT_DIVIDE_FACTOR_UNICL: return take_divide_factor(value);
      case CL_CONTEXT_AUTO_SPLIT_UNICL: return take_auto_split(value);
      case CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL: return take_mem_limit(value);
      case CL_CONTEXT_PLATFORM: return take_platform(value);
      case CL_CONTEXT_INTEROP_USER_SYNC: return take_interop_user_sync(value);
      default: return refuse(CL_INVALID_PROPERTY, "a context property UniCL does not know");
    }
  }
  cl_int take_scheduler(cl_context_properties value) {
    if (scheduler_seen_) return refuse(CL_INVALID_PROPERTY, "the scheduler property is given twice");
    scheduler_seen_ = true;
    scheduler = reinterpret_cast<const char *>(value);
    if (!scheduler) return refuse(CL_INVALID_PROPERTY, "the scheduler property names no policy (NULL)");
    if (!is_named(policies(), scheduler))
      return refuse(CL_INVALID_PROPERTY, "the scheduler property is not a policy UniCL has (unicl info lists them)");
    return CL_SUCCESS;
  }
  cl_int take_granularity(cl_context_properties value) {
    if (granularity) return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_GRANULARITY_UNICL is given twice");
    granularity = reinterpret_cast<const char *>(value);
    if (!granularity || !is_named(strategies(), granularity))
      return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_GRANULARITY_UNICL is not a factor strategy UniCL has");
    return CL_SUCCESS;
  }
  cl_int take_divide_factor(cl_context_properties value) {
    if (divide_factor || value < 0 || value > static_cast<cl_context_properties>(CL_UINT_MAX))
      return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_DIVIDE_FACTOR_UNICL is given twice or is not a cl_uint");
    divide_factor = static_cast<cl_uint>(value);
    return CL_SUCCESS;
  }
  cl_int take_auto_split(cl_context_properties value) {
    if (auto_split || (value != CL_TRUE && value != CL_FALSE))
      return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_AUTO_SPLIT_UNICL is given twice or is not CL_TRUE or CL_FALSE");
    auto_split = value == CL_TRUE;
    return CL_SUCCESS;
  }
  cl_int take_mem_limit(cl_context_properties value) {
    if (mem_limit_seen_ || value <= 0)
      return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL is given twice or is not positive");
    mem_limit_seen_ = true;
    mem_limit = static_cast<cl_ulong>(value);
    return CL_SUCCESS;
  }
  cl_int take_platform(cl_context_properties value) {
    if (platform_seen_) return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM is given twice");
    platform_seen_ = true;
    if (reinterpret_cast<cl_platform_id>(value) != Runtime::get().platform())
      return refuse(CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM is not the UniCL platform");
    return CL_SUCCESS;
  }
  cl_int take_interop_user_sync(cl_context_properties value) {
    if (interop_user_sync != -1) return refuse(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC is given twice");
    interop_user_sync = value;
    return CL_SUCCESS;
  }

  bool scheduler_seen_ = false, mem_limit_seen_ = false, platform_seen_ = false;
};

cl_context create_context(const cl_context_properties *props, std::vector<cl_device_id> devices,
                          _cl_context::Notify notify, void *user_data, cl_int *errcode_ret) {
  auto ctx = make_object<_cl_context>();
  ContextProperties own;
  if (cl_int err = own.read(props, ctx->properties); err != CL_SUCCESS) return fail(errcode_ret, err);
  // Each setting: the context property when given, else the environment
  // variable, checked as the property was.
  const Config &config = Runtime::get().config();
  auto named = [](const std::vector<std::string> &names) {
    return [&names](const std::string &text, std::string &out) { return is_named(names, text) && (out = text, true); };
  };
  if (!choose_setting(ctx->policy, own.scheduler, config.scheduler, "UNICL_SCHEDULER",
                      [] { return "a policy (" + name_list(policies()) + ")"; }, named(policies())) ||
      !choose_setting(ctx->granularity, own.granularity, config.granularity, "UNICL_GRANULARITY",
                      [] { return "a factor strategy (" + name_list(strategies()) + ")"; }, named(strategies())) ||
      !choose_setting(ctx->divide_factor, own.divide_factor, config.divide_factor, "UNICL_DIVIDE_FACTOR",
                      [] { return std::string("a factor (a whole number; 0 runs launches undivided)"); },
                      [](const std::string &text, std::optional<cl_uint> &out) {
                        cl_uint f = 0;
                        return parse_factor(text, f) && (out = f, true);
                      }))
    return fail(errcode_ret, refuse(CL_INVALID_PROPERTY, "an environment variable setting the context is malformed"));
  ctx->mem_limit = own.mem_limit;
  ctx->auto_split = own.auto_split.value_or(config.auto_split);
  ctx->notify = notify;
  ctx->notify_data = user_data;
  if (cl_int err = ctx->open_devices(devices, own.interop_user_sync); err != CL_SUCCESS) return fail(errcode_ret, err);
  if (ctx->multi()) {
    if (auto *scheduling = Runtime::get().scheduling()) ctx->engine = scheduling->make(*ctx, ctx->policy);
    if (!ctx->engine) return fail(errcode_ret, refuse(CL_INVALID_PROPERTY, "the scheduling layer made no policy of that name"));
    if (cl_int err = init_context_memory(*ctx, config.device_mem_limit); err != CL_SUCCESS)
      return fail(errcode_ret, err);
  }
  return hand_out(std::move(ctx), errcode_ret);
}

}  // namespace
}  // namespace unicl

namespace unicl::api {

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  if (!devices || num_devices == 0 || (!pfn_notify && user_data)) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "no devices (devices NULL or num_devices 0), or user_data without pfn_notify"));
  std::vector<cl_device_id> list(devices, devices + num_devices);
  for (cl_device_id d : list)
    if (!live(d)) return fail(errcode_ret, refuse(CL_INVALID_DEVICE, "device is NULL or not a live device"));
  return create_context(properties, std::move(list), pfn_notify, user_data, errcode_ret);
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                                               void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t,
                                                                             void *),
                                               void *user_data, cl_int *errcode_ret) {
  if (!pfn_notify && user_data) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "user_data is given without pfn_notify"));
  std::vector<cl_context_properties> scratch;
  if (cl_int err = ContextProperties().read(properties, scratch); err != CL_SUCCESS) return fail(errcode_ret, err);
  std::vector<cl_device_id> list;
  if (cl_int err = devices_of_type(device_type, list); err != CL_SUCCESS) return fail(errcode_ret, err);
  return create_context(properties, std::move(list), pfn_notify, user_data, errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context c) { return retain_handle(c, CL_INVALID_CONTEXT); }
cl_int CL_API_CALL clReleaseContext(cl_context c) { return release_handle(c, CL_INVALID_CONTEXT); }

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param, size_t size, void *value,
                                    size_t *size_ret) {
  if (!live(context)) return refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context");
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, context->refs.load());
    case CL_CONTEXT_NUM_DEVICES:
      return info_value<cl_uint>(size, value, size_ret, static_cast<cl_uint>(context->devices().size()));
    case CL_CONTEXT_DEVICES: return info_vector(size, value, size_ret, context->devices());
    case CL_CONTEXT_PROPERTIES: return info_vector(size, value, size_ret, context->properties);
    case CL_CONTEXT_SCHEDULER_UNICL: return info_string(size, value, size_ret, context->policy);
    case CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL: return info_value<cl_ulong>(size, value, size_ret, context->mem_limit);
    case CL_CONTEXT_GRANULARITY_UNICL: {
      auto &names = strategies();
      std::string name = !context->granularity.empty() ? context->granularity : names.empty() ? "" : names.front();
      return info_string(size, value, size_ret, name);
    }
    case CL_CONTEXT_AUTO_SPLIT_UNICL: return info_value<cl_bool>(size, value, size_ret, context->auto_split);
    case CL_CONTEXT_BYTES_MOVED_UNICL:
      return info_value<cl_ulong>(size, value, size_ret, context->bytes_moved.load(std::memory_order_relaxed));
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context, void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                                  void *user_data) {
  if (!live(context)) return refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context");
  if (!pfn_notify) return refuse(CL_INVALID_VALUE, "pfn_notify is NULL");
  ContextLock lock(*context);
  context->destructors.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
}

namespace {

cl_command_queue create_queue(cl_context context, cl_device_id device, cl_command_queue_properties props,
                              std::vector<cl_queue_properties> property_list, cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  // A null device makes a device-less queue: the context's policy places
  // each command (a one-device context has only one place). So does the
  // composite device, whose queues the application sees as its own.
  bool device_less = device == nullptr;
  if (device_less) device = context->slots[0].device.get();
  if (!live(device)) return fail(errcode_ret, refuse(CL_INVALID_DEVICE, "device is NULL or not a live device"));
  std::vector<size_t> named = context->slots_named(device);
  if (named.empty()) return fail(errcode_ret, refuse(CL_INVALID_DEVICE, "device is not a device of the context"));
  constexpr cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                                CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if (props & ~known) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "properties name a bit no queue property has"));
  if ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE)) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE"));
  // Device-side queues need device-side enqueue, which UniCL reports absent.
  if (props & CL_QUEUE_ON_DEVICE) return fail(errcode_ret, refuse(CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_ON_DEVICE: UniCL has no device-side enqueue"));
  auto q = make_object<_cl_command_queue>();
  q->properties = props;
  q->property_list = std::move(property_list);
  if (cl_int err = q->open(context, device_less ? nullptr : device, named[0]); err != CL_SUCCESS)
    return fail(errcode_ret, err);
  return hand_out(std::move(q), errcode_ret);
}

}  // namespace

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int *errcode_ret) {
  return create_queue(context, device, properties, {}, errcode_ret);
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties *properties,
                                                                cl_int *errcode_ret) {
  cl_command_queue_properties bits = 0;
  std::vector<cl_queue_properties> list;
  bool seen_props = false, seen_size = false;
  if (properties) {
    for (const cl_queue_properties *p = properties; *p; p += 2) {
      if (p[0] == CL_QUEUE_PROPERTIES && !seen_props) {
        seen_props = true;
        bits = p[1];
      } else if (p[0] == CL_QUEUE_SIZE && !seen_size) {
        seen_size = true;
      } else {
        return fail(errcode_ret, refuse(CL_INVALID_VALUE, "a queue property is unknown or given twice"));
      }
      list.insert(list.end(), p, p + 2);
    }
    list.push_back(0);
  }
  if (seen_size && !(bits & CL_QUEUE_ON_DEVICE)) {
    if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
    return fail(errcode_ret, refuse(CL_INVALID_VALUE, "CL_QUEUE_SIZE is given for a host queue"));
  }
  return create_queue(context, device, bits, std::move(list), errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) { return retain_handle(q, CL_INVALID_COMMAND_QUEUE); }
cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  // Every release flushes, as the spec requires: the commands' events hold
  // the queue, so the last release may come long after the application let
  // go of it, and a vendor that runs commands only when flushed (oclgrind)
  // would not run them meanwhile.
  for (cl_command_queue v : q->vendor_queues()) vendor_flush(v);
  release(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size, void *value,
                                         size_t *size_ret) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  switch (param) {
    case CL_QUEUE_CONTEXT: return info_value<cl_context>(size, value, size_ret, q->context.get());
    case CL_QUEUE_DEVICE: return info_value<cl_device_id>(size, value, size_ret, q->device.get());
    case CL_QUEUE_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, q->refs.load());
    case CL_QUEUE_PROPERTIES: return info_value(size, value, size_ret, q->properties);
    case CL_QUEUE_PROPERTIES_ARRAY: return info_vector(size, value, size_ret, q->property_list);
    case CL_QUEUE_DEVICE_DEFAULT: return info_value<cl_command_queue>(size, value, size_ret, nullptr);
    case CL_QUEUE_SIZE: return refuse(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE is asked of a host queue (UniCL has no device queues)");
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int CL_API_CALL clFlush(cl_command_queue q) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  // One-device contexts: straight through, no list to build.
  if (!q->context->multi() && q->vendor) return vendor_flush(q->vendor.get());
  // The spec asks only that the commands be issued eventually; the device
  // workers flush, since a vendor may run its queue inside clFlush.
  q->flush_off_caller();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clFinish(cl_command_queue q) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  // One-device contexts: straight through, no list to build (a kernel's
  // round trip is enqueue + finish).
  if (!q->context->multi() && q->vendor) return vendor_finish(q->vendor.get());
  if (q->context->multi()) {
    // Commands still waiting for submission first (queue.hpp); the vendor
    // queue then holds all of them.
    for (auto &t : q->unsubmitted()) t->wait_submitted();
  }
  for (cl_command_queue v : q->vendor_queues())
    if (cl_int err = vendor_finish(v); err != CL_SUCCESS) return err;
  return CL_SUCCESS;
}

}  // namespace unicl::api
