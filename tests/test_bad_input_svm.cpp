// Bad input to the shared virtual memory calls. On the single-device target
// (PoCL's pthread device offers SVM) UniCL checks pointers, sizes, flags and
// wait lists; on the two-vendor target there is no SVM: allocations are
// NULL and every SVM call answers CL_INVALID_OPERATION.
#include "bad_input_targets.hpp"

using namespace bad;

namespace {

bool offers_svm(const Target &t) {
  cl_device_svm_capabilities caps = 0;
  for (auto &d : t.context.getInfo<CL_CONTEXT_DEVICES>()) {
    cl_device_svm_capabilities c = 0;
    clGetDeviceInfo(d(), CL_DEVICE_SVM_CAPABILITIES, sizeof c, &c, nullptr);
    caps = caps ? (caps & c) : c;
  }
  return t.context.getInfo<CL_CONTEXT_NUM_DEVICES>() == 1 && (caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
}

// One SVM allocation of target `t`'s context, freed at scope exit (null
// when the context offers no SVM).
struct Svm {
  cl_context context;
  void *p;
  explicit Svm(const Target &t, size_t size = 256)
      : context(t.context()), p(clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0)) {}
  ~Svm() { clSVMFree(context, p); }
  Svm(const Svm &) = delete;
  Svm &operator=(const Svm &) = delete;
};

// A kernel of its own, so that setting its arguments disturbs no other case.
cl::Kernel fresh_kernel(const Target &t) {
  return cl::Kernel(t.kernel.getInfo<CL_KERNEL_PROGRAM>(), "copy");
}

}  // namespace

TEST_CASE("clSVMAlloc", "[bad_input]") {
  CHECK(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0) == nullptr);
  CHECK(clSVMAlloc(as<cl_context>(world().buffer()), CL_MEM_READ_WRITE, 64, 0) == nullptr);
  CHECK(clSVMAlloc(bad::dead_context(), CL_MEM_READ_WRITE, 64, 0) == nullptr);
  FOR_EACH_TARGET {
    cl_context c = t.context();
    if (!offers_svm(t)) {
      CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 0) == nullptr);
      continue;
    }
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, 0, 0) == nullptr);
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 3) == nullptr);
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == nullptr);
    CHECK(clSVMAlloc(c, CL_MEM_USE_HOST_PTR, 64, 0) == nullptr);
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0) == nullptr);
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, SIZE_MAX / 2, 0) == nullptr);
    void *p = clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 0);
    CHECK(p != nullptr);
    clSVMFree(c, p);
  }
}

TEST_CASE("clSVMFree", "[bad_input]") {
  // Nothing to return: a bad call must simply not crash.
  clSVMFree(nullptr, nullptr);
  clSVMFree(bad::dead_context(), bad::host);
  FOR_EACH_TARGET {
    clSVMFree(t.context(), nullptr);
    clSVMFree(t.context(), bad::host);  // never allocated by the context: left alone
    Svm s(t);
    if (s.p) {
      clSVMFree(t.context(), s.p);
      s.p = nullptr;
    }
  }
}

