// Bad input to the marker, barrier and wait enqueues.
#include "bad_input_targets.hpp"

using namespace bad;

TEST_CASE("clEnqueueMarker", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_event e = nullptr;
    check_queues([&](cl_command_queue x) { return clEnqueueMarker(x, &e); });
    CHECK(clEnqueueMarker(t.queue(), nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueMarkerWithWaitList", "[bad_input]") {
  FOR_EACH_TARGET {
    check_queues([&](cl_command_queue x) { return clEnqueueMarkerWithWaitList(x, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint n, const cl_event *w) { return clEnqueueMarkerWithWaitList(t.queue(), n, w, nullptr); });
  }
}

TEST_CASE("clEnqueueBarrier", "[bad_input]") {
  FOR_EACH_TARGET {
    check_queues([&](cl_command_queue x) { return clEnqueueBarrier(x); });
    CHECK(clEnqueueBarrier(t.queue()) == CL_SUCCESS);
  }
}

TEST_CASE("clEnqueueBarrierWithWaitList", "[bad_input]") {
  FOR_EACH_TARGET {
    check_queues([&](cl_command_queue x) { return clEnqueueBarrierWithWaitList(x, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint n, const cl_event *w) { return clEnqueueBarrierWithWaitList(t.queue(), n, w, nullptr); });
  }
}

TEST_CASE("clEnqueueWaitForEvents", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_event done = t.done();
    check_queues([&](cl_command_queue x) { return clEnqueueWaitForEvents(x, 1, &done); });
    CHECK(clEnqueueWaitForEvents(q, 0, &done) == CL_INVALID_VALUE);
    CHECK(clEnqueueWaitForEvents(q, 1, nullptr) == CL_INVALID_VALUE);
    cl_event wrong[] = {as<cl_event>(world().buffer())};
    CHECK(clEnqueueWaitForEvents(q, 1, wrong) == CL_INVALID_EVENT);
    cl_event dead[] = {bad::dead_event()};
    CHECK(clEnqueueWaitForEvents(q, 1, dead) == CL_INVALID_EVENT);
    cl_event foreign[] = {world().other_event()};
    CHECK(clEnqueueWaitForEvents(q, 1, foreign) == CL_INVALID_CONTEXT);
  }
}
