// Events: user events, callbacks, wait lists, status, markers and
// barriers, clWaitForEvents.
#include <mutex>
#include <thread>

#include "conformance.hpp"

using namespace conformance;

namespace {

cl_int status_of(cl_event e) {
  cl_int s = 1234;
  REQUIRE_CL(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr), CL_SUCCESS);
  return s;
}

cl::Event user_event(const cl::Context &ctx) {
  cl_int err;
  auto e = adopt<cl::Event>(clCreateUserEvent(ctx(), &err));
  REQUIRE_CL(err, CL_SUCCESS);
  return e;
}

// Records every callback call: (event, status).
struct CallbackLog {
  std::mutex mutex;
  std::vector<std::pair<cl_event, cl_int>> calls;
  std::atomic<int> count{0};
};

void CL_CALLBACK log_callback(cl_event e, cl_int status, void *data) {
  auto *log = static_cast<CallbackLog *>(data);
  {
    std::lock_guard lock(log->mutex);
    log->calls.emplace_back(e, status);
  }
  log->count.fetch_add(1);
}

const char *const kIncrement = "kernel void inc(global int *a) { a[get_global_id(0)] += 1; }";

}  // namespace

TEST_CASE("events: a new user event is submitted", "[events][user][oclgrind]") {
  Env env;
  auto e = user_event(env.context);
  CHECK(status_of(e()) == CL_SUBMITTED);
  CHECK(e.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_USER);
  CHECK(e.getInfo<CL_EVENT_CONTEXT>()() == env.context());
  CHECK(e.getInfo<CL_EVENT_COMMAND_QUEUE>()() == nullptr);
  CHECK(e.getInfo<CL_EVENT_REFERENCE_COUNT>() == 1);
  REQUIRE_CL(clSetUserEventStatus(e(), CL_COMPLETE), CL_SUCCESS);
  CHECK(status_of(e()) == CL_COMPLETE);
}

TEST_CASE("events: user event status may be set only once", "[events][user][errors][oclgrind]") {
  Env env;
  auto e = user_event(env.context);
  REQUIRE_CL(clSetUserEventStatus(e(), CL_COMPLETE), CL_SUCCESS);
  CHECK_CL(clSetUserEventStatus(e(), CL_COMPLETE), CL_INVALID_OPERATION);
}

TEST_CASE("events: user event status values", "[events][user][errors]") {
  Env env;
  auto e = user_event(env.context);
  CHECK_CL(clSetUserEventStatus(e(), CL_SUBMITTED), CL_INVALID_VALUE);
  CHECK_CL(clSetUserEventStatus(e(), CL_RUNNING), CL_INVALID_VALUE);
  // A negative status is an error code: the event is terminated with it.
  REQUIRE_CL(clSetUserEventStatus(e(), -77), CL_SUCCESS);
  CHECK(status_of(e()) == -77);
}

TEST_CASE("events: user event errors", "[events][user][errors][oclgrind]") {
  cl_int err = CL_SUCCESS;
  auto e = adopt<cl::Event>(clCreateUserEvent(nullptr, &err));
  CHECK(e() == nullptr);
  CHECK_CL(err, CL_INVALID_CONTEXT);
  CHECK_CL(clSetUserEventStatus(nullptr, CL_COMPLETE), CL_INVALID_EVENT);
}

TEST_CASE("events: only user events take a status from the application", "[events][user][errors]") {
  Env env;
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  marker.wait();
  CHECK_CL(clSetUserEventStatus(marker(), CL_COMPLETE), CL_INVALID_EVENT);
}

TEST_CASE("events: a user event holds back dependent commands", "[events][user][waitlist]") {
  Env env;
  auto gate = user_event(env.context);
  std::vector<cl_int> zeros(4, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * sizeof(cl_int), zeros.data());
  cl_int value[4] = {5, 6, 7, 8};
  std::vector<cl::Event> wait{gate};
  cl::Event write;
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, sizeof value, value, &wait, &write);
  env.queue.flush();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(status_of(write()) > CL_COMPLETE);  // still waiting for the gate
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  write.wait();
  cl_int back[4] = {};
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, sizeof back, back);
  CHECK(back[3] == 8);
}

