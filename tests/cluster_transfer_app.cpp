// For the cluster test of copies between nodes: a buffer is incremented by a
// kernel on a device of one node, then by a kernel on a device of another
// node, in one context. Prints the bulk bytes rank 0 sent to or received
// from the nodes while the second node got the buffer ("rank0 bytes N"),
// the bytes UniCL moved meanwhile ("moved bytes N"), and whether the buffer
// read back is right ("result: OK"). Exits 1 when something fails. With
// --moves, it first writes a buffer to one node and reads it back ten
// times, then moves it written there to the other ten times, at 4 KiB then
// at 1 MiB (as bench-cluster does), and
// prints the bulk bytes rank 0 sent or received during the 1 MiB moves
// ("rank0 bytes in 1 MiB moves N": 0 when they went straight between the
// nodes).
#include <node_devices.hpp>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const char *kSource = "__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }";

uint64_t rank0_bytes() {
  // The node client is loaded by UniCL, not linked: found as bench-cluster
  // finds its raw baseline.
  static auto fn = [] {
    void *client = dlopen("libunicl-remote.so", RTLD_NOW | RTLD_NOLOAD);
    return client ? reinterpret_cast<uint64_t (*)()>(dlsym(client, "unicl_cluster_bulk_bytes")) : nullptr;
  }();
  return fn ? fn() : UINT64_MAX;
}

cl_ulong moved(cl_context ctx) {
  cl_ulong m = 0;
  clGetContextInfo(ctx, CL_CONTEXT_BYTES_MOVED_UNICL, sizeof m, &m, nullptr);
  return m;
}

int fail(const char *what, cl_int err) {
  std::printf("failed: %s (%d)\n", what, err);
  return 1;
}

}  // namespace

int main(int argc, char **argv) {
  const size_t items = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4) << 18;  // MiB of ints
  // The first device of the first node and the first of another node.
  cl_device_id pair[2] = {nullptr, nullptr};
  cl_uint first_node = 0;
  for (auto [d, node] : devices_with_nodes()) {
    if (node == 0) continue;
    if (!pair[0]) pair[0] = d, first_node = node;
    else if (!pair[1] && node != first_node) pair[1] = d;
  }
  if (!pair[1]) return fail("two devices on two nodes", CL_DEVICE_NOT_FOUND);
  char hosts[2][256] = {};
  for (int i = 0; i < 2; ++i) clGetDeviceInfo(pair[i], CL_DEVICE_NODE_HOST_UNICL, sizeof hosts[i], hosts[i], nullptr);
  std::printf("devices on two nodes: %s and %s\n", hosts[0], hosts[1]);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 2, pair, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) return fail("clCreateContext", err);
  cl_command_queue q[2];
  for (int i = 0; i < 2; ++i) q[i] = clCreateCommandQueue(ctx, pair[i], 0, &err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  if ((err = clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr)) != CL_SUCCESS)
    return fail("clBuildProgram", err);
  cl_kernel inc = clCreateKernel(program, "inc", &err);
  if (argc > 2 && std::strcmp(argv[2], "--moves") == 0) {
    uint64_t during = 0;
    for (size_t size : {size_t{4096}, size_t{1} << 20}) {
      std::vector<char> bytes(size, 1);
      cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, nullptr, &err);
      // Writes to the first node and reads back, as bench-cluster times them.
      for (int i = 0; i < 10 && err == CL_SUCCESS; ++i) {
        err = clEnqueueWriteBuffer(q[0], m, CL_TRUE, 0, size, bytes.data(), 0, nullptr, nullptr);
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(q[0], m, CL_TRUE, 0, size, bytes.data(), 0, nullptr, nullptr);
      }
      for (int i = 0; i < 10 && err == CL_SUCCESS; ++i) {
        err = clEnqueueWriteBuffer(q[0], m, CL_TRUE, 0, size, bytes.data(), 0, nullptr, nullptr);
        const uint64_t before = rank0_bytes();
        if (err == CL_SUCCESS) err = clEnqueueMigrateMemObjects(q[1], 1, &m, 0, 0, nullptr, nullptr);
        if (err == CL_SUCCESS) err = clFinish(q[1]);
        if (size > 4096) during += rank0_bytes() - before;
      }
      clReleaseMemObject(m);
      if (err != CL_SUCCESS) return fail("a move between the nodes", err);
    }
    std::printf("rank0 bytes in 1 MiB moves %llu\n", static_cast<unsigned long long>(during));
  }
  std::vector<cl_int> host(items);
  for (size_t i = 0; i < items; ++i) host[i] = static_cast<cl_int>(i);
  cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * 4, host.data(), &err);
  clSetKernelArg(inc, 0, sizeof buffer, &buffer);
  // On the first node: the buffer goes there from rank 0, and is then only
  // valid there.
  if ((err = clEnqueueNDRangeKernel(q[0], inc, 1, nullptr, &items, nullptr, 0, nullptr, nullptr)) != CL_SUCCESS)
    return fail("kernel on the first node", err);
  clFinish(q[0]);
  const uint64_t bytes_before = rank0_bytes();
  if (bytes_before == UINT64_MAX) return fail("unicl_cluster_bulk_bytes not found", CL_INVALID_OPERATION);
  // What came from rank 0 so far: at least the buffer's initial content.
  std::printf("rank0 bytes before %llu\n", static_cast<unsigned long long>(bytes_before));
  const cl_ulong moved_before = moved(ctx);
  // On the other node: the buffer comes from the first.
  if ((err = clEnqueueNDRangeKernel(q[1], inc, 1, nullptr, &items, nullptr, 0, nullptr, nullptr)) != CL_SUCCESS)
    return fail("kernel on the second node", err);
  if ((err = clFinish(q[1])) != CL_SUCCESS) return fail("clFinish", err);
  std::printf("rank0 bytes %llu\nmoved bytes %llu\n", static_cast<unsigned long long>(rank0_bytes() - bytes_before),
              static_cast<unsigned long long>(moved(ctx) - moved_before));
  std::vector<cl_int> out(items);
  if ((err = clEnqueueReadBuffer(q[1], buffer, CL_TRUE, 0, items * 4, out.data(), 0, nullptr, nullptr)) != CL_SUCCESS)
    return fail("read", err);
  bool ok = true;
  for (size_t i = 0; i < items && ok; ++i) ok = out[i] == static_cast<cl_int>(i) + 2;
  std::printf("result: %s\n", ok ? "OK" : "WRONG");
  clReleaseMemObject(buffer);
  clReleaseKernel(inc);
  clReleaseProgram(program);
  for (cl_command_queue x : q) clReleaseCommandQueue(x);
  clReleaseContext(ctx);
  return ok ? 0 : 1;
}
