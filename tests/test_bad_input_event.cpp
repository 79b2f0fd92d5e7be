// Bad input to the event entry points.
#include "bad_input.hpp"

using bad::as;
using bad::create_error;
using bad::world;

namespace {
void CL_CALLBACK ignore_event(cl_event, cl_int, void *) {}
}  // namespace

TEST_CASE("clWaitForEvents", "[bad_input]") {
  cl_event done = world().done_event();
  CHECK(clWaitForEvents(0, &done) == CL_INVALID_VALUE);
  CHECK(clWaitForEvents(1, nullptr) == CL_INVALID_VALUE);
  cl_event wrong[] = {done, as<cl_event>(world().buffer())};
  CHECK(clWaitForEvents(2, wrong) == CL_INVALID_EVENT);
  cl_event with_null[] = {done, nullptr};
  CHECK(clWaitForEvents(2, with_null) == CL_INVALID_EVENT);
  cl_event dead[] = {done, bad::dead_event()};
  CHECK(clWaitForEvents(2, dead) == CL_INVALID_EVENT);
  cl_event mixed[] = {done, world().other_event()};
  CHECK(clWaitForEvents(2, mixed) == CL_INVALID_CONTEXT);
}

TEST_CASE("clGetEventInfo", "[bad_input]") {
  cl_int status = 0;
  CHECK(clGetEventInfo(nullptr, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) ==
        CL_INVALID_EVENT);
  CHECK(clGetEventInfo(as<cl_event>(world().queue()), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                       nullptr) == CL_INVALID_EVENT);
  CHECK(clGetEventInfo(bad::dead_event(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) ==
        CL_INVALID_EVENT);
  CHECK(clGetEventInfo(world().done_event(), 0xdead, sizeof status, &status, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetEventInfo(world().done_event(), CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &status, nullptr) ==
        CL_INVALID_VALUE);
}

TEST_CASE("clRetainEvent", "[bad_input]") {
  CHECK(clRetainEvent(nullptr) == CL_INVALID_EVENT);
  CHECK(clRetainEvent(as<cl_event>(world().context())) == CL_INVALID_EVENT);
  CHECK(clRetainEvent(bad::dead_event()) == CL_INVALID_EVENT);
}

TEST_CASE("clReleaseEvent", "[bad_input]") {
  CHECK(clReleaseEvent(nullptr) == CL_INVALID_EVENT);
  CHECK(clReleaseEvent(as<cl_event>(world().kernel())) == CL_INVALID_EVENT);
  CHECK(clReleaseEvent(bad::dead_event()) == CL_INVALID_EVENT);
}

TEST_CASE("clGetEventProfilingInfo", "[bad_input]") {
  cl_ulong t = 0;
  CHECK(clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) == CL_INVALID_EVENT);
  CHECK(clGetEventProfilingInfo(as<cl_event>(world().program()), CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) ==
        CL_INVALID_EVENT);
  CHECK(clGetEventProfilingInfo(bad::dead_event(), CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) == CL_INVALID_EVENT);
  // A queue without profiling, and a user event: no timestamps.
  CHECK(clGetEventProfilingInfo(world().done_event(), CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) ==
        CL_PROFILING_INFO_NOT_AVAILABLE);
  CHECK(clGetEventProfilingInfo(world().user_event(), CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) ==
        CL_PROFILING_INFO_NOT_AVAILABLE);
  cl::CommandQueue profiled(world().context, world().device, CL_QUEUE_PROFILING_ENABLE);
  cl::Event marker;
  profiled.enqueueMarkerWithWaitList(nullptr, &marker);
  marker.wait();
  CHECK(clGetEventProfilingInfo(marker(), 0xdead, sizeof t, &t, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetEventProfilingInfo(marker(), CL_PROFILING_COMMAND_END, 1, &t, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateUserEvent", "[bad_input]") {
  auto create = [&](cl_context c) { return create_error([&](cl_int *e) { return clCreateUserEvent(c, e); }); };
  CHECK(create(nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().done_event())) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context()) == CL_INVALID_CONTEXT);
}

TEST_CASE("clSetUserEventStatus", "[bad_input]") {
  CHECK(clSetUserEventStatus(nullptr, CL_COMPLETE) == CL_INVALID_EVENT);
  CHECK(clSetUserEventStatus(as<cl_event>(world().buffer()), CL_COMPLETE) == CL_INVALID_EVENT);
  CHECK(clSetUserEventStatus(bad::dead_event(), CL_COMPLETE) == CL_INVALID_EVENT);
  // Only user events take a status.
  CHECK(clSetUserEventStatus(world().done_event(), CL_COMPLETE) == CL_INVALID_EVENT);
  cl::UserEvent fresh(world().context);
  CHECK(clSetUserEventStatus(fresh(), CL_SUBMITTED) == CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(fresh(), CL_RUNNING) == CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(fresh(), CL_COMPLETE) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(fresh(), CL_COMPLETE) == CL_INVALID_OPERATION);
}

TEST_CASE("clSetEventCallback", "[bad_input]") {
  CHECK(clSetEventCallback(nullptr, CL_COMPLETE, ignore_event, nullptr) == CL_INVALID_EVENT);
  CHECK(clSetEventCallback(as<cl_event>(world().sampler()), CL_COMPLETE, ignore_event, nullptr) == CL_INVALID_EVENT);
  CHECK(clSetEventCallback(bad::dead_event(), CL_COMPLETE, ignore_event, nullptr) == CL_INVALID_EVENT);
  CHECK(clSetEventCallback(world().done_event(), CL_COMPLETE, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clSetEventCallback(world().done_event(), CL_QUEUED, ignore_event, nullptr) == CL_INVALID_VALUE);
  CHECK(clSetEventCallback(world().done_event(), 0x7777, ignore_event, nullptr) == CL_INVALID_VALUE);
}
