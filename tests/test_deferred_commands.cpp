// Commands of multi-device contexts that wait for something pending on
// another device are submitted later by UniCL (the task graph). These tests
// hold commands back with user events and check that the program's order,
// kernel arguments, barriers, clFinish, blocking calls and failures keep
// their OpenCL meaning while the enqueue calls return at once.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <thread>

#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void advance(__global int *a, int k) {
  size_t i = get_global_id(0);
  a[i] = a[i] * 3 + k;
}
)CL";

constexpr size_t kCount = 32;
constexpr size_t kBytes = kCount * sizeof(cl_int);

cl_int status_of(const cl::Event &e) { return e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(); }

std::vector<cl_int> advanced(std::vector<cl_int> v, int k) {
  for (auto &x : v) x = x * 3 + k;
  return v;
}

// A context of PoCL pthread and oclgrind: two vendors, so every command of
// it goes through the task graph.
cltest::MultiDevice two_vendors() { return cltest::MultiDevice(std::vector<std::string>{"pthread", "Oclgrind"}); }

}  // namespace

TEST_CASE("a held command keeps its place in an in-order queue", "[deferred]") {
  auto md = two_vendors();
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("queue of " << md.name(d));
    cl::Program program = cltest::build(md.context, kSource);
    std::vector<cl_int> initial(kCount, 1);
    cl::Buffer buffer(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
    cl::UserEvent gate(md.context);
    std::vector<cl::Event> held{gate};
    cl::Kernel first(program, "advance"), second(program, "advance");
    first.setArg(0, buffer);
    first.setArg(1, 1);
    second.setArg(0, buffer);
    second.setArg(1, 2);
    cl::Event first_done, second_done;
    md.queues[d].enqueueNDRangeKernel(first, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &held, &first_done);
    // No wait list: only the queue's order puts it after the held one.
    md.queues[d].enqueueNDRangeKernel(second, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr,
                                      &second_done);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(status_of(second_done) > CL_RUNNING);
    gate.setStatus(CL_COMPLETE);
    std::vector<cl_int> result(kCount, -1);
    md.queues[d].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, result.data());
    CHECK(result == advanced(advanced(initial, 1), 2));
  }
}

TEST_CASE("a held launch uses the arguments set when it was enqueued", "[deferred]") {
  auto md = two_vendors();
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("queue of " << md.name(d));
    cl::Program program = cltest::build(md.context, kSource);
    std::vector<cl_int> initial(kCount, 2);
    cl::Buffer a(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
    cl::Buffer b(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
    cl::UserEvent gate(md.context);
    std::vector<cl::Event> held{gate};
    cl::Kernel kernel(program, "advance");
    kernel.setArg(0, a);
    kernel.setArg(1, 5);
    md.queues[d].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &held);
    kernel.setArg(0, b);
    kernel.setArg(1, 7);
    md.queues[d].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount));
    gate.setStatus(CL_COMPLETE);
    std::vector<cl_int> ra(kCount, -1), rb(kCount, -1);
    md.queues[d].enqueueReadBuffer(a, CL_TRUE, 0, kBytes, ra.data());
    md.queues[d].enqueueReadBuffer(b, CL_TRUE, 0, kBytes, rb.data());
    CHECK(ra == advanced(initial, 5));
    CHECK(rb == advanced(initial, 7));
  }
}

TEST_CASE("a chain across vendors behind a user event runs in order once released", "[deferred]") {
  auto md = two_vendors();
  cl::Program program = cltest::build(md.context, kSource);
  std::vector<cl_int> initial(kCount, 0), expected = initial;
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, initial.data());
  cl::UserEvent gate(md.context);
  cl::Event last = gate;
  for (int k = 1; k <= 6; ++k) {
    cl::Kernel kernel(program, "advance");
    kernel.setArg(0, buffer);
    kernel.setArg(1, k);
    std::vector<cl::Event> wait{last};
    cl::Event done;
    md.queues[k % md.size()].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &wait,
                                                  &done);
    last = done;
    expected = advanced(expected, k);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(status_of(last) > CL_RUNNING);
  gate.setStatus(CL_COMPLETE);
  last.wait();
  for (size_t d = 0; d < md.size(); ++d) {
    std::vector<cl_int> result(kCount, -1);
    md.queues[d].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, result.data());
    INFO("read on " << md.name(d));
    CHECK(result == expected);
  }
}

