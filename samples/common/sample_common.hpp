// What the matmul, blackscholes, mandelbrot, nbody and cholesky samples share:
// the command line, one context over every device of one platform, the two
// queue modes, and the report of where the kernel launches ran.
//
// Queue modes:
//  - per-device: one in-order queue per device; the sample deals its
//    launches round-robin over them and orders work across queues with
//    events. This runs on any OpenCL platform.
//  - device-less: one out-of-order queue created with a NULL device, a UniCL
//    extension: UniCL's scheduling policy places each command on a device.
//    Dependencies are explicit event wait lists, so independent launches may
//    run on different devices at once.
//
// Every enqueue goes through Session so that each command is flushed at
// once: a command waited on from another queue must be submitted, or the
// waiter can stall until someone flushes its queue.
//
// One exception to event wait lists across queues: PoCL's basic device hangs
// when a command waits for an event that another device completes (it runs
// the command inside the completion call and takes a lock that call holds).
// On PoCL's own platform the per-device mode therefore waits on the host for
// events of other queues before enqueueing; through UniCL, which submits a
// command only once its events are complete, the wait lists stay.
#pragma once
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue, which 1.2 platforms need
#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110, not 120, as in tests/support/cl_test.hpp: with a minimum between 1.2
// and 2.0 the bindings call a version helper they only define for minimums
// below 1.2. Below 2.0 they choose clCreateCommandQueue or
// ...WithProperties from the platform's version at run time.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#include <CL/opencl.hpp>
// After the bindings: they set CL_TARGET_OPENCL_VERSION for <CL/cl.h>.
#include <CL/cl_ext_unicl.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sample {

enum class QueueMode { per_device, device_less };

// A wrong command line: reported in one line, exit code 2.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// What the sample is called and what its --size and --blocks mean.
struct Description {
  const char *name;         // the program name, prefix of error messages
  const char *size_meaning;  // e.g. "matrix order"
  const char *blocks_meaning;
  size_t default_size;
  size_t default_blocks;
};

struct Options {
  std::string platform;  // substring of the platform name; empty: the first platform
  size_t size = 0;
  size_t blocks = 0;
  std::optional<QueueMode> queue;  // none: device-less on UniCL, per-device elsewhere
  std::string scheduler;           // UniCL policy name; empty: the platform's default
};

Options parse_options(int argc, char **argv, const Description &description);

// [offset, offset + count) ranges splitting `total` items into `parts`
// parts whose sizes differ by at most one.
struct Range {
  size_t offset, count;
};
std::vector<Range> split(size_t total, size_t parts);

class Session {
 public:
  explicit Session(const Options &options);

  const cl::Context &context() const { return context_; }
  const std::vector<cl::Device> &devices() const { return devices_; }
  QueueMode mode() const { return mode_; }

  // Builds for every device; on a compile error prints the build logs.
  cl::Program build(const char *source, const char *options = "") const;

  // The largest one-dimensional work-group of `kernel` that every device
  // accepts, since any of them may run any launch.
  size_t max_work_group(const cl::Kernel &kernel) const;

  // Enqueues a kernel launch after `wait`: on the next per-device queue in
  // round-robin order, or on the device-less queue. Its event is recorded
  // for report().
  cl::Event launch(const cl::Kernel &kernel, const cl::NDRange &global, const cl::NDRange &local = cl::NullRange,
                   const std::vector<cl::Event> &wait = {});

  // Non-blocking read of `bytes` from `buffer` after `producer`, on the
  // producer's queue: in per-device mode the data is already on that
  // device. Wait for the returned event (or wait_all) before using `dst`.
  cl::Event read(const cl::Buffer &buffer, size_t offset, size_t bytes, void *dst, const cl::Event &producer);

  // Buffer copy after `wait`, on the queue of `wait.front()`.
  cl::Event copy(const cl::Buffer &src, const cl::Buffer &dst, size_t src_offset, size_t dst_offset, size_t bytes,
                 const std::vector<cl::Event> &wait);

  // Waits for events rather than blocking calls: an implementation may
  // hold locks for the length of a blocking call.
  static void wait_all(const std::vector<cl::Event> &events);

  // The wall-clock time report() prints: from the first enqueue to the
  // results on the host, without building or checking.
  void start_timer() { start_ = std::chrono::steady_clock::now(); }
  void stop_timer() { stop_ = std::chrono::steady_clock::now(); }

  // Prints one line per device with the number of launches it ran, the
  // elapsed time, and `result: OK` or `result: WRONG`.
  void report(bool correct) const;

 private:
  cl::CommandQueue &queue_of(const cl::Event &event);
  // `wait` as `queue` may be given it: without the events of other queues,
  // after waiting for them, when host_waits_.
  std::vector<cl::Event> wait_list_for(const cl::CommandQueue &queue, const std::vector<cl::Event> &wait) const;

  cl::Platform platform_;
  std::string platform_name_;
  std::vector<cl::Device> devices_;
  cl::Context context_;
  QueueMode mode_;
  bool host_waits_ = false;  // see the top of this file
  std::vector<cl::CommandQueue> queues_;  // one per device, or the one device-less queue
  size_t next_queue_ = 0;
  std::vector<cl::Event> launches_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), stop_ = start_;
};

// Runs `body` and turns its outcome into the exit code: 0 when it returns
// true (correct result), 1 when false, 2 on a usage or OpenCL error, with a
// one-line message on stderr.
int main(int argc, char **argv, const Description &description,
         const std::function<bool(Session &, const Options &)> &body);

}  // namespace sample
