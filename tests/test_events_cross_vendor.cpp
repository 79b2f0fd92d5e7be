// Events crossing vendors: a UniCL event can stand in any wait list of its
// context, whichever vendor's device produced it, and user events gate
// commands on every vendor.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <thread>

#include "isolated.hpp"
#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void set(__global int *a, int v) { a[get_global_id(0)] = v; }
__kernel void add_from(__global int *dst, __global const int *src) {
  size_t i = get_global_id(0);
  dst[i] += src[i];
}
)CL";

constexpr size_t kCount = 16;
constexpr size_t kBytes = kCount * sizeof(cl_int);

cl_int status_of(const cl::Event &e) { return e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(); }

std::vector<cl_int> read_all(cl::CommandQueue &q, cl::Buffer &b) {
  std::vector<cl_int> v(kCount, -1);
  q.enqueueReadBuffer(b, CL_TRUE, 0, kBytes, v.data());
  return v;
}

}  // namespace

TEST_CASE("a user event gates commands on two vendors", "[events]") {
  cltest::MultiDevice md;
  size_t pocl = md.find("pthread"), grind = md.find("Oclgrind");
  REQUIRE(pocl < md.size());
  REQUIRE(grind < md.size());
  cl::Program program = cltest::build(md.context, kSource);
  cl::UserEvent gate(md.context);
  cl::Buffer a(md.context, CL_MEM_READ_WRITE, kBytes), b(md.context, CL_MEM_READ_WRITE, kBytes);
  std::vector<cl_int> ones(kCount, 1);
  std::vector<cl::Event> wait{gate};
  cl::Event wrote_a, set_b;
  md.queues[pocl].enqueueWriteBuffer(a, CL_FALSE, 0, kBytes, ones.data(), &wait, &wrote_a);
  cl::Kernel set(program, "set");
  set.setArg(0, b);
  set.setArg(1, 9);
  md.queues[grind].enqueueNDRangeKernel(set, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &wait, &set_b);

  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(status_of(wrote_a) > CL_RUNNING);
  CHECK(status_of(set_b) > CL_RUNNING);

  gate.setStatus(CL_COMPLETE);
  cl::Event::waitForEvents({wrote_a, set_b});
  CHECK(status_of(wrote_a) == CL_COMPLETE);
  CHECK(status_of(set_b) == CL_COMPLETE);
  CHECK(read_all(md.queues[grind], a) == ones);
  CHECK(read_all(md.queues[pocl], b) == std::vector<cl_int>(kCount, 9));
}

namespace {

// The command on `first` is held back by a user event (when `hold`), the
// command on `second` waits only for the event of the first: if the wait
// were ignored, the second would read src before it is set.
void foreign_event_orders_command(const std::string &first_name, const std::string &second_name, bool hold) {
  cltest::MultiDevice md;
  size_t first = md.find(first_name), second = md.find(second_name);
  REQUIRE(first < md.size());
  REQUIRE(second < md.size());
  INFO(md.name(first) << " then " << md.name(second) << (hold ? ", first held by a user event" : ""));
  cl::Program program = cltest::build(md.context, kSource);
  cl::Buffer src(md.context, CL_MEM_READ_WRITE, kBytes), dst(md.context, CL_MEM_READ_WRITE, kBytes);
  std::vector<cl_int> zeros(kCount, 0), tens(kCount, 10);
  md.queues[second].enqueueWriteBuffer(src, CL_TRUE, 0, kBytes, zeros.data());
  md.queues[second].enqueueWriteBuffer(dst, CL_TRUE, 0, kBytes, tens.data());
  cl::UserEvent gate(md.context);
  std::vector<cl::Event> held{gate};
  cl::Kernel set_src(program, "set");
  set_src.setArg(0, src);
  set_src.setArg(1, 5);
  cl::Event first_done;
  md.queues[first].enqueueNDRangeKernel(set_src, cl::NullRange, cl::NDRange(kCount), cl::NullRange,
                                        hold ? &held : nullptr, &first_done);
  cl::Kernel add(program, "add_from");
  add.setArg(0, dst);
  add.setArg(1, src);
  std::vector<cl::Event> after_first{first_done};
  cl::Event second_done;
  md.queues[second].enqueueNDRangeKernel(add, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &after_first,
                                         &second_done);
  if (hold) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(status_of(second_done) > CL_RUNNING);
    gate.setStatus(CL_COMPLETE);
  }
  second_done.wait();
  CHECK(status_of(first_done) == CL_COMPLETE);
  CHECK(read_all(md.queues[first], dst) == std::vector<cl_int>(kCount, 15));
}

void expect_isolated_pass(const std::string &hidden_test) {
  auto run = cltest::run_isolated(hidden_test, 10);
  INFO(hidden_test << "\n" << run.child.out << run.child.err);
  CHECK_FALSE(run.timed_out());
  CHECK(run.passed());
}

}  // namespace