TEST_CASE("clFinish and a blocking read wait for held commands", "[deferred]") {
  auto md = two_vendors();
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("queue of " << md.name(d));
    std::vector<cl_int> data(kCount, 8), result(kCount, -1);
    cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
    cl::UserEvent gate(md.context);
    std::vector<cl::Event> held{gate};
    md.queues[d].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &held);
    auto release = std::async(std::launch::async, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      gate.setStatus(CL_COMPLETE);
    });
    auto start = std::chrono::steady_clock::now();
    CHECK(md.queues[d].finish() == CL_SUCCESS);
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(90));
    release.get();

    cl::UserEvent gate2(md.context);
    std::vector<cl::Event> held2{gate2};
    std::vector<cl_int> nines(kCount, 9);
    md.queues[d].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, nines.data(), &held2);
    auto release2 = std::async(std::launch::async, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      gate2.setStatus(CL_COMPLETE);
    });
    md.queues[d].enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, result.data());
    CHECK(result == nines);
    release2.get();
  }
}

TEST_CASE("a barrier of an out-of-order queue follows held commands", "[deferred]") {
  auto md = two_vendors();
  for (size_t d = 0; d < md.size(); ++d) {
    INFO("queue of " << md.name(d));
    cl::CommandQueue ooo(md.context, md.devices[d], CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    std::vector<cl_int> data(kCount, 4), result(kCount, -1);
    cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
    cl::UserEvent gate(md.context);
    std::vector<cl::Event> held{gate};
    ooo.enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &held);
    cl::Event barrier;
    ooo.enqueueBarrierWithWaitList(nullptr, &barrier);
    cl::Event read;
    ooo.enqueueReadBuffer(buffer, CL_FALSE, 0, kBytes, result.data(), nullptr, &read);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(status_of(barrier) > CL_RUNNING);
    CHECK(status_of(read) > CL_RUNNING);
    gate.setStatus(CL_COMPLETE);
    read.wait();
    CHECK(result == data);
  }
}

TEST_CASE("a failed user event fails every command that follows it", "[deferred]") {
  auto md = two_vendors();
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  std::vector<cl_int> data(kCount, 1), result(kCount, -1);
  cl::UserEvent gate(md.context);
  std::vector<cl::Event> held{gate};
  cl::Event wrote, copied;
  md.queues[0].enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &held, &wrote);
  std::vector<cl::Event> after{wrote};
  cl::Buffer other(md.context, CL_MEM_READ_WRITE, kBytes);
  md.queues[1].enqueueCopyBuffer(buffer, other, 0, 0, kBytes, &after, &copied);
  gate.setStatus(-7);
  cl_event e = copied();
  CHECK(clWaitForEvents(1, &e) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status_of(wrote) < 0);
  CHECK(status_of(copied) < 0);
  // What follows a failed command in its queue is implementation-defined;
  // a blocking read there must return.
  cl_int err = clEnqueueReadBuffer(md.queues[0](), buffer(), CL_TRUE, 0, kBytes, result.data(), 0, nullptr, nullptr);
  CHECK((err == CL_SUCCESS || err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST));
}

TEST_CASE("callbacks and profiling of a held command", "[deferred]") {
  auto md = two_vendors();
  cl::CommandQueue q(md.context, md.devices[0], CL_QUEUE_PROFILING_ENABLE);
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  std::vector<cl_int> data(kCount, 3);
  cl::UserEvent gate(md.context);
  std::vector<cl::Event> held{gate};
  cl::Event wrote;
  q.enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), &held, &wrote);
  std::promise<cl_int> called;
  wrote.setCallback(CL_COMPLETE, [](cl_event, cl_int status, void *p) {
    static_cast<std::promise<cl_int> *>(p)->set_value(status);
  }, &called);
  cl_ulong t = 0;
  CHECK(clGetEventProfilingInfo(wrote(), CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) ==
        CL_PROFILING_INFO_NOT_AVAILABLE);
  gate.setStatus(CL_COMPLETE);
  auto fired = called.get_future();
  REQUIRE(fired.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  CHECK(fired.get() == CL_COMPLETE);
  wrote.wait();
  cl_ulong start = 0, end = 0;
  CHECK(clGetEventProfilingInfo(wrote(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
  CHECK(clGetEventProfilingInfo(wrote(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
  CHECK(end >= start);
}
