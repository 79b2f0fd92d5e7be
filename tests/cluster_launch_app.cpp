// For the cluster test of what a launch on a node costs: the program of a
// user who launches one kernel many times on a node's device (a context of
// that device alone), setting its one scalar argument before each launch.
// Two patterns: a stream of N launches then one clFinish, and N launches
// each followed by clFinish. For each it prints
//   pattern <name>|<messages per launch>|<calls that waited for a reply>|<ok>|<us per launch>
// counted by rank 0's link with the nodes (both directions) over the loop
// alone, and whether every launch left its mark in the results.
#include <CL/cl.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "node_devices.hpp"

namespace {

const char *kSource =
    "__kernel void accumulate(__global const float *in, __global float *out, float s) {"
    "  size_t i = get_global_id(0); out[i] += in[i] * s; }";
constexpr size_t kItems = 256;

using Counts = void (*)(uint64_t out[6]);

// Messages both ways and waited calls so far, from the node client.
struct Sample {
  uint64_t messages = 0, waited = 0;
};
Sample sample(Counts counts) {
  uint64_t c[6] = {};
  counts(c);
  return {c[0] + c[2], c[4]};
}

}  // namespace

int main(int argc, char **argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 1000;
  cl_device_id device = nullptr;
  for (auto [d, node] : devices_with_nodes())
    if (node == 1 && !device) device = d;
  // Loaded by UniCL, as a vendor, once the platform was asked for.
  void *client = dlopen("libunicl-remote.so", RTLD_NOW | RTLD_NOLOAD);
  if (!device) std::printf("no device of node 1\n");
  auto counts = reinterpret_cast<Counts>(client ? dlsym(client, "unicl_cluster_counts") : nullptr);
  if (!counts) std::printf("no unicl_cluster_counts in the node client\n");
  if (!device || !counts) return 1;

  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  err = clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr);
  cl_kernel kernel = clCreateKernel(program, "accumulate", &err);
  std::vector<float> ones(kItems, 1.0f), zeros(kItems, 0.0f), out(kItems);
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kItems * 4, ones.data(), &err);
  cl_mem acc = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kItems * 4, zeros.data(), &err);
  clSetKernelArg(kernel, 0, sizeof in, &in);
  clSetKernelArg(kernel, 1, sizeof acc, &acc);
  if (err != CL_SUCCESS) {
    std::printf("setup failed: %d\n", err);
    return 1;
  }
  const size_t global = kItems;
  // One launch first, so that neither pattern pays for what the first launch
  // sets up.
  float scalar = 0;
  clSetKernelArg(kernel, 2, sizeof scalar, &scalar);
  clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
  clFinish(queue);

  for (bool waited : {false, true}) {
    clEnqueueWriteBuffer(queue, acc, CL_TRUE, 0, kItems * 4, zeros.data(), 0, nullptr, nullptr);
    const Sample before = sample(counts);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 1; i <= launches && err == CL_SUCCESS; ++i) {
      scalar = static_cast<float>(i);
      err = clSetKernelArg(kernel, 2, sizeof scalar, &scalar);
      if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
      if (waited && err == CL_SUCCESS) err = clFinish(queue);
    }
    if (!waited && err == CL_SUCCESS) err = clFinish(queue);
    const Sample after = sample(counts);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, acc, CL_TRUE, 0, kItems * 4, out.data(), 0, nullptr, nullptr);
    const double expected = 0.5 * launches * (launches + 1.0);
    bool ok = err == CL_SUCCESS;
    for (float v : out) ok = ok && v == static_cast<float>(expected);
    std::printf("pattern %s|%.3f|%llu|%s|%.1f\n", waited ? "waited" : "stream",
                static_cast<double>(after.messages - before.messages) / launches,
                static_cast<unsigned long long>(after.waited - before.waited), ok ? "ok" : "WRONG", us / launches);
    if (!ok) std::printf("error %d, out[0] %g, expected %g\n", err, out[0], expected);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(acc);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  std::fflush(stdout);
  return 0;
}
