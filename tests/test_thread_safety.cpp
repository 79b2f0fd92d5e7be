// Eight host threads use shared contexts at once for a few seconds:
// creating buffers and kernels, setting arguments, enqueuing, reading back
// and releasing, on a single-device context and on a context of every
// device (where each step of a thread may run on another vendor). Every
// result is checked; nothing may crash, deadlock or mix up data.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "isolated.hpp"
#include "multi_device.hpp"

namespace {

const char *kSource = R"CL(
__kernel void scale_add(__global const int *in, __global int *out, int mul, int add) {
  size_t i = get_global_id(0);
  out[i] = in[i] * mul + add;
}
)CL";

constexpr int kThreads = 8;
constexpr size_t kCount = 32;
constexpr size_t kBytes = kCount * sizeof(cl_int);
constexpr auto kRunTime = std::chrono::milliseconds(2500);

struct Tally {
  std::atomic<int> iterations{0};
  std::atomic<int> wrong{0};
  std::atomic<int> errors{0};
  std::string first_error;
  std::mutex error_mutex;
  void error(const std::string &what) {
    if (errors.fetch_add(1) == 0) {
      std::lock_guard lock(error_mutex);
      first_error = what;
    }
  }
};

// One unit of work: input written on one queue, kernel on another, output
// read on a third (all the same queue in a single-device context).
void one_iteration(cl::Context &ctx, cl::Program &program, std::vector<cl::CommandQueue> &queues, int thread, int it,
                   Tally &tally) {
  const size_t n = queues.size();
  auto &writer = queues[(thread + it) % n];
  auto &runner = queues[(thread + it + 1) % n];
  auto &reader = queues[(thread + 2 * it + 2) % n];
  const cl_int mul = thread + 2, add = it;
  std::vector<cl_int> input(kCount);
  for (size_t i = 0; i < kCount; ++i) input[i] = static_cast<cl_int>(i + thread * 1000);

  cl::Buffer in(ctx, CL_MEM_READ_ONLY, kBytes);
  cl::Buffer out(ctx, (it % 2) ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE, kBytes);
  cl::Event written;
  writer.enqueueWriteBuffer(in, CL_FALSE, 0, kBytes, input.data(), nullptr, &written);
  cl::Kernel kernel(program, "scale_add");
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, mul);
  kernel.setArg(3, add);
  std::vector<cl::Event> after_write{written};
  cl::Event ran;
  runner.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &after_write, &ran);
  std::vector<cl_int> result(kCount, -1);
  std::vector<cl::Event> after_run{ran};
  reader.enqueueReadBuffer(out, CL_TRUE, 0, kBytes, result.data(), &after_run);
  for (size_t i = 0; i < kCount; ++i)
    if (result[i] != input[i] * mul + add) {
      tally.wrong.fetch_add(1);
      break;
    }
  tally.iterations.fetch_add(1);
}

void hammer(cl::Context &ctx, std::vector<cl::CommandQueue> &queues, Tally &tally) {
  cl::Program program = cltest::build(ctx, kSource);
  const auto deadline = std::chrono::steady_clock::now() + kRunTime;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (int it = 0; std::chrono::steady_clock::now() < deadline; ++it) {
          if (it % 5 == 4) {
            // Now and then a queue of the thread's own, made and released
            // while the others use the shared ones.
            auto devices = ctx.getInfo<CL_CONTEXT_DEVICES>();
            std::vector<cl::CommandQueue> own{cl::CommandQueue(ctx, devices[(t + it) % devices.size()])};
            one_iteration(ctx, program, own, t, it, tally);
          } else {
            one_iteration(ctx, program, queues, t, it, tally);
          }
        }
      } catch (const cl::Error &e) {
        tally.error(std::string(e.what()) + " " + std::to_string(e.err()));
      } catch (const std::exception &e) {
        tally.error(e.what());
      }
    });
  }
  for (auto &th : threads) th.join();
}

void threads_on(const std::vector<std::string> &device_names) {
  cltest::MultiDevice md(device_names);
  INFO(md.size() << " device(s), first " << md.name(0));
  Tally tally;
  hammer(md.context, md.queues, tally);
  INFO("first error: " << tally.first_error);
  CHECK(tally.errors == 0);
  CHECK(tally.wrong == 0);
  CHECK(tally.iterations >= kThreads);
}

}  // namespace

TEST_CASE("eight threads on a shared single-device context", "[threads]") { threads_on({"pthread"}); }

TEST_CASE("eight threads on a shared context of two devices", "[threads]") { threads_on({"pthread", "basic"}); }

