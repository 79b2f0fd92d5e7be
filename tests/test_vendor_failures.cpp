// A vendor call that fails inside a command of a multi-device context: the
// enqueue returns the vendor's error (or the command's event fails) and the
// application goes on; nothing hangs. UniCL runs over two simulated GPUs
// (tests/sim_icd/tests/two_gpus.conf) whose calls fail on purpose
// (tests/sim_icd/README.md, "Injected failures"). In a multi-device context
// a map or an unmap hands out or takes back UniCL's host copy: the vendor
// sees a marker, preceded by a read when a device holds the only valid
// copy. Failure counts are per process; meson runs the program three times:
//   vendor_failures        [failures]  UNICL_SIM_FAIL=clEnqueueMarkerWithWaitList:CL_OUT_OF_RESOURCES,
//                                                     clEnqueueReadBuffer:CL_OUT_OF_HOST_MEMORY
//   vendor_failures_unmap  [unmap]     UNICL_SIM_FAIL=clEnqueueMarkerWithWaitList:CL_OUT_OF_RESOURCES:after=1
//   slow_vendor_call       [slow]      UNICL_SIM_FAIL=clEnqueueMarkerWithWaitList:delay=400
// Writes always work.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <atomic>
#include <thread>

#include <CL/cl_ext_unicl.h>

#include "multi_device.hpp"

namespace {

constexpr auto kLimit = std::chrono::seconds(10);
constexpr size_t kBytes = 4096;

// Runs `call` on a thread of its own and waits at most kLimit. A call that
// does not return (a deadlock in UniCL) ends the program with a failure:
// the run must fail, not hang, and nothing else could use the context
// after. The thread is detached, not a std::async, whose future would wait
// for it forever.
template <class Call>
auto within_limit(const char *what, Call call) -> decltype(call()) {
  auto task = std::make_shared<std::packaged_task<decltype(call())()>>(std::move(call));
  auto result = task->get_future();
  std::thread([task] { (*task)(); }).detach();
  if (result.wait_for(kLimit) != std::future_status::ready) {
    std::fprintf(stderr, "FAILED: %s did not return within %lld s\n", what, static_cast<long long>(kLimit.count()));
    std::fflush(stderr);
    std::_Exit(EXIT_FAILURE);
  }
  return result.get();
}

struct Mapped {
  void *ptr;
  cl_int err;
  cl_event event;
};

Mapped map(cl::CommandQueue &q, cl::Buffer &b, cl_bool blocking, std::vector<cl_event> wait = {}) {
  return within_limit("clEnqueueMapBuffer", [&] {
    Mapped m{nullptr, CL_SUCCESS, nullptr};
    m.ptr = clEnqueueMapBuffer(q(), b(), blocking, CL_MAP_READ | CL_MAP_WRITE, 0, kBytes,
                               static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), &m.event,
                               &m.err);
    return m;
  });
}

cl_uint map_count(cl::Buffer &b) { return b.getInfo<CL_MEM_MAP_COUNT>(); }

cl_int status_of(cl_event e) {
  cl_int s = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
  return s;
}

// The context still takes commands on every queue: its lock was given
// back. Each queue writes a buffer of its own (a second device writing the
// same one would first read the first one's copy back, which fails here).
void check_still_usable(cltest::MultiDevice &md) {
  std::vector<char> bytes(kBytes, 'w');
  for (auto &q : md.queues) {
    cl::Buffer b(md.context, CL_MEM_READ_WRITE, kBytes);
    cl_int err = within_limit("clEnqueueWriteBuffer", [&] {
      return clEnqueueWriteBuffer(q(), b(), CL_TRUE, 0, kBytes, bytes.data(), 0, nullptr, nullptr);
    });
    CHECK(err == CL_SUCCESS);
    CHECK(within_limit("clFinish", [&] { return clFinish(q()); }) == CL_SUCCESS);
  }
}

}  // namespace

TEST_CASE("a map whose vendor call fails returns the vendor's error", "[failures]") {
  cltest::MultiDevice md;
  REQUIRE(md.size() == 2);
  for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
    for (size_t d = 0; d < md.size(); ++d) {
      INFO((blocking ? "blocking" : "non-blocking") << " map on " << md.name(d));
      std::vector<char> initial(kBytes, 'i');
      // Valid on the host: the map is only the marker.
      cl::Buffer b(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
      Mapped m = map(md.queues[d], b, blocking);
      CHECK(m.ptr == nullptr);
      CHECK(m.err == CL_OUT_OF_RESOURCES);
      CHECK(m.event == nullptr);
      CHECK(map_count(b) == 0);
      check_still_usable(md);
    }
  }
}

