// Targets for the enqueue bad-input tests: the same objects on a
// single-device context (where UniCL hands most checks to the vendor) and on
// a context of two vendors' devices (where UniCL keeps replicas and must
// check everything itself). Every bad call is non-blocking or has a wrong
// argument, so nothing runs.
#pragma once
#include <functional>
#include <optional>

#include "bad_input.hpp"

namespace bad {

// Objects an enqueue can be given, in one context.
struct Target {
  std::string label;
  cl::Context context;
  cl::CommandQueue queue;
  cl::Buffer buffer, buffer2;  // bad::kBufferSize bytes each
  cl::Image2D image, image_rgba8;
  cl::Kernel kernel, kernel_no_args;
  cl::Event done;
};

inline Target single_target() {
  auto &w = world();
  return {"single device", w.context, w.queue, w.buffer, cl::Buffer(w.context, CL_MEM_READ_WRITE, bad::kBufferSize),
          w.image, w.image_rgba8, w.kernel, w.kernel_no_args, w.done_event};
}

inline Target multi_target() {
  auto &w = world();
  std::vector<cl::Device> devices{w.device};
  if (w.foreign_device()) devices.push_back(w.foreign_device);
  Target t;
  t.label = "two vendors";
  t.context = cl::Context(devices);
  t.queue = cl::CommandQueue(t.context, w.device);
  t.buffer = cl::Buffer(t.context, CL_MEM_READ_WRITE, bad::kBufferSize);
  t.buffer2 = cl::Buffer(t.context, CL_MEM_READ_WRITE, bad::kBufferSize);
  t.image = cl::Image2D(t.context, CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_FLOAT), 8, 8);
  t.image_rgba8 = cl::Image2D(t.context, CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), 8, 8);
  cl::Program program = cltest::build(t.context, bad::kSource);
  t.kernel = cl::Kernel(program, "copy");
  t.kernel.setArg(0, t.buffer);
  t.kernel.setArg(1, t.buffer2);
  t.kernel.setArg(2, 1);
  t.kernel_no_args = cl::Kernel(program, "copy");
  t.queue.enqueueMarkerWithWaitList(nullptr, &t.done);
  t.done.wait();
  return t;
}

// Made on first use; released when the test run ends (bad_input_release.cpp),
// not by a static destructor: oclgrind keeps a thread-local stack of the
// calls it is in, which exit() destroys before static objects, and a
// release of its objects after that writes into freed memory.
inline std::optional<std::vector<Target>> &target_storage() {
  static std::optional<std::vector<Target>> all;
  return all;
}

inline std::vector<Target> &targets() {
  auto &all = target_storage();
  if (!all) all.emplace(std::vector<Target>{single_target(), multi_target()});
  return *all;
}

// Host memory large enough for any bad call that wrongly goes ahead.
alignas(64) inline char host[4 * bad::kBufferSize];

// The queue checks every enqueue shares: `call(queue)`.
inline void check_queues(const std::function<cl_int(cl_command_queue)> &call) {
  CHECK(call(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(call(as<cl_command_queue>(world().buffer())) == CL_INVALID_COMMAND_QUEUE);
  CHECK(call(bad::dead_queue()) == CL_INVALID_COMMAND_QUEUE);
}

// The wait-list checks every enqueue shares: `call(n, list)` on a queue of
// target `t`.
inline void check_wait_lists(Target &t, const std::function<cl_int(cl_uint, const cl_event *)> &call) {
  cl_event done = t.done();
  CHECK(call(1, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(call(0, &done) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event wrong[] = {done, as<cl_event>(t.buffer())};
  CHECK(call(2, wrong) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event with_null[] = {done, nullptr};
  CHECK(call(2, with_null) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event dead[] = {bad::dead_event()};
  CHECK(call(1, dead) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event foreign[] = {world().other_event()};
  CHECK(call(1, foreign) == CL_INVALID_CONTEXT);
}

// The memory-object checks: `call(mem)` with a buffer expected.
inline void check_buffers(const std::function<cl_int(cl_mem)> &call) {
  CHECK(call(nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(call(as<cl_mem>(world().kernel())) == CL_INVALID_MEM_OBJECT);
  CHECK(call(bad::dead_mem()) == CL_INVALID_MEM_OBJECT);
  CHECK(call(world().other_buffer()) == CL_INVALID_CONTEXT);
}

#define FOR_EACH_TARGET \
  for (bad::Target & t : bad::targets()) DYNAMIC_SECTION(t.label)


}  // namespace bad
