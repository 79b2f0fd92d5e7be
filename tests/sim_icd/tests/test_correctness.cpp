// Correctness mode (correctness.conf): kernels really run, on PoCL, over the
// simulator's buffers, and still take at least their modeled time.
#include "sim_test.hpp"

using namespace simtest;

namespace {

// vadd over n floats on device `name`; checks the sums, returns the event.
Event run_vadd(cl_context ctx, cl_command_queue q, cl_program prog, size_t n, float base) {
  std::vector<float> a(n), b(n), c(n, -1);
  for (size_t i = 0; i < n; ++i) a[i] = base + static_cast<float>(i), b[i] = 2.0f * static_cast<float>(i);
  auto ba = buffer(ctx, n * sizeof(float), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.data());
  auto bb = buffer(ctx, n * sizeof(float));
  auto bc = buffer(ctx, n * sizeof(float));
  REQUIRE(clEnqueueWriteBuffer(q, bb.get(), CL_FALSE, 0, n * sizeof(float), b.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  auto k = kernel(prog, "vadd");
  cl_mem args[] = {ba.get(), bb.get(), bc.get()};
  for (cl_uint i = 0; i < 3; ++i) REQUIRE(clSetKernelArg(k.get(), i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
  cl_event e = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(q, k.get(), 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS);
  Event done(e);
  REQUIRE(clEnqueueReadBuffer(q, bc.get(), CL_TRUE, 0, n * sizeof(float), c.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  CHECK(wrong == 0);
  return done;
}

}  // namespace

TEST_CASE("vadd gives correct sums and takes at least the modeled time", "[correctness]") {
  cl_platform_id p = sim_platform();
  cl_device_id gpu = device_named(p, "gpu0"), cpu = device_named(p, "cpu0");
  auto ctx = context_for({gpu, cpu});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), gpu);
  const size_t n = 65536;
  // vadd: 1500 * n flops at 1 GFLOPS.
  const double modeled_ms = 1500.0 * n / 1e9 * 1e3;
  auto first = run_vadd(ctx.get(), q.get(), prog.get(), n, 1.0f);
  CHECK(profiled_ms(first.get()) >= modeled_ms);

  SECTION("again with other data, now in about the modeled time") {
    // Built and cached by now: PoCL's part is small.
    float base = 1000.0f;
    check_modeled_retry([&] { return profiled_ms(run_vadd(ctx.get(), q.get(), prog.get(), n, base++).get()); },
                        modeled_ms);
  }
  SECTION("on another device of the context") {
    auto qc = queue_for(ctx.get(), cpu);
    auto on_cpu = run_vadd(ctx.get(), qc.get(), prog.get(), n, 7.0f);
    CHECK(profiled_ms(on_cpu.get()) >= modeled_ms / 2);  // 2 GFLOPS
  }
}

TEST_CASE("Sub-buffers pass PoCL the bytes at their offset", "[correctness]") {
  cl_device_id gpu = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({gpu});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), gpu);
  const size_t n = 1024, offset = 256;  // floats; 1 KiB offset, a multiple of the 128-byte alignment
  std::vector<float> a(n), b(n), c(n, 0);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<float>(i), b[i] = 0.5f;
  auto ba = buffer(ctx.get(), n * sizeof(float), CL_MEM_COPY_HOST_PTR, a.data());
  auto bb = buffer(ctx.get(), n * sizeof(float), CL_MEM_COPY_HOST_PTR, b.data());
  auto bc = buffer(ctx.get(), n * sizeof(float), CL_MEM_COPY_HOST_PTR, c.data());
  cl_buffer_region region{offset * sizeof(float), (n - offset) * sizeof(float)};
  cl_int err = CL_SUCCESS;
  Mem sa(clCreateSubBuffer(ba.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  REQUIRE(err == CL_SUCCESS);
  Mem sc(clCreateSubBuffer(bc.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  REQUIRE(err == CL_SUCCESS);
  auto k = kernel(prog.get(), "vadd");
  cl_mem args[] = {sa.get(), bb.get(), sc.get()};
  for (cl_uint i = 0; i < 3; ++i) REQUIRE(clSetKernelArg(k.get(), i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
  size_t items = n - offset;
  REQUIRE(clEnqueueNDRangeKernel(q.get(), k.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(q.get(), bc.get(), CL_TRUE, 0, n * sizeof(float), c.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) {
    INFO("element " << i);
    CHECK(c[i] == (i < offset ? 0.0f : static_cast<float>(i) + 0.5f));
  }
}

TEST_CASE("PoCL's view of a buffer follows later writes and feeds later kernels", "[correctness]") {
  cl_device_id gpu = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({gpu});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), gpu);
  const size_t n = 256, bytes = n * sizeof(float);
  std::vector<float> ones(n, 1.0f), out(n);
  auto a = buffer(ctx.get(), bytes, CL_MEM_COPY_HOST_PTR, ones.data());
  auto b = buffer(ctx.get(), bytes, CL_MEM_COPY_HOST_PTR, ones.data());
  auto c = buffer(ctx.get(), bytes);
  auto k = kernel(prog.get(), "vadd");
  auto run = [&](cl_mem x, cl_mem y, cl_mem z) {
    cl_mem args[] = {x, y, z};
    for (cl_uint i = 0; i < 3; ++i) REQUIRE(clSetKernelArg(k.get(), i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(q.get(), k.get(), 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  };
  run(a.get(), b.get(), c.get());  // c = 2
  std::vector<float> tens(n, 10.0f);
  REQUIRE(clEnqueueWriteBuffer(q.get(), a.get(), CL_FALSE, 0, bytes, tens.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  run(a.get(), c.get(), b.get());  // b = 10 + 2
  REQUIRE(clEnqueueReadBuffer(q.get(), b.get(), CL_TRUE, 0, bytes, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(out == std::vector<float>(n, 12.0f));
}

TEST_CASE("Kernels see and update CL_MEM_USE_HOST_PTR memory at any alignment", "[correctness]") {
  cl_device_id gpu = device_named(sim_platform(), "gpu0");
  auto ctx = context_for({gpu});
  auto prog = built_program(ctx.get(), kSource);
  auto q = queue_for(ctx.get(), gpu);
  const size_t n = 1000;
  // One float past an aligned start: PoCL cannot use such memory in place.
  std::vector<float> storage(3 * (n + 1) + 64);
  float *a = storage.data() + 1, *b = a + n + 1, *c = b + n + 1;
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<float>(i), b[i] = 1, c[i] = -1;
  auto ba = buffer(ctx.get(), n * sizeof(float), CL_MEM_USE_HOST_PTR, a);
  auto bb = buffer(ctx.get(), n * sizeof(float), CL_MEM_USE_HOST_PTR, b);
  auto bc = buffer(ctx.get(), n * sizeof(float), CL_MEM_USE_HOST_PTR, c);
  auto k = kernel(prog.get(), "vadd");
  cl_mem args[] = {ba.get(), bb.get(), bc.get()};
  for (cl_uint i = 0; i < 3; ++i) REQUIRE(clSetKernelArg(k.get(), i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
  for (float step : {1.0f, 2.0f}) {
    // The second round changes b through the simulator between launches.
    std::vector<float> bs(n, step);
    REQUIRE(clEnqueueWriteBuffer(q.get(), bb.get(), CL_FALSE, 0, n * sizeof(float), bs.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(q.get(), k.get(), 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(q.get()) == CL_SUCCESS);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) wrong += c[i] != static_cast<float>(i) + step;
    CHECK(wrong == 0);
  }
}
