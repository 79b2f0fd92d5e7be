// Bad input to the context and command-queue entry points.
#include "bad_input.hpp"

using bad::as;
using bad::create_error;
using bad::world;

namespace {
void CL_CALLBACK ignore_notify(const char *, const void *, size_t, void *) {}
void CL_CALLBACK ignore_destruction(cl_context, void *) {}
int user_data;
}  // namespace

TEST_CASE("clCreateContext", "[bad_input]") {
  cl_device_id d = world().device();
  cl_platform_id p = world().platform();
  auto create = [&](const cl_context_properties *props, cl_uint n, const cl_device_id *devs, auto notify, void *data) {
    return create_error([&](cl_int *e) { return clCreateContext(props, n, devs, notify, data, e); });
  };
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  const Notify none = nullptr;
  CHECK(create(nullptr, 0, &d, none, nullptr) == CL_INVALID_VALUE);
  CHECK(create(nullptr, 1, nullptr, none, nullptr) == CL_INVALID_VALUE);
  CHECK(create(nullptr, 1, &d, none, &user_data) == CL_INVALID_VALUE);
  cl_device_id wrong = as<cl_device_id>(world().buffer());
  CHECK(create(nullptr, 1, &wrong, ignore_notify, nullptr) == CL_INVALID_DEVICE);
  cl_device_id pair[] = {d, wrong};
  CHECK(create(nullptr, 2, pair, ignore_notify, nullptr) == CL_INVALID_DEVICE);
  cl_device_id with_null[] = {d, nullptr};
  CHECK(create(nullptr, 2, with_null, ignore_notify, nullptr) == CL_INVALID_DEVICE);
  if (cl_device_id dead = bad::dead_sub_device()) CHECK(create(nullptr, 1, &dead, none, nullptr) == CL_INVALID_DEVICE);
  cl_context_properties unknown[] = {0x7777, 0, 0};
  CHECK(create(unknown, 1, &d, none, nullptr) == CL_INVALID_PROPERTY);
  cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)p, 0};
  CHECK(create(twice, 1, &d, none, nullptr) == CL_INVALID_PROPERTY);
  cl_context_properties wrong_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)world().context(), 0};
  CHECK(create(wrong_platform, 1, &d, none, nullptr) == CL_INVALID_PLATFORM);
}

TEST_CASE("clCreateContextFromType", "[bad_input]") {
  cl_platform_id p = world().platform();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
  auto create = [&](const cl_context_properties *pr, cl_device_type t, auto notify, void *data) {
    return create_error([&](cl_int *e) { return clCreateContextFromType(pr, t, notify, data, e); });
  };
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  const Notify none = nullptr;
  CHECK(create(props, cl_device_type{1} << 40, none, nullptr) == CL_INVALID_DEVICE_TYPE);
  CHECK(create(props, 0, none, nullptr) == CL_INVALID_DEVICE_TYPE);
  CHECK(create(props, CL_DEVICE_TYPE_ALL, none, &user_data) == CL_INVALID_VALUE);
  CHECK(create(props, CL_DEVICE_TYPE_CUSTOM, ignore_notify, nullptr) == CL_DEVICE_NOT_FOUND);
  cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0x7777, 0, 0};
  CHECK(create(unknown, CL_DEVICE_TYPE_ALL, none, nullptr) == CL_INVALID_PROPERTY);
  cl_context_properties wrong_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)world().queue(), 0};
  CHECK(create(wrong_platform, CL_DEVICE_TYPE_ALL, none, nullptr) == CL_INVALID_PLATFORM);
}

TEST_CASE("clRetainContext", "[bad_input]") {
  CHECK(clRetainContext(nullptr) == CL_INVALID_CONTEXT);
  CHECK(clRetainContext(as<cl_context>(world().queue())) == CL_INVALID_CONTEXT);
  CHECK(clRetainContext(bad::dead_context()) == CL_INVALID_CONTEXT);
}

TEST_CASE("clReleaseContext", "[bad_input]") {
  CHECK(clReleaseContext(nullptr) == CL_INVALID_CONTEXT);
  CHECK(clReleaseContext(as<cl_context>(world().buffer())) == CL_INVALID_CONTEXT);
  CHECK(clReleaseContext(bad::dead_context()) == CL_INVALID_CONTEXT);
}

