// Bad input to the kernel-launch enqueues.
#include "bad_input_targets.hpp"

using namespace bad;

namespace {
void CL_CALLBACK native_noop(void *) {}

// A kernel of `other`, for context mismatches.
cl::Kernel &foreign_kernel() {
  static cl::Program program = cltest::build(world().other, bad::kSource);
  static cl::Kernel kernel = [] {
    cl::Kernel k(program, "copy");
    k.setArg(0, world().other_buffer);
    k.setArg(1, world().other_buffer);
    k.setArg(2, 1);
    return k;
  }();
  return kernel;
}

void check_kernels(const std::function<cl_int(cl_kernel)> &call) {
  CHECK(call(nullptr) == CL_INVALID_KERNEL);
  CHECK(call(as<cl_kernel>(world().program())) == CL_INVALID_KERNEL);
  CHECK(call(bad::dead_kernel()) == CL_INVALID_KERNEL);
  CHECK(call(foreign_kernel()()) == CL_INVALID_CONTEXT);
}
}  // namespace

TEST_CASE("clEnqueueNDRangeKernel", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_kernel k = t.kernel();
    size_t global[3] = {16, 1, 1}, local[3] = {3, 1, 1}, huge_local[3] = {size_t{1} << 20, 1, 1};
    auto launch = [&](cl_command_queue x, cl_kernel kk, cl_uint dim, const size_t *g, const size_t *l, cl_uint n,
                      const cl_event *w) { return clEnqueueNDRangeKernel(x, kk, dim, nullptr, g, l, n, w, nullptr); };
    check_queues([&](cl_command_queue x) { return launch(x, k, 1, global, nullptr, 0, nullptr); });
    check_kernels([&](cl_kernel kk) { return launch(q, kk, 1, global, nullptr, 0, nullptr); });
    check_wait_lists(t, [&](cl_uint n, const cl_event *w) { return launch(q, k, 1, global, nullptr, n, w); });
    CHECK(launch(q, k, 0, global, nullptr, 0, nullptr) == CL_INVALID_WORK_DIMENSION);
    CHECK(launch(q, k, 4, global, nullptr, 0, nullptr) == CL_INVALID_WORK_DIMENSION);
    // No global size: an error before OpenCL 2.1, an empty launch on
    // devices of 2.1 or later. Either way no crash.
    cl_int err = launch(q, k, 1, nullptr, nullptr, 0, nullptr);
    CAPTURE(err);
    CHECK((err == CL_SUCCESS || err == CL_INVALID_VALUE || err == CL_INVALID_GLOBAL_WORK_SIZE));
    clFinish(q);
    // OpenCL C 1.2 programs need uniform work-groups: 3 does not divide 16.
    CHECK(launch(q, k, 1, global, local, 0, nullptr) == CL_INVALID_WORK_GROUP_SIZE);
    err = launch(q, k, 1, global, huge_local, 0, nullptr);
    CHECK((err == CL_INVALID_WORK_GROUP_SIZE || err == CL_INVALID_WORK_ITEM_SIZE));
    CHECK(launch(q, t.kernel_no_args(), 1, global, nullptr, 0, nullptr) == CL_INVALID_KERNEL_ARGS);
  }
}

TEST_CASE("clEnqueueTask", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    cl_kernel k = t.kernel();
    check_queues([&](cl_command_queue x) { return clEnqueueTask(x, k, 0, nullptr, nullptr); });
    check_kernels([&](cl_kernel kk) { return clEnqueueTask(q, kk, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint n, const cl_event *w) { return clEnqueueTask(q, k, n, w, nullptr); });
    CHECK(clEnqueueTask(q, t.kernel_no_args(), 0, nullptr, nullptr) == CL_INVALID_KERNEL_ARGS);
  }
}

TEST_CASE("clEnqueueNativeKernel", "[bad_input]") {
  FOR_EACH_TARGET {
    cl_command_queue q = t.queue();
    struct Args {
      cl_mem buffer;
    } args{t.buffer()};
    const void *location[] = {&args.buffer};
    cl_mem mems[] = {t.buffer()};
    check_queues([&](cl_command_queue x) { return clEnqueueNativeKernel(x, native_noop, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr); });
    check_wait_lists(t, [&](cl_uint n, const cl_event *w) {
      return clEnqueueNativeKernel(q, native_noop, nullptr, 0, 0, nullptr, nullptr, n, w, nullptr);
    });
    CHECK(clEnqueueNativeKernel(q, nullptr, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueNativeKernel(q, native_noop, nullptr, 8, 0, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueNativeKernel(q, native_noop, &args, sizeof args, 1, nullptr, location, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueNativeKernel(q, native_noop, &args, sizeof args, 1, mems, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    cl_mem wrong[] = {as<cl_mem>(world().queue())};
    CHECK(clEnqueueNativeKernel(q, native_noop, &args, sizeof args, 1, wrong, location, 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
  }
}

TEST_CASE("clEnqueueNativeKernel with arguments of no size", "[bad_input]") {
  // "CL_INVALID_VALUE if args is not NULL and cb_args is 0".
  FOR_EACH_TARGET {
    int args = 0;
    CHECK(clEnqueueNativeKernel(t.queue(), native_noop, &args, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
  }
}