TEST_CASE("an event of one vendor in the wait list of another vendor's command", "[events]") {
  foreign_event_orders_command("pthread", "Oclgrind", false);
  foreign_event_orders_command("Oclgrind", "pthread", false);
}

// Scenarios that may hang inside an enqueue call or a vendor run in a child
// process each, so that a hang fails one check instead of the whole run.
TEST_CASE("isolated: basic then oclgrind", "[.]") { foreign_event_orders_command("basic", "Oclgrind", false); }
TEST_CASE("isolated: oclgrind then basic", "[.]") { foreign_event_orders_command("Oclgrind", "basic", false); }
TEST_CASE("isolated: held pthread then oclgrind", "[.]") { foreign_event_orders_command("pthread", "Oclgrind", true); }
TEST_CASE("isolated: held oclgrind then pthread", "[.]") { foreign_event_orders_command("Oclgrind", "pthread", true); }
TEST_CASE("isolated: held oclgrind then basic", "[.]") { foreign_event_orders_command("Oclgrind", "basic", true); }
TEST_CASE("isolated: held basic then pthread", "[.]") { foreign_event_orders_command("basic", "pthread", true); }

TEST_CASE("events of PoCL basic and oclgrind order each other", "[events]") {
  expect_isolated_pass("isolated: basic then oclgrind");
  expect_isolated_pass("isolated: oclgrind then basic");
}

// The second command reads data the held first command writes on another
// device. Enqueueing it must return at once: UniCL submits it later.
TEST_CASE("enqueue after a held command on another vendor returns", "[events]") {
  expect_isolated_pass("isolated: held pthread then oclgrind");
  expect_isolated_pass("isolated: held oclgrind then pthread");
  expect_isolated_pass("isolated: held oclgrind then basic");
}

// PoCL's basic device, used directly, hangs when a user event it waits on is
// completed (it runs the command inside that call and takes a lock it
// holds). In multi-device contexts UniCL keeps user events to itself and
// submits the command once the event is complete.
TEST_CASE("a user event holding a PoCL basic command", "[events]") {
  expect_isolated_pass("isolated: held basic then pthread");
}

TEST_CASE("clWaitForEvents on events of different devices", "[events]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  std::vector<cl::Buffer> buffers;
  std::vector<cl::Event> events(md.size());
  for (size_t d = 0; d < md.size(); ++d) {
    buffers.emplace_back(md.context, CL_MEM_READ_WRITE, kBytes);
    cl::Kernel set(program, "set");
    set.setArg(0, buffers[d]);
    set.setArg(1, static_cast<cl_int>(d + 1));
    md.queues[d].enqueueNDRangeKernel(set, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &events[d]);
  }
  REQUIRE(cl::Event::waitForEvents(events) == CL_SUCCESS);
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("event of " << md.name(d));
    CHECK(status_of(events[d]) == CL_COMPLETE);
    CHECK(events[d].getInfo<CL_EVENT_COMMAND_QUEUE>()() == md.queues[d]());
    CHECK(events[d].getInfo<CL_EVENT_CONTEXT>()() == md.context());
    CHECK(events[d].getInfo<CL_EVENT_COMMAND_TYPE>() == static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
    CHECK(read_all(md.queues[(d + 1) % md.size()], buffers[d]) == std::vector<cl_int>(kCount, static_cast<cl_int>(d + 1)));
  }
}

namespace {

struct CallbackRecord {
  std::atomic<int> calls{0};
  std::atomic<cl_event> seen{nullptr};
  std::atomic<cl_int> status{1};
};

void CL_CALLBACK record_callback(cl_event e, cl_int status, void *user_data) {
  auto *r = static_cast<CallbackRecord *>(user_data);
  r->seen = e;
  r->status = status;
  r->calls.fetch_add(1);
}

bool wait_for_calls(const CallbackRecord &r, int n) {
  for (int i = 0; i < 500 && r.calls.load() < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return r.calls.load() >= n;
}

}  // namespace

TEST_CASE("event callbacks receive the UniCL event handle", "[events]") {
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("command on " << md.name(d));
    cl::Kernel set(program, "set");
    set.setArg(0, buffer);
    set.setArg(1, 3);
    cl::Event done;
    md.queues[d].enqueueNDRangeKernel(set, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &done);
    CallbackRecord on_complete, on_submit;
    done.setCallback(CL_COMPLETE, record_callback, &on_complete);
    done.setCallback(CL_SUBMITTED, record_callback, &on_submit);
    done.wait();
    REQUIRE(wait_for_calls(on_complete, 1));
    REQUIRE(wait_for_calls(on_submit, 1));
    CHECK(on_complete.calls == 1);
    CHECK(on_complete.seen == done());
    CHECK(on_complete.status == CL_COMPLETE);
    CHECK(on_submit.seen == done());
  }
}