TEST_CASE("clGetContextInfo", "[bad_input]") {
  cl_uint n = 0;
  CHECK(clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clGetContextInfo(as<cl_context>(world().device()), CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr) ==
        CL_INVALID_CONTEXT);
  CHECK(clGetContextInfo(bad::dead_context(), CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clGetContextInfo(world().context(), 0xdead, sizeof n, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetContextInfo(world().context(), CL_CONTEXT_NUM_DEVICES, 1, &n, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clSetContextDestructorCallback", "[bad_input]") {
  CHECK(clSetContextDestructorCallback(nullptr, ignore_destruction, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clSetContextDestructorCallback(as<cl_context>(world().kernel()), ignore_destruction, nullptr) ==
        CL_INVALID_CONTEXT);
  CHECK(clSetContextDestructorCallback(bad::dead_context(), ignore_destruction, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clSetContextDestructorCallback(world().context(), nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateCommandQueue", "[bad_input]") {
  cl_context c = world().context();
  cl_device_id d = world().device();
  auto create = [&](cl_context ctx, cl_device_id dev, cl_command_queue_properties props) {
    return create_error([&](cl_int *e) { return clCreateCommandQueue(ctx, dev, props, e); });
  };
  CHECK(create(nullptr, d, 0) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().program()), d, 0) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), d, 0) == CL_INVALID_CONTEXT);
  // A null device is not bad input: it makes a device-less queue (cl_ext_unicl.h).
  CHECK(create(c, as<cl_device_id>(world().sampler()), 0) == CL_INVALID_DEVICE);
  if (world().foreign_device()) CHECK(create(c, world().foreign_device(), 0) == CL_INVALID_DEVICE);
  CHECK(create(c, d, cl_command_queue_properties{1} << 20) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateCommandQueueWithProperties", "[bad_input]") {
  cl_context c = world().context();
  cl_device_id d = world().device();
  auto create = [&](cl_context ctx, cl_device_id dev, const cl_queue_properties *props) {
    return create_error([&](cl_int *e) { return clCreateCommandQueueWithProperties(ctx, dev, props, e); });
  };
  CHECK(create(nullptr, d, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().user_event()), d, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), d, nullptr) == CL_INVALID_CONTEXT);
  // A null device makes a device-less queue (cl_ext_unicl.h).
  CHECK(create(c, as<cl_device_id>(world().context()), nullptr) == CL_INVALID_DEVICE);
  if (world().foreign_device()) CHECK(create(c, world().foreign_device(), nullptr) == CL_INVALID_DEVICE);
  cl_queue_properties unknown[] = {0x7777, 0, 0};
  CHECK(create(c, d, unknown) == CL_INVALID_VALUE);
  cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, cl_queue_properties{1} << 20, 0};
  CHECK(create(c, d, bad_bits) == CL_INVALID_VALUE);
  // An on-device queue must be out of order; a device without on-device
  // queues may also just call the property unsupported.
  cl_queue_properties on_device_in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  cl_int err = create(c, d, on_device_in_order);
  CHECK((err == CL_INVALID_VALUE || err == CL_INVALID_QUEUE_PROPERTIES));
}

TEST_CASE("clRetainCommandQueue", "[bad_input]") {
  CHECK(clRetainCommandQueue(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clRetainCommandQueue(as<cl_command_queue>(world().context())) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clRetainCommandQueue(bad::dead_queue()) == CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("clReleaseCommandQueue", "[bad_input]") {
  CHECK(clReleaseCommandQueue(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseCommandQueue(as<cl_command_queue>(world().buffer())) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseCommandQueue(bad::dead_queue()) == CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("clGetCommandQueueInfo", "[bad_input]") {
  cl_context c = nullptr;
  CHECK(clGetCommandQueueInfo(nullptr, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clGetCommandQueueInfo(as<cl_command_queue>(world().kernel()), CL_QUEUE_CONTEXT, sizeof c, &c, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clGetCommandQueueInfo(bad::dead_queue(), CL_QUEUE_CONTEXT, sizeof c, &c, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clGetCommandQueueInfo(world().queue(), 0xdead, sizeof c, &c, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetCommandQueueInfo(world().queue(), CL_QUEUE_CONTEXT, 1, &c, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clFlush", "[bad_input]") {
  CHECK(clFlush(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFlush(as<cl_command_queue>(world().done_event())) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFlush(bad::dead_queue()) == CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("clFinish", "[bad_input]") {
  CHECK(clFinish(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(as<cl_command_queue>(world().sampler())) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(bad::dead_queue()) == CL_INVALID_COMMAND_QUEUE);
}