// oclgrind is not thread-safe (it asserts when two host threads run kernels
// in one of its contexts, when used directly): UniCL calls it one call at a
// time. These run in a child process, where a failed assertion aborts only
// the child.
TEST_CASE("isolated: eight threads on an oclgrind context", "[.]") { threads_on({"Oclgrind"}); }
TEST_CASE("isolated: eight threads on a context of every device", "[.]") {
  threads_on({"pthread", "basic", "Oclgrind"});
}

TEST_CASE("eight threads on contexts holding oclgrind", "[threads]") {
  for (const char *name : {"isolated: eight threads on an oclgrind context",
                           "isolated: eight threads on a context of every device"}) {
    auto run = cltest::run_isolated(name, 20);
    INFO(name << "\n" << run.child.out << run.child.err);
    CHECK(run.child.signal == 0);
    CHECK(run.passed());
  }
}

// oclgrind runs its commands inside clFlush and clFinish, on the caller's
// thread, and keeps reference counts and callback lists without locks.
// Eight threads share one of its queues: each enqueues, registers a
// completion callback, flushes or finishes and releases its event while the
// others do the same. Every callback must run exactly once (a callback
// registered as its command completes must not be lost) and no reference
// may be lost or released twice.
namespace {
void callbacks_on_shared_oclgrind_queue(const std::vector<std::string> &device_names) {
  cltest::MultiDevice md(device_names);
  cl_command_queue q = md.queues[md.find("Oclgrind")]();
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  constexpr int kPerThread = 40;
  std::atomic<int> called{0}, failures{0};
  auto count = [](cl_event, cl_int status, void *data) {
    if (status == CL_COMPLETE) static_cast<std::atomic<int> *>(data)->fetch_add(1);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        cl_int pattern = t * 1000 + i;
        cl_event e = nullptr;
        if (clEnqueueFillBuffer(q, buffer(), &pattern, sizeof pattern, 0, kBytes, 0, nullptr, &e) != CL_SUCCESS) {
          failures += 1;
          continue;
        }
        failures += clSetEventCallback(e, CL_COMPLETE, count, &called) != CL_SUCCESS;
        failures += ((i % 2) ? clFlush(q) : clFinish(q)) != CL_SUCCESS;
        failures += clReleaseEvent(e) != CL_SUCCESS;
      }
    });
  for (auto &th : threads) th.join();
  CHECK(clFinish(q) == CL_SUCCESS);
  // Callbacks may run from another thread after clFinish returns.
  for (int i = 0; i < 500 && called.load() < kThreads * kPerThread; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(failures == 0);
  CHECK(called == kThreads * kPerThread);
}
}  // namespace

TEST_CASE("isolated: callbacks on a shared oclgrind queue", "[.]") { callbacks_on_shared_oclgrind_queue({"Oclgrind"}); }
TEST_CASE("isolated: callbacks on a shared oclgrind queue of a context of two vendors", "[.]") {
  callbacks_on_shared_oclgrind_queue({"pthread", "Oclgrind"});
}

TEST_CASE("callbacks and releases on a shared oclgrind queue from eight threads", "[threads]") {
  for (const char *name : {"isolated: callbacks on a shared oclgrind queue",
                           "isolated: callbacks on a shared oclgrind queue of a context of two vendors"}) {
    auto run = cltest::run_isolated(name, 60);
    INFO(name << "\n" << run.child.out << run.child.err);
    CHECK(run.child.signal == 0);
    CHECK(run.passed());
  }
}

TEST_CASE("retain and release of shared objects from many threads", "[threads]") {
  cltest::MultiDevice md;
  cl::Buffer buffer(md.context, CL_MEM_READ_WRITE, kBytes);
  cl::Program program = cltest::build(md.context, kSource);
  cl::Kernel kernel(program, "scale_add");
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        failures += clRetainMemObject(buffer()) != CL_SUCCESS;
        failures += clRetainKernel(kernel()) != CL_SUCCESS;
        failures += clRetainContext(md.context()) != CL_SUCCESS;
        failures += clReleaseContext(md.context()) != CL_SUCCESS;
        failures += clReleaseKernel(kernel()) != CL_SUCCESS;
        failures += clReleaseMemObject(buffer()) != CL_SUCCESS;
      }
    });
  }
  for (auto &th : threads) th.join();
  CHECK(failures == 0);
  CHECK(buffer.getInfo<CL_MEM_REFERENCE_COUNT>() == 1);
  CHECK(kernel.getInfo<CL_KERNEL_REFERENCE_COUNT>() == 1);
}