// No flush while the gate is closed: oclgrind runs a queue to its end in
// clFlush and would wait forever for the gate.
TEST_CASE("events: commands gated by a user event run once it completes", "[events][user][waitlist][oclgrind]") {
  Env env;
  auto gate = user_event(env.context);
  std::vector<cl_int> zeros(4, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * sizeof(cl_int), zeros.data());
  cl_int value[4] = {1, 3, 5, 7};
  std::vector<cl::Event> wait{gate};
  cl::Event write;
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, sizeof value, value, &wait, &write);
  CHECK(status_of(write()) > CL_COMPLETE);
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  write.wait();
  CHECK(status_of(write()) == CL_COMPLETE);
  cl_int back[4] = {};
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, sizeof back, back);
  CHECK(back[1] == 3);
}

TEST_CASE("events: a failed user event fails its dependents", "[events][user][waitlist]") {
  Env env;
  auto gate = user_event(env.context);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 16);
  cl_int value[4] = {};
  cl_event wait[] = {gate()};
  cl_event raw = nullptr;
  REQUIRE_CL(clEnqueueWriteBuffer(env.queue(), b(), CL_FALSE, 0, sizeof value, value, 1, wait, &raw), CL_SUCCESS);
  auto write = adopt<cl::Event>(raw);
  REQUIRE_CL(clSetUserEventStatus(gate(), -5), CL_SUCCESS);
  CHECK_CL(clWaitForEvents(1, &raw), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status_of(raw) < 0);
  env.queue.finish();
}

TEST_CASE("events: waiting on a failed command with a context callback set", "[events][user][oclgrind-unicl]") {
  // oclgrind also reports the failed wait through a context callback, but
  // with null user data (an application's callback that uses its data
  // crashes on oclgrind alone, hence only through UniCL here): UniCL must
  // pass it on to the application's callback, or drop it, never crash.
  Env env;
  int reports = 0;
  auto notify = [](const char *, const void *, size_t, void *data) { ++*static_cast<int *>(data); };
  cl::Context ctx(env.device, nullptr, notify, &reports);
  cl::CommandQueue queue(ctx, env.device);
  auto gate = user_event(ctx);
  cl::Buffer b(ctx, CL_MEM_READ_WRITE, 16);
  cl_int value[4] = {};
  cl_event wait[] = {gate()};
  cl_event raw = nullptr;
  REQUIRE_CL(clEnqueueWriteBuffer(queue(), b(), CL_FALSE, 0, sizeof value, value, 1, wait, &raw), CL_SUCCESS);
  auto write = adopt<cl::Event>(raw);
  REQUIRE_CL(clSetUserEventStatus(gate(), -5), CL_SUCCESS);
  CHECK_CL(clWaitForEvents(1, &raw), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(reports >= 0);
  queue.finish();
}

TEST_CASE("events: command events report their queue, context and type", "[events][oclgrind]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  char host[64] = {};
  cl::Event write, read, copy, fill, marker;
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, 64, host, nullptr, &write);
  env.queue.enqueueReadBuffer(b, CL_FALSE, 0, 64, host, nullptr, &read);
  env.queue.enqueueCopyBuffer(b, b, 0, 32, 16, nullptr, &copy);
  env.queue.enqueueFillBuffer(b, cl_int{0}, 0, 16, nullptr, &fill);
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  env.queue.finish();
  CHECK(write.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_WRITE_BUFFER);
  CHECK(read.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_READ_BUFFER);
  CHECK(copy.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_COPY_BUFFER);
  CHECK(fill.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_FILL_BUFFER);
  CHECK(marker.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_MARKER);
  for (auto *e : {&write, &read, &copy, &fill, &marker}) {
    CHECK(e->getInfo<CL_EVENT_COMMAND_QUEUE>()() == env.queue());
    CHECK(e->getInfo<CL_EVENT_CONTEXT>()() == env.context());
    CHECK(status_of((*e)()) == CL_COMPLETE);
  }
}

