// Shared pieces of the bad-input tests (tests/test_bad_input_*.cpp): live
// objects to call with, handles that were released, handles of the wrong
// type, and helpers that release whatever a creation call wrongly returns.
// Every call goes through the ICD loader as applications make it.
#pragma once
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace bad {

// A value no API returns, to see that the error out-parameter was set.
constexpr cl_int kUnset = 0x7eadbeef;

inline void release_any(cl_context h) { clReleaseContext(h); }
inline void release_any(cl_command_queue h) { clReleaseCommandQueue(h); }
inline void release_any(cl_mem h) { clReleaseMemObject(h); }
inline void release_any(cl_sampler h) { clReleaseSampler(h); }
inline void release_any(cl_program h) { clReleaseProgram(h); }
inline void release_any(cl_kernel h) { clReleaseKernel(h); }
inline void release_any(cl_event h) { clReleaseEvent(h); }

// Runs a creation call `f(cl_int *errcode_ret)` and returns its error code;
// an object it returns despite the bad input is released, and a null
// handle is required whenever the code is not CL_SUCCESS.
template <class F>
cl_int create_error(F f) {
  cl_int err = kUnset;
  auto handle = f(&err);
  if (handle) release_any(handle);
  if (err != CL_SUCCESS) CHECK(handle == nullptr);
  return err;
}

// A handle of one type passed where another is expected.
template <class To, class From>
To as(From h) {
  return reinterpret_cast<To>(h);
}

const char *const kSource = R"CL(
__kernel void copy(__global const int *in, __global int *out, int scale) {
  out[get_global_id(0)] = in[get_global_id(0)] * scale;
}
__kernel void with_local(__local int *scratch, __global int *out) { out[0] = 0; }
__kernel void with_image(__read_only image2d_t img, sampler_t s, __global float4 *out) {
  out[0] = read_imagef(img, s, (int2)(0, 0));
}
)CL";

constexpr size_t kBufferSize = 1024;

// Live objects on one device (PoCL pthread: fast, with images), built once
// per process. `other` is a second context, for objects of the wrong one.
struct World {
  cl::Platform platform = cltest::platform();
  cl::Device device;
  cl::Device foreign_device;  // a device outside `context`
  cl::Context context;
  cl::Context other;
  cl::CommandQueue queue;
  cl::CommandQueue other_queue;
  cl::Buffer buffer;        // kBufferSize bytes
  cl::Buffer other_buffer;  // in `other`
  cl::Image2D image;        // 8x8 RGBA float
  cl::Image2D image_rgba8;  // 8x8 RGBA unorm8 (another format)
  cl::Sampler sampler;
  cl::Program program;      // built, with argument info
  cl::Program unbuilt;
  cl::Kernel kernel;        // "copy", arguments set
  cl::Kernel kernel_no_args;
  cl::UserEvent user_event;
  cl::Event done_event;     // completed marker on `queue`
  cl::Event other_event;    // completed marker on `other_queue`

  World() {
    for (auto &d : cltest::devices()) {
      if (cltest::device_name(d).find("pthread") != std::string::npos) device = d;
      else if (!foreign_device()) foreign_device = d;
    }
    if (!device()) device = cltest::devices().front();
    context = cl::Context(device);
    other = cl::Context(device);
    queue = cl::CommandQueue(context, device);
    other_queue = cl::CommandQueue(other, device);
    buffer = cl::Buffer(context, CL_MEM_READ_WRITE, kBufferSize);
    other_buffer = cl::Buffer(other, CL_MEM_READ_WRITE, kBufferSize);
    image = cl::Image2D(context, CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_FLOAT), 8, 8);
    image_rgba8 = cl::Image2D(context, CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), 8, 8);
    sampler = cl::Sampler(context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    program = cltest::build(context, kSource, "-cl-kernel-arg-info");
    unbuilt = cl::Program(context, kSource);
    kernel = cl::Kernel(program, "copy");
    kernel.setArg(0, buffer);
    kernel.setArg(1, buffer);
    kernel.setArg(2, 1);
    kernel_no_args = cl::Kernel(program, "copy");
    user_event = cl::UserEvent(context);
    queue.enqueueMarkerWithWaitList(nullptr, &done_event);
    other_queue.enqueueMarkerWithWaitList(nullptr, &other_event);
    done_event.wait();
    other_event.wait();
  }
  ~World() { user_event.setStatus(CL_COMPLETE); }
};

inline World &world() {
  static World w;
  return w;
}

// Handles of objects already released. Each is made and released just
// before use: UniCL reuses the storage of released objects for new ones of
// the same type, which would bring the handle back to life.
inline cl_context dead_context() {
  cl_device_id d = world().device();
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, nullptr);
  clReleaseContext(c);
  return c;
}
inline cl_command_queue dead_queue() {
  cl_command_queue q = clCreateCommandQueue(world().context(), world().device(), 0, nullptr);
  clReleaseCommandQueue(q);
  return q;
}
inline cl_mem dead_mem() {
  cl_mem m = clCreateBuffer(world().context(), CL_MEM_READ_WRITE, 64, nullptr, nullptr);
  clReleaseMemObject(m);
  return m;
}
inline cl_sampler dead_sampler() {
  cl_sampler s = clCreateSampler(world().context(), CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, nullptr);
  clReleaseSampler(s);
  return s;
}
inline cl_program dead_program() {
  const char *src = bad::kSource;
  cl_program p = clCreateProgramWithSource(world().context(), 1, &src, nullptr, nullptr);
  clReleaseProgram(p);
  return p;
}
inline cl_kernel dead_kernel() {
  cl_kernel k = clCreateKernel(world().program(), "copy", nullptr);
  clReleaseKernel(k);
  return k;
}
inline cl_event dead_event() {
  cl_event e = clCreateUserEvent(world().context(), nullptr);
  clSetUserEventStatus(e, CL_COMPLETE);
  clReleaseEvent(e);
  return e;
}
// A released sub-device, or null when the device cannot be partitioned.
inline cl_device_id dead_sub_device() {
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id sub[16];
  cl_uint n = 0;
  if (clCreateSubDevices(world().device(), props, 16, sub, &n) != CL_SUCCESS || n == 0) return nullptr;
  for (cl_uint i = 0; i < n; ++i) clReleaseDevice(sub[i]);
  return sub[0];
}

}  // namespace bad