// The read-back is issued to the first device after the context lock is
// released, and the map on the second waits for it: a blocking map returns
// the read's error; a non-blocking one returns at once, and its event then
// fails with that error, the buffer unmapped again.
TEST_CASE("a map whose read-back fails reports the read's error", "[failures]") {
  cltest::MultiDevice md;
  REQUIRE(md.size() == 2);
  for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
    INFO((blocking ? "blocking" : "non-blocking") << " map");
    cl::Buffer b(md.context, CL_MEM_READ_WRITE, kBytes);
    std::vector<char> bytes(kBytes, 'd');
    // Written on the first device: only its copy is valid, the map must read it back.
    md.queues[0].enqueueWriteBuffer(b, CL_TRUE, 0, kBytes, bytes.data());
    Mapped m = map(md.queues[1], b, blocking);
    if (blocking) {
      CHECK(m.ptr == nullptr);
      CHECK(m.err == CL_OUT_OF_HOST_MEMORY);
      CHECK(m.event == nullptr);
    } else {
      REQUIRE(m.err == CL_SUCCESS);
      REQUIRE(m.event != nullptr);
      cl_event e = m.event;
      CHECK(within_limit("clWaitForEvents", [e] { return clWaitForEvents(1, &e); }) ==
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      CHECK(status_of(e) == CL_OUT_OF_HOST_MEMORY);
      clReleaseEvent(e);
      // Unmapped from the work queue once the failure is known.
      for (int i = 0; i < 200 && map_count(b) != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    CHECK(map_count(b) == 0);
    check_still_usable(md);
  }
}

TEST_CASE("a map held by a user event fails when it is submitted", "[failures]") {
  cltest::MultiDevice md;
  std::vector<char> initial(kBytes, 'i');
  cl::Buffer b(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());

  SECTION("non-blocking: the map's event fails") {
    cl::UserEvent gate(md.context);
    Mapped m = map(md.queues[0], b, CL_FALSE, {gate()});
    REQUIRE(m.err == CL_SUCCESS);
    REQUIRE(m.event != nullptr);
    cl::Event done(m.event);  // takes the reference
    gate.setStatus(CL_COMPLETE);
    cl_event e = m.event;
    CHECK(within_limit("clWaitForEvents", [e] { return clWaitForEvents(1, &e); }) ==
          CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status_of(e) < 0);
  }
  SECTION("blocking: the call returns once the map failed") {
    cl::UserEvent gate(md.context);
    std::thread opener([&gate] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      gate.setStatus(CL_COMPLETE);
    });
    Mapped m = map(md.queues[1], b, CL_TRUE, {gate()});
    opener.join();
    CHECK(m.ptr == nullptr);
    // Its own failure (the gate completed): the vendor's error.
    CHECK(m.err == CL_OUT_OF_RESOURCES);
    // The command was enqueued before it failed: its event, if handed out, says so.
    if (m.event) {
      CHECK(status_of(m.event) < 0);
      clReleaseEvent(m.event);
    }
    CHECK(map_count(b) == 0);
  }
  check_still_usable(md);
}

TEST_CASE("an unmap whose vendor call fails leaves the buffer mapped", "[unmap]") {
  cltest::MultiDevice md;
  std::vector<char> initial(kBytes, 'i');
  cl::Buffer b(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
  Mapped m = map(md.queues[0], b, CL_TRUE);  // the one marker let through
  REQUIRE(m.err == CL_SUCCESS);
  REQUIRE(m.ptr != nullptr);
  if (m.event) clReleaseEvent(m.event);
  CHECK(static_cast<char *>(m.ptr)[0] == 'i');
  for (int attempt = 0; attempt < 2; ++attempt) {
    INFO("attempt " << attempt);
    cl_int err = within_limit("clEnqueueUnmapMemObject", [&] {
      return clEnqueueUnmapMemObject(md.queues[0](), b(), m.ptr, 0, nullptr, nullptr);
    });
    // Still mapped after a failure: the next attempt finds the pointer
    // (CL_INVALID_VALUE would say it was forgotten).
    CHECK(err == CL_OUT_OF_RESOURCES);
    CHECK(map_count(b) == 1);
  }
  check_still_usable(md);
}

// A vendor call that takes long (the simulator waits 400 ms in every marker
// enqueue, UNICL_SIM_FAIL=clEnqueueMarkerWithWaitList:delay=400) holds up
// only its own device: no vendor is called under the context lock, so
// another thread's command on the other device is enqueued meanwhile.
TEST_CASE("a slow vendor call on one device does not hold up enqueues on another", "[slow]") {
  using namespace std::chrono;
  cltest::MultiDevice md;
  REQUIRE(md.size() == 2);
  std::vector<char> bytes(kBytes, 'w');
  cl::Buffer b(md.context, CL_MEM_READ_WRITE, kBytes);
  std::atomic<bool> started{false};
  std::thread slow([&] {
    started = true;
    cl_event e = nullptr;
    cl_int err = within_limit("clEnqueueMarkerWithWaitList", [&] {
      return clEnqueueMarkerWithWaitList(md.queues[0](), 0, nullptr, &e);
    });
    CHECK(err == CL_SUCCESS);
    if (e) clReleaseEvent(e);
  });
  while (!started) std::this_thread::yield();
  std::this_thread::sleep_for(milliseconds(100));  // the marker is inside its vendor call now
  auto start = steady_clock::now();
  cl_int err = within_limit("clEnqueueWriteBuffer", [&] {
    return clEnqueueWriteBuffer(md.queues[1](), b(), CL_FALSE, 0, kBytes, bytes.data(), 0, nullptr, nullptr);
  });
  auto took = duration_cast<milliseconds>(steady_clock::now() - start).count();
  slow.join();
  CHECK(err == CL_SUCCESS);
  INFO("the write's enqueue call took " << took << " ms");
  CHECK(took < 150);  // held up by the marker, it would take about 300 ms
  CHECK(within_limit("clFinish", [&] { return clFinish(md.queues[1]()); }) == CL_SUCCESS);
  CHECK(within_limit("clFinish", [&] { return clFinish(md.queues[0]()); }) == CL_SUCCESS);
}

// Host swap hands the device memory of an evicted buffer to the buffer that
// needed the room, whose work there follows every access of the old bytes.
// Here the eviction's write-back (a read) fails on the device: it never
// touched the memory, so the new owner's work goes on.
TEST_CASE("a buffer taking over the memory of one whose write-back failed still works", "[failures]") {
  cltest::MultiDevice md;
  REQUIRE(md.size() == 2);
  // Each device holds one buffer.
  std::vector<cl_context_properties> props = {CL_CONTEXT_PLATFORM, (cl_context_properties)cltest::platform()(),
                                              CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, (cl_context_properties)kBytes, 0};
  cl::Context ctx(md.devices, props.data());
  cl::CommandQueue queue(ctx, md.devices[0]);
  std::vector<char> bytes(kBytes, 'a');
  cl::Buffer first(ctx, CL_MEM_READ_WRITE, kBytes), second(ctx, CL_MEM_READ_WRITE, kBytes);
  // The device holds the only copy of `first`...
  CHECK(within_limit("write first", [&] {
    return clEnqueueWriteBuffer(queue(), first(), CL_TRUE, 0, kBytes, bytes.data(), 0, nullptr, nullptr);
  }) == CL_SUCCESS);
  // ...so making room for `second` writes it back, which fails; `second`
  // takes over its memory all the same.
  cl_event written = nullptr;
  cl_int err = within_limit("write second", [&] {
    return clEnqueueWriteBuffer(queue(), second(), CL_FALSE, 0, kBytes, bytes.data(), 0, nullptr, &written);
  });
  CHECK(err == CL_SUCCESS);
  if (written) {
    CHECK(within_limit("wait", [&] { return clWaitForEvents(1, &written); }) == CL_SUCCESS);
    CHECK(status_of(written) == CL_COMPLETE);
    clReleaseEvent(written);
  }
  CHECK(within_limit("clFinish", [&] { return clFinish(queue()); }) == CL_SUCCESS);
}

// A command's end is known to the vendor before its callback tells UniCL
// (the simulator calls callbacks from a thread of its own): once
// clWaitForEvents has returned, the status must say CL_COMPLETE all the
// same. Writes work in this run.
TEST_CASE("an event waited for reports CL_COMPLETE at once", "[failures]") {
  cltest::MultiDevice md;
  REQUIRE(md.size() == 2);
  std::vector<char> bytes(kBytes, 'c');
  cl::Buffer b(md.context, CL_MEM_READ_WRITE, kBytes);
  int not_complete = 0;
  for (int i = 0; i < 300; ++i) {
    cl_event e = nullptr;
    REQUIRE(clEnqueueWriteBuffer(md.queues[0](), b(), CL_FALSE, 0, kBytes, bytes.data(), 0, nullptr, &e) ==
            CL_SUCCESS);
    REQUIRE(within_limit("clWaitForEvents", [&] { return clWaitForEvents(1, &e); }) == CL_SUCCESS);
    not_complete += status_of(e) != CL_COMPLETE;
    clReleaseEvent(e);
  }
  CHECK(not_complete == 0);
}