TEST_CASE("clEnqueueSVMFree", "[bad_input]") {
  FOR_EACH_TARGET {
    Svm s(t);
    auto free_call = [&](cl_command_queue q, cl_uint n, void **list, cl_uint k, const cl_event *l) {
      return clEnqueueSVMFree(q, n, list, nullptr, nullptr, k, l, nullptr);
    };
    void *one[] = {s.p};
    check_queues([&](cl_command_queue q) { return free_call(q, 1, one, 0, nullptr); });
    if (!offers_svm(t)) {
      CHECK(free_call(t.queue(), 1, one, 0, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return free_call(t.queue(), 1, one, k, l); });
    CHECK(free_call(t.queue(), 1, nullptr, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(free_call(t.queue(), 0, one, 0, nullptr) == CL_INVALID_VALUE);
    void *with_null[] = {s.p, nullptr};
    CHECK(free_call(t.queue(), 2, with_null, 0, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE("clEnqueueSVMMemcpy", "[bad_input]") {
  FOR_EACH_TARGET {
    Svm s(t);
    auto copy = [&](cl_command_queue q, void *dst, const void *src, size_t size, cl_uint k, const cl_event *l) {
      return clEnqueueSVMMemcpy(q, CL_FALSE, dst, src, size, k, l, nullptr);
    };
    check_queues([&](cl_command_queue q) { return copy(q, bad::host, s.p, 16, 0, nullptr); });
    if (!offers_svm(t)) {
      CHECK(copy(t.queue(), bad::host, bad::host + 64, 16, 0, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return copy(t.queue(), bad::host, s.p, 16, k, l); });
    CHECK(copy(t.queue(), nullptr, s.p, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(copy(t.queue(), bad::host, nullptr, 16, 0, nullptr) == CL_INVALID_VALUE);
    auto *p = static_cast<char *>(s.p);
    CHECK(copy(t.queue(), p + 8, p, 16, 0, nullptr) == CL_MEM_COPY_OVERLAP);
    CHECK(copy(t.queue(), p, p + 8, 16, 0, nullptr) == CL_MEM_COPY_OVERLAP);
    clFinish(t.queue());
  }
}

TEST_CASE("clEnqueueSVMMemFill", "[bad_input]") {
  FOR_EACH_TARGET {
    Svm s(t);
    const cl_int pattern = 7;
    auto fill = [&](cl_command_queue q, void *p, const void *pat, size_t pat_size, size_t size, cl_uint k,
                    const cl_event *l) { return clEnqueueSVMMemFill(q, p, pat, pat_size, size, k, l, nullptr); };
    check_queues([&](cl_command_queue q) { return fill(q, s.p, &pattern, 4, 16, 0, nullptr); });
    if (!offers_svm(t)) {
      CHECK(fill(t.queue(), bad::host, &pattern, 4, 16, 0, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return fill(t.queue(), s.p, &pattern, 4, 16, k, l); });
    auto *p = static_cast<char *>(s.p);
    CHECK(fill(t.queue(), nullptr, &pattern, 4, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(t.queue(), s.p, nullptr, 4, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(t.queue(), s.p, &pattern, 3, 12, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(t.queue(), s.p, &pattern, 256, 256, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(t.queue(), p + 2, &pattern, 4, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(fill(t.queue(), s.p, &pattern, 4, 18, 0, nullptr) == CL_INVALID_VALUE);
    clFinish(t.queue());
  }
}

TEST_CASE("clEnqueueSVMMap", "[bad_input]") {
  FOR_EACH_TARGET {
    Svm s(t);
    auto map = [&](cl_command_queue q, cl_map_flags f, void *p, size_t size, cl_uint k, const cl_event *l) {
      cl_int err = clEnqueueSVMMap(q, CL_FALSE, f, p, size, k, l, nullptr);
      if (err == CL_SUCCESS) clEnqueueSVMUnmap(q, p, 0, nullptr, nullptr);  // a call that wrongly went ahead
      return err;
    };
    check_queues([&](cl_command_queue q) { return map(q, CL_MAP_READ, s.p, 16, 0, nullptr); });
    if (!offers_svm(t)) {
      CHECK(map(t.queue(), CL_MAP_READ, bad::host, 16, 0, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return map(t.queue(), CL_MAP_READ, s.p, 16, k, l); });
    CHECK(map(t.queue(), CL_MAP_READ, nullptr, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(t.queue(), CL_MAP_READ, s.p, 0, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(t.queue(), CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, s.p, 16, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(map(t.queue(), cl_map_flags{1} << 10, s.p, 16, 0, nullptr) == CL_INVALID_VALUE);
    clFinish(t.queue());
  }
}

TEST_CASE("clEnqueueSVMUnmap", "[bad_input]") {
  FOR_EACH_TARGET {
    Svm s(t);
    auto unmap = [&](cl_command_queue q, void *p, cl_uint k, const cl_event *l) {
      return clEnqueueSVMUnmap(q, p, k, l, nullptr);
    };
    check_queues([&](cl_command_queue q) { return unmap(q, s.p, 0, nullptr); });
    if (!offers_svm(t)) {
      CHECK(unmap(t.queue(), bad::host, 0, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    REQUIRE(clEnqueueSVMMap(t.queue(), CL_TRUE, CL_MAP_WRITE, s.p, 16, 0, nullptr, nullptr) == CL_SUCCESS);
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return unmap(t.queue(), s.p, k, l); });
    CHECK(unmap(t.queue(), nullptr, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(unmap(t.queue(), s.p, 0, nullptr) == CL_SUCCESS);
    clFinish(t.queue());
  }
}

TEST_CASE("clEnqueueSVMMigrateMem", "[bad_input]") {
  FOR_EACH_TARGET {
    Svm s(t);
    const void *one[] = {s.p};
    auto migrate = [&](cl_command_queue q, cl_uint n, const void **list, cl_mem_migration_flags f, cl_uint k,
                       const cl_event *l) { return clEnqueueSVMMigrateMem(q, n, list, nullptr, f, k, l, nullptr); };
    check_queues([&](cl_command_queue q) { return migrate(q, 1, one, 0, 0, nullptr); });
    if (!offers_svm(t)) {
      CHECK(migrate(t.queue(), 1, one, 0, 0, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    cl_int probe = migrate(t.queue(), 1, one, 0, 0, nullptr);
    if (probe == CL_INVALID_OPERATION) continue;  // an OpenCL 2.0 vendor has no migration
    CHECK(probe == CL_SUCCESS);
    check_wait_lists(t, [&](cl_uint k, const cl_event *l) { return migrate(t.queue(), 1, one, 0, k, l); });
    CHECK(migrate(t.queue(), 0, one, 0, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(migrate(t.queue(), 1, nullptr, 0, 0, nullptr) == CL_INVALID_VALUE);
    const void *with_null[] = {nullptr};
    CHECK(migrate(t.queue(), 1, with_null, 0, 0, nullptr) == CL_INVALID_VALUE);
    CHECK(migrate(t.queue(), 1, one, cl_mem_migration_flags{1} << 8, 0, nullptr) == CL_INVALID_VALUE);
    clFinish(t.queue());
  }
}

TEST_CASE("clSetKernelArgSVMPointer", "[bad_input]") {
  CHECK(clSetKernelArgSVMPointer(nullptr, 0, bad::host) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArgSVMPointer(as<cl_kernel>(world().buffer()), 0, bad::host) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArgSVMPointer(bad::dead_kernel(), 0, bad::host) == CL_INVALID_KERNEL);
  FOR_EACH_TARGET {
    cl::Kernel k = fresh_kernel(t);
    Svm s(t);
    if (!offers_svm(t)) {
      CHECK(clSetKernelArgSVMPointer(k(), 0, bad::host) == CL_INVALID_OPERATION);
      continue;
    }
    CHECK(clSetKernelArgSVMPointer(k(), 3, s.p) == CL_INVALID_ARG_INDEX);
    CHECK(clSetKernelArgSVMPointer(k(), 0, s.p) == CL_SUCCESS);
  }
}

TEST_CASE("clSetKernelExecInfo", "[bad_input]") {
  CHECK(clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *), &bad::host) == CL_INVALID_KERNEL);
  CHECK(clSetKernelExecInfo(bad::dead_kernel(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *), &bad::host) ==
        CL_INVALID_KERNEL);
  FOR_EACH_TARGET {
    cl::Kernel k = fresh_kernel(t);
    Svm s(t);
    void *ptrs[] = {s.p};
    if (!offers_svm(t)) {
      CHECK(clSetKernelExecInfo(k(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs) == CL_INVALID_OPERATION);
      continue;
    }
    CHECK(clSetKernelExecInfo(k(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, nullptr) == CL_INVALID_VALUE);
    CHECK(clSetKernelExecInfo(k(), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptrs) == CL_INVALID_VALUE);
    CHECK(clSetKernelExecInfo(k(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs) == CL_SUCCESS);
  }
}