TEST_CASE("events: info errors", "[events][errors][oclgrind]") {
  Env env;
  auto e = user_event(env.context);
  cl_int s;
  CHECK_CL(clGetEventInfo(e(), 0x7fffu, sizeof s, &s, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetEventInfo(e(), CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &s, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetEventInfo(nullptr, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr), CL_INVALID_EVENT);
  clSetUserEventStatus(e(), CL_COMPLETE);
}

TEST_CASE("events: retain and release count references", "[events][oclgrind]") {
  Env env;
  auto e = user_event(env.context);
  REQUIRE_CL(clRetainEvent(e()), CL_SUCCESS);
  CHECK(e.getInfo<CL_EVENT_REFERENCE_COUNT>() == 2);
  REQUIRE_CL(clReleaseEvent(e()), CL_SUCCESS);
  CHECK(e.getInfo<CL_EVENT_REFERENCE_COUNT>() == 1);
  clSetUserEventStatus(e(), CL_COMPLETE);
}

TEST_CASE("events: a completion callback runs once with CL_COMPLETE", "[events][callbacks][oclgrind]") {
  Env env;
  CallbackLog log;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  cl::Event fill;
  env.queue.enqueueFillBuffer(b, cl_int{1}, 0, 64, nullptr, &fill);
  REQUIRE_CL(clSetEventCallback(fill(), CL_COMPLETE, log_callback, &log), CL_SUCCESS);
  env.queue.finish();
  REQUIRE(wait_until(log.count, 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::lock_guard lock(log.mutex);
  REQUIRE(log.calls.size() == 1);
  CHECK(log.calls[0].first == fill());
  CHECK(log.calls[0].second == CL_COMPLETE);
}

TEST_CASE("events: callbacks for submitted, running and complete all run", "[events][callbacks]") {
  Env env;
  CallbackLog submitted, running, complete;
  auto gate = user_event(env.context);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 64);
  std::vector<cl::Event> wait{gate};
  cl::Event fill;
  env.queue.enqueueFillBuffer(b, cl_int{1}, 0, 64, &wait, &fill);
  REQUIRE_CL(clSetEventCallback(fill(), CL_SUBMITTED, log_callback, &submitted), CL_SUCCESS);
  REQUIRE_CL(clSetEventCallback(fill(), CL_RUNNING, log_callback, &running), CL_SUCCESS);
  REQUIRE_CL(clSetEventCallback(fill(), CL_COMPLETE, log_callback, &complete), CL_SUCCESS);
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  env.queue.finish();
  CHECK(wait_until(submitted.count, 1));
  CHECK(wait_until(running.count, 1));
  CHECK(wait_until(complete.count, 1));
  std::lock_guard lock(complete.mutex);
  CHECK(complete.calls.at(0).second == CL_COMPLETE);
}

TEST_CASE("events: callbacks on a user event run when its status is set", "[events][callbacks][user][oclgrind]") {
  Env env;
  CallbackLog log;
  auto e = user_event(env.context);
  REQUIRE_CL(clSetEventCallback(e(), CL_COMPLETE, log_callback, &log), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(log.count.load() == 0);
  REQUIRE_CL(clSetUserEventStatus(e(), CL_COMPLETE), CL_SUCCESS);
  REQUIRE(wait_until(log.count, 1));
  std::lock_guard lock(log.mutex);
  CHECK(log.calls.at(0).first == e());
  CHECK(log.calls.at(0).second == CL_COMPLETE);
}

// PoCL never calls it: a failed user event does not reach its callbacks.
TEST_CASE("events: a callback on a failed user event gets the error", "[events][callbacks][user][unicl]") {
  Env env;
  CallbackLog log;
  auto e = user_event(env.context);
  REQUIRE_CL(clSetEventCallback(e(), CL_COMPLETE, log_callback, &log), CL_SUCCESS);
  REQUIRE_CL(clSetUserEventStatus(e(), -9), CL_SUCCESS);
  REQUIRE(wait_until(log.count, 1));
  std::lock_guard lock(log.mutex);
  CHECK(log.calls.at(0).second == -9);
}

// oclgrind never calls a callback registered after the status was reached.
TEST_CASE("events: a callback set after completion runs at once", "[events][callbacks][oclgrind-unicl]") {
  Env env;
  CallbackLog log;
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  marker.wait();
  REQUIRE_CL(clSetEventCallback(marker(), CL_COMPLETE, log_callback, &log), CL_SUCCESS);
  CHECK(wait_until(log.count, 1));
}

TEST_CASE("events: a callback may outlive the application's reference", "[events][callbacks]") {
  Env env;
  CallbackLog log;
  auto gate = user_event(env.context);
  {
    cl::Event marker;
    std::vector<cl::Event> wait{gate};
    env.queue.enqueueMarkerWithWaitList(&wait, &marker);
    REQUIRE_CL(clSetEventCallback(marker(), CL_COMPLETE, log_callback, &log), CL_SUCCESS);
  }
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  env.queue.finish();
  CHECK(wait_until(log.count, 1));
}

TEST_CASE("events: callback errors", "[events][callbacks][errors]") {
  Env env;
  auto e = user_event(env.context);
  CallbackLog log;
  CHECK_CL(clSetEventCallback(e(), CL_COMPLETE, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clSetEventCallback(e(), CL_QUEUED, log_callback, &log), CL_INVALID_VALUE);
  CHECK_CL(clSetEventCallback(e(), 0x7fff, log_callback, &log), CL_INVALID_VALUE);
  CHECK_CL(clSetEventCallback(nullptr, CL_COMPLETE, log_callback, &log), CL_INVALID_EVENT);
  clSetUserEventStatus(e(), CL_COMPLETE);
}

TEST_CASE("events: wait list errors", "[events][waitlist][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 16);
  char host[16];
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 0, 16, host, 1, nullptr, nullptr),
           CL_INVALID_EVENT_WAIT_LIST);
  auto e = user_event(env.context);
  cl_event list[] = {e()};
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 0, 16, host, 0, list, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  clSetUserEventStatus(e(), CL_COMPLETE);
}

TEST_CASE("events: a null event in a wait list", "[events][waitlist][errors]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 16);
  char host[16];
  cl_event list[] = {nullptr};
  CHECK_CL(clEnqueueReadBuffer(env.queue(), b(), CL_TRUE, 0, 16, host, 1, list, nullptr), CL_INVALID_EVENT_WAIT_LIST);
}

TEST_CASE("events: an event of another context in a wait list", "[events][waitlist][errors]") {
  Env env, other;
  auto foreign = user_event(other.context);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 16);
  cl_event list[] = {foreign()};
  CHECK_CL(clEnqueueMarkerWithWaitList(env.queue(), 1, list, nullptr), CL_INVALID_CONTEXT);
  CHECK_CL(clSetUserEventStatus(foreign(), CL_COMPLETE), CL_SUCCESS);
  cl_event pair[] = {foreign(), nullptr};
  auto mine = user_event(env.context);
  pair[1] = mine();
  CHECK_CL(clWaitForEvents(2, pair), CL_INVALID_CONTEXT);
  clSetUserEventStatus(mine(), CL_COMPLETE);
}

TEST_CASE("events: clWaitForEvents errors", "[events][errors][oclgrind]") {
  cl_event none = nullptr;
  CHECK_CL(clWaitForEvents(0, &none), CL_INVALID_VALUE);
  CHECK_CL(clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("events: clWaitForEvents waits for every event", "[events][oclgrind]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 4096);
  std::vector<char> host(4096, 3);
  std::vector<cl_event> raw;
  std::vector<cl::Event> owned(4);
  for (auto &e : owned) {
    env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, host.size(), host.data(), nullptr, &e);
    raw.push_back(e());
  }
  env.queue.flush();
  REQUIRE_CL(clWaitForEvents(static_cast<cl_uint>(raw.size()), raw.data()), CL_SUCCESS);
  for (cl_event e : raw) CHECK(status_of(e) == CL_COMPLETE);
}

TEST_CASE("events: a marker completes after the commands it waits for", "[events][markers]") {
  Env env;
  auto gate = user_event(env.context);
  std::vector<cl::Event> wait{gate};
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(&wait, &marker);
  env.queue.flush();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(status_of(marker()) > CL_COMPLETE);
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  marker.wait();
  CHECK(status_of(marker()) == CL_COMPLETE);
}

TEST_CASE("events: a marker without a wait list follows all earlier commands", "[events][markers]") {
  Env env;
  auto gate = user_event(env.context);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 16);
  std::vector<cl::Event> wait{gate};
  cl_int v[4] = {};
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, sizeof v, v, &wait);
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  env.queue.flush();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(status_of(marker()) > CL_COMPLETE);
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  marker.wait();
  CHECK(marker.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_MARKER);
}

TEST_CASE("events: a barrier orders an out-of-order queue", "[events][markers]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  if (!(dev.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) return;
  cl::CommandQueue q(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl::Buffer b(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  q.enqueueFillBuffer(b, cl_int{1}, 0, 64 * sizeof(cl_int));
  cl::Event barrier;
  q.enqueueBarrierWithWaitList(nullptr, &barrier);
  q.enqueueFillBuffer(b, cl_int{2}, 0, 32 * sizeof(cl_int));
  q.enqueueBarrierWithWaitList();
  std::vector<cl_int> back(64);
  q.enqueueReadBuffer(b, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data());
  for (size_t i = 0; i < 64; ++i) CHECK(back[i] == (i < 32 ? 2 : 1));
  CHECK(barrier.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_BARRIER);
}

TEST_CASE("events: wait lists order commands of an out-of-order queue", "[events][waitlist]") {
  cl::Device dev;
  cl::Context ctx = cltest::test_context(&dev);
  if (!(dev.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) return;
  cl::CommandQueue q(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  auto p = build(ctx, kIncrement);
  cl::Kernel k(p, "inc");
  std::vector<cl_int> zeros(16, 0);
  cl::Buffer b(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 16 * sizeof(cl_int), zeros.data());
  k.setArg(0, b);
  std::vector<cl::Event> chain(1);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(16), cl::NullRange, nullptr, &chain[0]);
  for (int i = 0; i < 4; ++i) {
    cl::Event next;
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(16), cl::NullRange, &chain, &next);
    chain = {next};
  }
  std::vector<cl_int> back(16);
  q.enqueueReadBuffer(b, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data(), &chain);
  for (cl_int v : back) CHECK(v == 5);
}

TEST_CASE("events: wait lists order commands across queues", "[events][waitlist]") {
  Env env;
  cl::CommandQueue second(env.context, env.device);
  auto p = build(env.context, kIncrement);
  cl::Kernel k(p, "inc");
  std::vector<cl_int> zeros(8, 0);
  cl::Buffer b(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 8 * sizeof(cl_int), zeros.data());
  k.setArg(0, b);
  auto gate = user_event(env.context);
  std::vector<cl::Event> first_wait{gate};
  cl::Event first;
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(8), cl::NullRange, &first_wait, &first);
  std::vector<cl::Event> second_wait{first};
  cl::Event then;
  second.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(8), cl::NullRange, &second_wait, &then);
  env.queue.flush();
  second.flush();
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  then.wait();
  std::vector<cl_int> back(8);
  second.enqueueReadBuffer(b, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data());
  for (cl_int v : back) CHECK(v == 2);
}

TEST_CASE("events: legacy marker, barrier and wait-for-events calls", "[events][markers]") {
  Env env;
  cl_event marker = nullptr;
  REQUIRE_CL(clEnqueueMarker(env.queue(), &marker), CL_SUCCESS);
  auto owned = adopt<cl::Event>(marker);
  CHECK_CL(clEnqueueBarrier(env.queue()), CL_SUCCESS);
  CHECK_CL(clFinish(env.queue()), CL_SUCCESS);
  CHECK(status_of(marker) == CL_COMPLETE);
  CHECK_CL(clEnqueueMarker(env.queue(), nullptr), CL_INVALID_VALUE);
}

// PoCL aborts the process in clEnqueueWaitForEvents (unimplemented there).
TEST_CASE("events: legacy clEnqueueWaitForEvents", "[events][markers][unicl]") {
  Env env;
  auto gate = user_event(env.context);
  cl_event wait = gate();
  REQUIRE_CL(clEnqueueWaitForEvents(env.queue(), 1, &wait), CL_SUCCESS);
  cl::Event marker;
  env.queue.enqueueMarkerWithWaitList(nullptr, &marker);
  env.queue.flush();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(status_of(marker()) > CL_COMPLETE);
  REQUIRE_CL(clSetUserEventStatus(gate(), CL_COMPLETE), CL_SUCCESS);
  marker.wait();
  CHECK_CL(clEnqueueWaitForEvents(env.queue(), 0, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("events: a blocking read waits for its wait list", "[events][waitlist]") {
  Env env;
  cl::Buffer b(env.context, CL_MEM_READ_WRITE, 16);
  cl_int v[4] = {1, 2, 3, 4};
  auto gate = user_event(env.context);
  std::vector<cl::Event> wait{gate};
  cl::Event write;
  env.queue.enqueueWriteBuffer(b, CL_FALSE, 0, sizeof v, v, &wait, &write);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    clSetUserEventStatus(gate(), CL_COMPLETE);
  });
  cl_int back[4] = {};
  std::vector<cl::Event> after{write};
  env.queue.enqueueReadBuffer(b, CL_TRUE, 0, sizeof back, back, &after);
  opener.join();
  CHECK(back[2] == 3);
}