TEST_CASE("a CL_SUBMITTED callback is called with CL_SUBMITTED", "[events]") {
  // The spec passes the status the callback was registered for (or an
  // error). oclgrind itself passes CL_COMPLETE; UniCL passes the right one.
  cltest::MultiDevice md;
  cl::Program program = cltest::build(md.context, kSource);
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("command on " << md.name(d));
    cl::Kernel set(program, "set");
    set.setArg(0, buffer);
    set.setArg(1, 3);
    cl::Event done;
    md.queues[d].enqueueNDRangeKernel(set, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &done);
    CallbackRecord on_submit;
    done.setCallback(CL_SUBMITTED, record_callback, &on_submit);
    done.wait();
    REQUIRE(wait_for_calls(on_submit, 1));
    CHECK(on_submit.status == CL_SUBMITTED);
  }
}

TEST_CASE("a callback on a user event fires with the user event's handle", "[events]") {
  cltest::MultiDevice md;
  cl::UserEvent gate(md.context);
  CallbackRecord r;
  gate.setCallback(CL_COMPLETE, record_callback, &r);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(r.calls == 0);
  gate.setStatus(CL_COMPLETE);
  REQUIRE(wait_for_calls(r, 1));
  CHECK(r.seen == gate());
  CHECK(r.status == CL_COMPLETE);
}

TEST_CASE("isolated: a user event set to an error fails the commands waiting on it", "[.]") {
  cltest::MultiDevice md;
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  cl::UserEvent gate(md.context);
  std::vector<cl::Event> wait{gate};
  std::vector<cl_int> data(kCount, 0);
  std::vector<size_t> writers{md.find("pthread"), md.find("Oclgrind")};
  std::vector<cl::Event> events(writers.size());
  for (size_t i = 0; i < writers.size(); ++i)
    md.queues[writers[i]].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &wait, &events[i]);
  gate.setStatus(-1);
  for (size_t i = 0; i < writers.size(); ++i) {
    INFO("command on " << md.name(writers[i]));
    // The spec lets the command fail or not run; it must not report a
    // success it never had, and waiting on it must return.
    cl_event e = events[i]();
    cl_int err = clWaitForEvents(1, &e);
    CHECK((err == CL_SUCCESS || err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST));
    CHECK(status_of(events[i]) < 0);
  }
}

TEST_CASE("a user event set to an error fails the commands waiting on it", "[events]") {
  // Two vendors' devices write one buffer behind the same user event: the
  // second write must wait for the first without blocking the enqueueing
  // thread.
  expect_isolated_pass("isolated: a user event set to an error fails the commands waiting on it");
}

// clFlush only issues commands; it must not wait for them. The flush runs
// on a helper thread so that a flush that blocks is reported, and then
// released by completing the user event.
void flush_returns_while_held(const std::string &device) {
  cltest::MultiDevice md;
  size_t d = md.find(device);
  REQUIRE(d < md.size());
  INFO("queue of " << md.name(d));
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  std::vector<cl_int> data(kCount, 4);
  cl::UserEvent gate(md.context);
  std::vector<cl::Event> wait{gate};
  cl::Event wrote;
  md.queues[d].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &wait, &wrote);
  auto flushed = std::async(std::launch::async, [&] { return md.queues[d].flush(); });
  bool returned = flushed.wait_for(std::chrono::seconds(2)) == std::future_status::ready;
  CHECK(returned);
  gate.setStatus(CL_COMPLETE);
  CHECK(flushed.get() == CL_SUCCESS);
  wrote.wait();
}

TEST_CASE("clFlush returns while a PoCL command waits on a user event", "[events]") {
  flush_returns_while_held("pthread");
}

TEST_CASE("clFlush returns while an oclgrind command waits on a user event", "[events]") {
  flush_returns_while_held("Oclgrind");
}

// oclgrind waits for a user event by spinning inside the call that runs the
// command held by it (here clFinish, on a context of oclgrind alone, where
// the command goes straight to oclgrind with a vendor user event standing
// for UniCL's). Completing the user event from another thread must reach
// oclgrind while that call is under way: calls into oclgrind are otherwise
// one at a time.
TEST_CASE("isolated: clFinish on an oclgrind context returns once another thread completes the user event", "[.]") {
  cltest::MultiDevice md({"Oclgrind"});
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  std::vector<cl_int> data(kCount, 9);
  cl::UserEvent gate(md.context);
  std::vector<cl::Event> wait{gate};
  md.queues[0].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &wait);
  auto release = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gate.setStatus(CL_COMPLETE);
  });
  CHECK(md.queues[0].finish() == CL_SUCCESS);
  release.get();
  CHECK(read_all(md.queues[0], buffer) == data);
}

TEST_CASE("a user event completed while oclgrind waits for it", "[events]") {
  expect_isolated_pass("isolated: clFinish on an oclgrind context returns once another thread completes the user event");
}
