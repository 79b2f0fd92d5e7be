// vector_scale: y = a * x, split in blocks over every device of one OpenCL
// platform at once. One context holds all the platform's devices, one queue
// per device; the input is one buffer every device reads, each block writes
// a buffer of its own. The program checks its result and prints which device
// ran each block and how long it took.
//
// It uses plain OpenCL 1.2 and runs on any platform. Through UniCL in
// exclusive mode (`unicl run -- vector_scale`), the platform holds the
// devices of every vendor, so one context mixes vendors.
//
// usage: vector_scale [--platform NAME] [--n ELEMENTS] [--block ELEMENTS]
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_TARGET_OPENCL_VERSION 120
#include <CL/opencl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "block_dispenser.hpp"

namespace {

constexpr const char *kSource = R"CLC(
kernel void scale(global const float *x, global float *y, uint offset, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[offset + i];
}
)CLC";

struct Options {
  std::string platform;  // empty: the first platform
  size_t n = size_t{1} << 21;
  size_t block = size_t{1} << 16;
  float factor = 3.0f;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("usage: vector_scale [--platform NAME] [--n N] [--block N]");
    std::string value = argv[++i];
    if (arg == "--platform") o.platform = value;
    else if (arg == "--n") o.n = std::stoul(value);
    else if (arg == "--block") o.block = std::stoul(value);
    else throw std::invalid_argument("unknown option " + arg);
  }
  if (o.n == 0 || o.block == 0 || o.n > 0xffffffffu) throw std::invalid_argument("bad --n or --block");
  return o;
}

cl::Platform choose_platform(const std::string &name) {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (auto &p : platforms)
    if (name.empty() || p.getInfo<CL_PLATFORM_NAME>() == name) return p;
  throw std::runtime_error("no OpenCL platform named '" + name + "'");
}

struct BlockRun {
  size_t offset = 0, count = 0;
  size_t device = 0;
  double ms = 0;
};

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One host thread per device keeps every device busy without callbacks;
// each has its own kernel object because setArg is not thread-safe.
void drive_device(size_t device, const cl::Context &context, const cl::Program &program, cl::CommandQueue queue,
                  const cl::Buffer &x, std::vector<float> &y, const Options &o, BlockDispenser &dispenser,
                  std::vector<BlockRun> &runs) {
  cl::Kernel kernel(program, "scale");
  while (auto block = dispenser.next(device)) {
    const auto start = std::chrono::steady_clock::now();
    BlockRun &run = runs[*block];
    run.offset = *block * o.block;
    run.count = std::min(o.block, o.n - run.offset);
    run.device = device;
    cl::Buffer out(context, CL_MEM_WRITE_ONLY, run.count * sizeof(float));
    kernel.setArg(0, x);
    kernel.setArg(1, out);
    kernel.setArg(2, static_cast<cl_uint>(run.offset));
    kernel.setArg(3, o.factor);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(run.count));
    // A non-blocking read and a wait, rather than a blocking read: an
    // implementation may hold locks for the length of a blocking call.
    cl::Event done;
    queue.enqueueReadBuffer(out, CL_FALSE, 0, run.count * sizeof(float), y.data() + run.offset, nullptr, &done);
    done.wait();
    run.ms = ms_since(start);
    dispenser.finished(device, run.ms);
  }
}

std::string type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  return "other";
}

int run(const Options &o) {
  cl::Platform platform = choose_platform(o.platform);
  std::vector<cl::Device> devices;
  platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  std::printf("platform: %s, %zu device(s)\n", platform.getInfo<CL_PLATFORM_NAME>().c_str(), devices.size());
  for (size_t d = 0; d < devices.size(); ++d)
    std::printf("  [%zu] %s (%s, %s)\n", d, devices[d].getInfo<CL_DEVICE_NAME>().c_str(),
                type_name(devices[d].getInfo<CL_DEVICE_TYPE>()).c_str(),
                devices[d].getInfo<CL_DEVICE_VERSION>().c_str());

  cl::Context context(devices);
  auto start = std::chrono::steady_clock::now();
  cl::Program program(context, kSource);
  try {
    program.build(devices);
  } catch (const cl::BuildError &e) {
    for (const auto &[device, log] : e.getBuildLog())
      std::fprintf(stderr, "build log (%s):\n%s\n", device.getInfo<CL_DEVICE_NAME>().c_str(), log.c_str());
    throw;
  }
  std::printf("program built for all devices in %.1f ms\n", ms_since(start));

  std::vector<float> x(o.n), y(o.n, -1.0f);
  for (size_t i = 0; i < o.n; ++i) x[i] = static_cast<float>(i % 1000) * 0.25f;
  cl::Buffer in(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, o.n * sizeof(float), x.data());

  const size_t blocks = (o.n + o.block - 1) / o.block;
  BlockDispenser dispenser(blocks, devices.size());
  std::vector<BlockRun> runs(blocks);
  std::vector<std::exception_ptr> errors(devices.size());
  start = std::chrono::steady_clock::now();
  {
    std::vector<std::jthread> threads;
    for (size_t d = 0; d < devices.size(); ++d)
      threads.emplace_back([&, d] {
        try {
          drive_device(d, context, program, cl::CommandQueue(context, devices[d]), in, y, o, dispenser, runs);
        } catch (...) {
          errors[d] = std::current_exception();
        }
      });
  }
  const double total_ms = ms_since(start);
  for (auto &e : errors)
    if (e) std::rethrow_exception(e);

  std::printf("%zu elements in %zu blocks of %zu:\n", o.n, blocks, o.block);
  for (size_t b = 0; b < blocks; ++b)
    std::printf("  block %3zu  [%8zu, +%zu)  on [%zu] %-50s %8.2f ms\n", b, runs[b].offset, runs[b].count,
                runs[b].device, devices[runs[b].device].getInfo<CL_DEVICE_NAME>().c_str(), runs[b].ms);
  for (size_t d = 0; d < devices.size(); ++d) {
    size_t count = 0, elements = 0;
    double busy = 0;
    for (const auto &r : runs)
      if (r.device == d && r.count) ++count, elements += r.count, busy += r.ms;
    std::printf("  device [%zu] %-48s %3zu block(s), %5.1f%% of the elements, busy %8.2f ms\n", d,
                devices[d].getInfo<CL_DEVICE_NAME>().c_str(), count, 100.0 * elements / o.n, busy);
  }
  std::printf("total %.2f ms\n", total_ms);

  for (size_t i = 0; i < o.n; ++i) {
    const float want = o.factor * x[i];
    if (std::fabs(y[i] - want) > 1e-6f * std::fabs(want)) {
      std::printf("result: WRONG at %zu: %g, expected %g\n", i, y[i], want);
      return 1;
    }
  }
  std::printf("result: correct\n");
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    return run(parse(argc, argv));
  } catch (const cl::Error &e) {
    std::fprintf(stderr, "vector_scale: OpenCL error %d in %s\n", e.err(), e.what());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "vector_scale: %s\n", e.what());
  }
  return 2;
}
