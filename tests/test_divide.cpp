// Divided launches (cl_unicl_divide): a kernel carrying a divide function,
// enqueued on a device-less queue, runs undivided or as the pieces its divide
// function enqueues for a factor UniCL chooses. Whatever the factor and the
// policy, the results are those of one launch; the event the application
// gets stands for every piece; failures of the divide function fail that
// event and nothing else.
#include <catch2/catch.hpp>

#include <child_process.hpp>

#include <CL/cl_ext_unicl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "isolated.hpp"
#include "multi_device.hpp"
#include "scenario.hpp"
#include "scheduling.hpp"

namespace {

// Integer arithmetic (and fixed point for Mandelbrot): every device computes
// exactly what the host does.
const char *kSource = R"CL(
__kernel void matmul(__global const uint *a, __global const uint *b, __global uint *c, uint n) {
  size_t col = get_global_id(0), row = get_global_id(1);
  uint s = 0;
  for (uint k = 0; k < n; ++k) s += a[row * n + k] * b[k * n + col];
  c[row * n + col] = s;
}
uint mandelbrot_at(long px, long py, uint width, uint height, uint max_iter) {
  long x0 = px * 3 * 65536 / (long)width - 2 * 65536, y0 = py * 2 * 65536 / (long)height - 65536;
  long x = 0, y = 0;
  uint i = 0;
  while (i < max_iter && x * x + y * y <= 4L * 65536 * 65536) {
    long xt = (x * x - y * y) / 65536 + x0;
    y = 2 * x * y / 65536 + y0;
    x = xt;
    ++i;
  }
  return i;
}
__kernel void mandelbrot(__global uint *out, uint width, uint height, uint max_iter) {
  long px = get_global_id(0), py = get_global_id(1);
  out[py * width + px] = mandelbrot_at(px, py, width, height, max_iter);
}
// Writes the rows from the launch's global offset on into a buffer that holds
// those rows only.
__kernel void mandelbrot_block(__global uint *out, uint width, uint height, uint max_iter) {
  long px = get_global_id(0), py = get_global_id(1);
  out[(py - get_global_offset(1)) * width + px] = mandelbrot_at(px, py, width, height, max_iter);
}
__kernel void forces(__global const float4 *pos, __global float4 *force, uint n) {
  size_t i = get_global_id(0);
  float4 p = pos[i];
  float4 f = (float4)(0.0f);
  for (uint j = 0; j < n; ++j) {
    float4 d = pos[j] - p;
    d.w = 0.0f;
    float r2 = dot(d, d) + 0.01f;
    f += d * (pos[j].w / (r2 * sqrt(r2)));
  }
  force[i] = f;
}
__kernel void twice(__global const uint *in, __global uint *out) {
  size_t i = get_global_id(0);
  out[i] = 2u * in[i];
}
)CL";

const std::vector<std::string> kPolicies = {"heft", "eager", "ws", "random", "round-robin"};

clSetKernelDivideFunctionUNICL_fn set_divide() {
  auto fn = reinterpret_cast<clSetKernelDivideFunctionUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(cltest::platform()(), "clSetKernelDivideFunctionUNICL"));
  REQUIRE(fn);
  return fn;
}

// A scheduling context with its policy, and a fixed factor when given (0:
// every launch undivided).
cl::Context divide_context(const std::vector<cl::Device> &devices, const std::string &policy,
                           std::optional<cl_uint> factor = std::nullopt, const char *strategy = nullptr) {
  std::vector<cl_context_properties> more;
  if (factor) more.insert(more.end(), {CL_CONTEXT_DIVIDE_FACTOR_UNICL, (cl_context_properties)*factor});
  if (strategy) more.insert(more.end(), {CL_CONTEXT_GRANULARITY_UNICL, (cl_context_properties)strategy});
  return cltest::scheduling_context(devices, policy, 0, more);
}

// Cuts [0, n) into `parts` ranges that differ by at most one.
std::vector<std::pair<size_t, size_t>> cut(size_t n, size_t parts) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0, at = 0; i < parts; ++i) {
    size_t size = n / parts + (i < n % parts ? 1 : 0);
    if (size) out.emplace_back(at, size);
    at += size;
  }
  return out;
}

// What the divide functions below see of their launch, and what they saw.
struct RowSplit {
  cl_kernel kernel;
  size_t width, height;  // a 2-D range cut by rows (dimension 1)
  std::atomic<int> calls{0};
  std::atomic<cl_uint> last_factor{0};
};

// Divide function: `factor` bands of rows through global offsets, each after
// `before`, and a marker after all of them.
cl_int CL_CALLBACK by_rows(cl_command_queue q, cl_uint factor, void *data, cl_event before, cl_event *after) {
  auto &s = *static_cast<RowSplit *>(data);
  s.calls += 1;
  s.last_factor = factor;
  std::vector<cl_event> pieces;
  for (auto [row, rows] : cut(s.height, factor)) {
    const size_t offset[2] = {0, row}, global[2] = {s.width, rows};
    cl_event e = nullptr;
    if (cl_int err = clEnqueueNDRangeKernel(q, s.kernel, 2, offset, global, nullptr, 1, &before, &e); err != CL_SUCCESS)
      return err;
    pieces.push_back(e);
  }
  cl_int err = clEnqueueMarkerWithWaitList(q, static_cast<cl_uint>(pieces.size()), pieces.data(), after);
  for (cl_event e : pieces) clReleaseEvent(e);
  return err;
}

// A w x h Mandelbrot image whose kernel carries by_rows with factors
// 1..max_factor.
struct DividedMandelbrot {
  cl_uint w, h, iters;
  cl::Buffer out;
  cl::Kernel kernel;
  RowSplit split;
  DividedMandelbrot(const cl::Context &ctx, const cl::Program &program, cl_uint w_, cl_uint h_, cl_uint iters_,
                    cl_uint max_factor)
      : w(w_), h(h_), iters(iters_), out(ctx, CL_MEM_WRITE_ONLY, w_ * h_ * 4), kernel(program, "mandelbrot"),
        split{nullptr, w_, h_} {
    kernel.setArg(0, out), kernel.setArg(1, w), kernel.setArg(2, h), kernel.setArg(3, iters);
    split.kernel = kernel();
    REQUIRE(set_divide()(kernel(), by_rows, &split, 1, max_factor) == CL_SUCCESS);
  }
  cl::NDRange range() const { return cl::NDRange(w, h); }
  std::vector<cl_uint> expected() const;
};

// The N-body step with the structure of a SOCL divide function (input
// transfer after `before`, a barrier, kernels of 2^factor blocks, each
// block's output read back after its kernel, a barrier as `after`).
struct NBody {
  cl_kernel kernel;
  cl_mem pos, force;
  std::vector<cl_float4> *host_pos, *host_force;
  size_t n;
};

cl_int CL_CALLBACK nbody_blocks(cl_command_queue q, cl_uint factor, void *data, cl_event before, cl_event *after) {
  auto &s = *static_cast<NBody *>(data);
  cl_int err = clEnqueueWriteBuffer(q, s.pos, CL_FALSE, 0, s.n * sizeof(cl_float4), s.host_pos->data(), 1, &before,
                                    nullptr);
  if (err == CL_SUCCESS) err = clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr);
  for (auto [first, count] : cut(s.n, size_t{1} << factor)) {
    if (err != CL_SUCCESS) break;
    const size_t offset = first, global = count;
    cl_event k = nullptr;
    err = clEnqueueNDRangeKernel(q, s.kernel, 1, &offset, &global, nullptr, 0, nullptr, &k);
    if (err != CL_SUCCESS) break;
    err = clEnqueueReadBuffer(q, s.force, CL_FALSE, first * sizeof(cl_float4), count * sizeof(cl_float4),
                              s.host_force->data() + first, 1, &k, nullptr);
    clReleaseEvent(k);
  }
  if (err == CL_SUCCESS) err = clEnqueueBarrierWithWaitList(q, 0, nullptr, after);
  return err;
}

std::vector<cl_uint> host_matmul(const std::vector<cl_uint> &a, const std::vector<cl_uint> &b, size_t n) {
  std::vector<cl_uint> c(n * n);
  for (size_t r = 0; r < n; ++r)
    for (size_t col = 0; col < n; ++col) {
      cl_uint s = 0;
      for (size_t k = 0; k < n; ++k) s += a[r * n + k] * b[k * n + col];
      c[r * n + col] = s;
    }
  return c;
}

std::vector<cl_uint> host_mandelbrot(int64_t width, int64_t height, cl_uint max_iter) {
  std::vector<cl_uint> out(static_cast<size_t>(width * height));
  for (int64_t py = 0; py < height; ++py)
    for (int64_t px = 0; px < width; ++px) {
      int64_t x0 = px * 3 * 65536 / width - 2 * 65536, y0 = py * 2 * 65536 / height - 65536;
      int64_t x = 0, y = 0;
      cl_uint i = 0;
      while (i < max_iter && x * x + y * y <= 4LL * 65536 * 65536) {
        int64_t xt = (x * x - y * y) / 65536 + x0;
        y = 2 * x * y / 65536 + y0;
        x = xt;
        ++i;
      }
      out[static_cast<size_t>(py * width + px)] = i;
    }
  return out;
}

std::vector<cl_uint> DividedMandelbrot::expected() const {
  return host_mandelbrot(w, h, iters);
}

cl_uint factor_of(const cl::Event &e) {
  cl_uint f = 99;
  REQUIRE(clGetEventInfo(e(), CL_EVENT_DIVIDE_FACTOR_UNICL, sizeof f, &f, nullptr) == CL_SUCCESS);
  return f;
}

std::vector<cl_device_id> devices_of(const cl::Event &e) {
  size_t bytes = 0;
  REQUIRE(clGetEventInfo(e(), CL_EVENT_DEVICES_UNICL, 0, nullptr, &bytes) == CL_SUCCESS);
  std::vector<cl_device_id> out(bytes / sizeof(cl_device_id));
  REQUIRE(clGetEventInfo(e(), CL_EVENT_DEVICES_UNICL, bytes, out.data(), nullptr) == CL_SUCCESS);
  return out;
}

// The factors a child's launches chose, in order: the first line of its
// output that holds only numbers.
std::vector<int> factors_printed(const std::string &out) {
  std::vector<int> factors;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line) && factors.empty();) {
    if (line.empty() || line.find_first_not_of("0123456789 ") != std::string::npos) continue;
    std::istringstream in(line);
    for (int f; in >> f;) factors.push_back(f);
  }
  return factors;
}

// The measured mean of each factor tried for `kernel`, from the persisted
// models' lines "factor<TAB>shape<TAB>f<TAB>count<TAB>mean" whose shape is
// that kernel's (a later line of one factor wins).
std::map<int, double> factor_means(const std::string &models, const std::string &kernel) {
  std::map<int, double> mean;
  std::istringstream file(models);
  for (std::string line; std::getline(file, line);) {
    if (line.rfind("factor\t" + kernel + " ", 0) != 0) continue;
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string s; std::getline(fields, s, '\t');) f.push_back(s);
    REQUIRE(f.size() == 5);
    mean[std::stoi(f[2])] = std::stod(f[4]);
  }
  return mean;
}

// Matmul, Mandelbrot and N-body, each divided by `factor` (0: undivided) on
// `devices` under `policy`: the results are the host's.
void check_all_kernels(const std::vector<cl::Device> &devices, const std::string &policy, cl_uint factor) {
  INFO("policy " << policy << ", factor " << factor);
  cl::Context ctx = divide_context(devices, policy, factor);
  cl::Program program = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);  // in order: reads follow their launch
  auto divide = set_divide();

  {  // matmul by rows: 24x24, a height the factors do not all divide
    const size_t n = 24;
    std::vector<cl_uint> a(n * n), b(n * n), c(n * n, 0);
    for (size_t i = 0; i < n * n; ++i) a[i] = static_cast<cl_uint>(i % 7 + 1), b[i] = static_cast<cl_uint>(i % 5 + 2);
    cl::Buffer A(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, a.data());
    cl::Buffer B(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, b.data());
    cl::Buffer C(ctx, CL_MEM_WRITE_ONLY, n * n * 4);
    cl::Kernel k(program, "matmul");
    k.setArg(0, A), k.setArg(1, B), k.setArg(2, C), k.setArg(3, static_cast<cl_uint>(n));
    RowSplit split{k(), n, n};
    REQUIRE(divide(k(), by_rows, &split, 1, 5) == CL_SUCCESS);
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n, n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(q.enqueueReadBuffer(C, CL_TRUE, 0, n * n * 4, c.data()) == CL_SUCCESS);
    CHECK(c == host_matmul(a, b, n));
    CHECK(factor_of(e) == std::min<cl_uint>(factor, 5));
    CHECK(split.calls == (factor ? 1 : 0));
  }
  {  // Mandelbrot by rows, 2-D, 40x30
    DividedMandelbrot m(ctx, program, 40, 30, 64, 4);
    std::vector<cl_uint> out(m.w * m.h, 0);
    REQUIRE(q.enqueueNDRangeKernel(m.kernel, cl::NullRange, m.range()) == CL_SUCCESS);
    REQUIRE(q.enqueueReadBuffer(m.out, CL_TRUE, 0, out.size() * 4, out.data()) == CL_SUCCESS);
    CHECK(out == m.expected());
  }
  {  // N-body forces, 1-D, 100 particles
    const size_t n = 100;
    std::vector<cl_float4> pos(n), force(n), scratch(n);
    for (size_t i = 0; i < n; ++i)
      pos[i] = {{static_cast<float>(i % 10), static_cast<float>(i / 10), static_cast<float>(i % 3), 1.0f + i % 4}};
    cl::Buffer P(ctx, CL_MEM_READ_ONLY, n * sizeof(cl_float4)), F(ctx, CL_MEM_READ_WRITE, n * sizeof(cl_float4));
    cl::Kernel k(program, "forces");
    k.setArg(0, P), k.setArg(1, F), k.setArg(2, static_cast<cl_uint>(n));
    NBody s{k(), P(), F(), &pos, &scratch, n};
    REQUIRE(divide(k(), nbody_blocks, &s, 1, 3) == CL_SUCCESS);
    REQUIRE(q.enqueueWriteBuffer(P, CL_FALSE, 0, n * sizeof(cl_float4), pos.data()) == CL_SUCCESS);
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n)) == CL_SUCCESS);
    REQUIRE(q.enqueueReadBuffer(F, CL_TRUE, 0, n * sizeof(cl_float4), force.data()) == CL_SUCCESS);
    for (size_t i = 0; i < n; ++i) {
      double f[3] = {0, 0, 0};
      for (size_t j = 0; j < n; ++j) {
        double d[3] = {pos[j].s[0] - pos[i].s[0], pos[j].s[1] - pos[i].s[1], pos[j].s[2] - pos[i].s[2]};
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
        for (int c = 0; c < 3; ++c) f[c] += d[c] * pos[j].s[3] / (r2 * std::sqrt(r2));
      }
      for (int c = 0; c < 3; ++c) CHECK(force[i].s[c] == Approx(f[c]).epsilon(1e-3).margin(1e-3));
      if (factor) CHECK(scratch[i].s[0] == force[i].s[0]);  // the divide function's own read-back
    }
  }
}

}  // namespace

TEST_CASE("divided launches compute what one launch computes, for every factor and policy", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  REQUIRE(md.size() == 2);
  for (auto &policy : kPolicies)
    for (cl_uint factor = 0; factor <= 5; ++factor) check_all_kernels(md.devices, policy, factor);
}

TEST_CASE("divided launches run on PoCL with oclgrind", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "Oclgrind"});
  REQUIRE(md.size() == 2);
  cl::Context ctx = divide_context(md.devices, "round-robin", 2);  // one piece on each
  cl::Program program = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  DividedMandelbrot m(ctx, program, 16, 8, 16, 4);
  cl::Event e;
  REQUIRE(q.enqueueNDRangeKernel(m.kernel, cl::NullRange, m.range(), cl::NullRange, nullptr, &e) == CL_SUCCESS);
  std::vector<cl_uint> out(m.w * m.h);
  std::vector<cl::Event> after{e};
  REQUIRE(q.enqueueReadBuffer(m.out, CL_TRUE, 0, out.size() * 4, out.data(), &after) == CL_SUCCESS);
  CHECK(out == m.expected());
  CHECK(factor_of(e) == 2);
  CHECK(devices_of(e).size() == 2);  // round-robin put one band on each device
}

TEST_CASE("SOCL's clSetKernelArg registration of a divide function works unchanged", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  cl::Context ctx = divide_context(md.devices, "heft", std::nullopt, "each-once");
  cl::Program program = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  const size_t n = 16;
  std::vector<cl_uint> a(n * n), b(n * n), c(n * n);
  for (size_t i = 0; i < n * n; ++i) a[i] = static_cast<cl_uint>(i % 3), b[i] = static_cast<cl_uint>(i % 11);
  cl::Buffer A(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, a.data());
  cl::Buffer B(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, b.data());
  cl::Buffer C(ctx, CL_MEM_WRITE_ONLY, n * n * 4);
  cl::Kernel k(program, "matmul");
  RowSplit split{k(), n, n};
  // SOCL's indices: -1 the function itself, -2 the number of factors (SOCL
  // tries 1 .. n-1), -3 the user data itself.
  REQUIRE(clSetKernelArg(k(), static_cast<cl_uint>(-1), sizeof(void *), reinterpret_cast<void *>(by_rows)) ==
          CL_SUCCESS);
  cl_uint space = 4;
  REQUIRE(clSetKernelArg(k(), static_cast<cl_uint>(-2), sizeof(void *), &space) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k(), static_cast<cl_uint>(-3), sizeof(void *), &split) == CL_SUCCESS);
  CHECK(clSetKernelArg(k(), static_cast<cl_uint>(-2), sizeof(void *), nullptr) == CL_INVALID_ARG_VALUE);
  // The real arguments keep working after the registration.
  k.setArg(0, A), k.setArg(1, B), k.setArg(2, C), k.setArg(3, static_cast<cl_uint>(n));
  std::set<cl_uint> seen;
  const auto expected = host_matmul(a, b, n);
  // Each option once (undivided, then 1..3) from a fresh shape: a global
  // size of this run's own keeps earlier runs' statistics out.
  for (int i = 0; i < 6; ++i) {
    std::fill(c.begin(), c.end(), 0);
    REQUIRE(q.enqueueWriteBuffer(C, CL_TRUE, 0, n * n * 4, c.data()) == CL_SUCCESS);
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n, n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(e.wait() == CL_SUCCESS);
    cl_uint f = factor_of(e);
    seen.insert(f);
    if (f) CHECK(split.last_factor == f);
    CHECK(f <= 3);
    REQUIRE(q.enqueueReadBuffer(C, CL_TRUE, 0, n * n * 4, c.data()) == CL_SUCCESS);
    CHECK(c == expected);
  }
  CHECK(split.calls > 0);
}

TEST_CASE("the event of a divided launch stands for its pieces", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  cl::Context ctx = divide_context(md.devices, "round-robin", 4);
  cl::Program program = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  const cl_uint n = 32;
  std::vector<cl_uint> a(n * n, 1), b(n * n, 2);
  cl::Buffer A(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, a.data());
  cl::Buffer B(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, b.data());
  cl::Buffer C(ctx, CL_MEM_WRITE_ONLY, n * n * 4);
  cl::Kernel k(program, "matmul");
  k.setArg(0, A), k.setArg(1, B), k.setArg(2, C), k.setArg(3, n);
  RowSplit split{k(), n, n};
  REQUIRE(set_divide()(k(), by_rows, &split, 1, 8) == CL_SUCCESS);

  // Held by a user event: the enqueue returns at once, the divide function
  // has run (it only enqueues), nothing has completed.
  cl::UserEvent gate(ctx);
  std::vector<cl::Event> wait{gate};
  cl::Event e;
  REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n, n), cl::NullRange, &wait, &e) == CL_SUCCESS);
  CHECK(split.calls == 1);
  std::atomic<cl_int> called{1};
  REQUIRE(e.setCallback(CL_COMPLETE, [](cl_event, cl_int s, void *d) { static_cast<std::atomic<cl_int> *>(d)->store(s); },
                        &called) == CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() > CL_COMPLETE);
  // The in-order queue's next command follows the whole launch.
  std::vector<cl_uint> c(n * n);
  cl::Event read;
  REQUIRE(q.enqueueReadBuffer(C, CL_FALSE, 0, n * n * 4, c.data(), nullptr, &read) == CL_SUCCESS);
  gate.setStatus(CL_COMPLETE);
  REQUIRE(read.wait() == CL_SUCCESS);
  CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
  CHECK(c == std::vector<cl_uint>(n * n, 2 * n));

  CHECK(e.getInfo<CL_EVENT_COMMAND_TYPE>() == static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
  CHECK(e.getInfo<CL_EVENT_COMMAND_QUEUE>()() == q());
  CHECK(e.getInfo<CL_EVENT_CONTEXT>()() == ctx());
  CHECK(factor_of(e) == 4);
  auto devices = devices_of(e);
  CHECK(devices.size() == 2);  // round-robin: four bands over two devices
  for (auto d : devices) CHECK((d == md.devices[0]() || d == md.devices[1]()));
  cl_ulong t[5];
  const cl_profiling_info what[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                     CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; ++i) REQUIRE(clGetEventProfilingInfo(e(), what[i], sizeof t[i], &t[i], nullptr) == CL_SUCCESS);
  CHECK(t[0] <= t[1]);
  CHECK(t[1] <= t[2]);
  CHECK(t[2] <= t[3]);
  CHECK(t[3] == t[4]);
  CHECK(t[2] - t[0] >= 40'000'000);  // it started when the user event was set, after the 50 ms sleep
  for (int i = 0; i < 100 && called.load() == 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(called.load() == CL_COMPLETE);
}

namespace {

cl_int CL_CALLBACK fails(cl_command_queue, cl_uint, void *, cl_event, cl_event *) { return CL_OUT_OF_RESOURCES; }
cl_int CL_CALLBACK enqueues_nothing(cl_command_queue, cl_uint, void *, cl_event, cl_event *) { return CL_SUCCESS; }
// Returns an event of another context.
cl_int CL_CALLBACK foreign_event(cl_command_queue, cl_uint, void *data, cl_event, cl_event *after) {
  cl_int err = CL_SUCCESS;
  *after = clCreateUserEvent(static_cast<cl_context>(data), &err);
  clSetUserEventStatus(*after, CL_COMPLETE);
  return err;
}
// Enqueues its one piece on another queue of the context (a device queue).
struct OtherQueue {
  cl_command_queue queue;
  cl_kernel kernel;
  size_t n;
};
cl_int CL_CALLBACK on_other_queue(cl_command_queue, cl_uint, void *data, cl_event before, cl_event *after) {
  auto &o = *static_cast<OtherQueue *>(data);
  return clEnqueueNDRangeKernel(o.queue, o.kernel, 1, nullptr, &o.n, nullptr, 1, &before, after);
}

}  // namespace

TEST_CASE("bad input to divide functions gets the spec's errors, failing divide functions fail their launch",
          "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  cl::Context ctx = divide_context(md.devices, "heft", 2);
  cl::Program program = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  auto divide = set_divide();
  cl::Kernel k(program, "twice");
  const size_t n = 64;
  std::vector<cl_uint> in(n), out(n, 0);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_uint>(i);
  cl::Buffer I(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, in.data()), O(ctx, CL_MEM_READ_WRITE, n * 4);
  k.setArg(0, I), k.setArg(1, O);

  SECTION("registration") {
    CHECK(divide(nullptr, fails, nullptr, 1, 2) == CL_INVALID_KERNEL);
    CHECK(divide(reinterpret_cast<cl_kernel>(ctx()), fails, nullptr, 1, 2) == CL_INVALID_KERNEL);
    CHECK(divide(k(), fails, nullptr, 0, 2) == CL_INVALID_VALUE);
    CHECK(divide(k(), fails, nullptr, 3, 2) == CL_INVALID_VALUE);
    CHECK(divide(k(), nullptr, nullptr, 0, 0) == CL_SUCCESS);  // removes: nothing to check
    cl::Kernel released(program, "twice");
    cl_kernel handle = released();
    REQUIRE(clRetainKernel(handle) == CL_SUCCESS);
    released = cl::Kernel();
    REQUIRE(clReleaseKernel(handle) == CL_SUCCESS);
    CHECK(divide(handle, fails, nullptr, 1, 2) == CL_INVALID_KERNEL);
    const cl_context_properties bad_strategy[] = {CL_CONTEXT_GRANULARITY_UNICL, (cl_context_properties) "nonsense", 0};
    const cl_context_properties bad_factor[] = {CL_CONTEXT_DIVIDE_FACTOR_UNICL, -1, 0};
    const cl_context_properties no_strategy[] = {CL_CONTEXT_GRANULARITY_UNICL, 0, 0};
    for (auto *props : {bad_strategy, bad_factor, no_strategy}) {
      cl_int err = CL_SUCCESS;
      cl_device_id d = md.devices[0]();
      cl_context c = clCreateContext(props, 1, &d, nullptr, nullptr, &err);
      CHECK(err == CL_INVALID_PROPERTY);
      CHECK(c == nullptr);
    }
  }
  SECTION("a divide function that fails, returns no event, or an event of another context") {
    cl::Context other(md.devices[0]);
    // Out of order: on an in-order queue every later command follows the
    // failed launch, and fails too.
    q = cltest::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    struct Case {
      cl_divide_function_unicl fn;
      void *data;
      cl_int status;
    } cases[] = {{fails, nullptr, CL_OUT_OF_RESOURCES},
                 {enqueues_nothing, nullptr, CL_INVALID_EVENT},
                 {foreign_event, other(), CL_INVALID_EVENT}};
    for (auto &c : cases) {
      REQUIRE(divide(k(), c.fn, c.data, 1, 2) == CL_SUCCESS);
      cl::Event e;
      REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
      cl_event handle = e();
      CHECK(clWaitForEvents(1, &handle) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == c.status);
      // What follows the failed launch fails (at once, or later); the queue goes on.
      cl_event m = nullptr;
      cl_int err = clEnqueueMarkerWithWaitList(q(), 1, &handle, &m);
      if (err == CL_SUCCESS) {
        CHECK(clWaitForEvents(1, &m) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        clReleaseEvent(m);
      } else {
        CHECK(err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      }
    }
    REQUIRE(divide(k(), nullptr, nullptr, 0, 0) == CL_SUCCESS);
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    std::vector<cl::Event> after{e};
    REQUIRE(q.enqueueReadBuffer(O, CL_TRUE, 0, n * 4, out.data(), &after) == CL_SUCCESS);
    CHECK(out[5] == 10);
  }
  SECTION("a divide function that enqueues on another queue of the context") {
    OtherQueue o{md.queues[0](), k(), n};
    // md.queues belong to md.context: make one of this context.
    cl::CommandQueue device_queue(ctx, md.devices[1]);
    o.queue = device_queue();
    REQUIRE(divide(k(), on_other_queue, &o, 1, 2) == CL_SUCCESS);
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(e.wait() == CL_SUCCESS);
    REQUIRE(q.enqueueReadBuffer(O, CL_TRUE, 0, n * 4, out.data()) == CL_SUCCESS);
    for (size_t i = 0; i < n; ++i) CHECK(out[i] == 2 * i);
    auto devices = devices_of(e);
    REQUIRE(devices.size() == 1);
    CHECK(devices[0] == md.devices[1]());
  }
}

TEST_CASE("one kernel launched divided from four threads at once", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  cl::Context ctx = divide_context(md.devices, "heft", std::nullopt, "climb");
  cl::Program program = cltest::build(ctx, kSource);
  DividedMandelbrot m(ctx, program, 32, 24, 32, 6);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      cl_int err = CL_SUCCESS;
      const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
      cl_command_queue q = clCreateCommandQueueWithProperties(ctx(), nullptr, props, &err);
      if (err != CL_SUCCESS) return void(failures += 1);
      const size_t global[2] = {m.w, m.h};
      for (int i = 0; i < 8; ++i) {
        cl_event e = nullptr;
        if (clEnqueueNDRangeKernel(q, m.kernel(), 2, nullptr, global, nullptr, 0, nullptr, &e) != CL_SUCCESS ||
            clWaitForEvents(1, &e) != CL_SUCCESS)
          failures += 1;
        if (e) clReleaseEvent(e);
      }
      clReleaseCommandQueue(q);
    });
  for (auto &t : threads) t.join();
  CHECK(failures == 0);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  std::vector<cl_uint> out(m.w * m.h);
  REQUIRE(q.enqueueReadBuffer(m.out, CL_TRUE, 0, out.size() * 4, out.data()) == CL_SUCCESS);
  CHECK(out == m.expected());
}

TEST_CASE("isolated: factor learning", "[.]") {
  // Run in a child with a cache folder of its own: every option is new.
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  const char *strategy = std::getenv("TEST_STRATEGY");
  cl::Context ctx = divide_context(md.devices, "heft", std::nullopt, strategy);
  cl::Program program = cltest::build(ctx, kSource);
  const bool out_of_order = std::getenv("TEST_OUT_OF_ORDER") != nullptr;
  cl::CommandQueue q = cltest::device_less_queue(ctx, out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
  DividedMandelbrot m(ctx, program, 64, 48, 200, 6);
  std::vector<cl_uint> factors;
  for (int i = 0; i < 14; ++i) {
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(m.kernel, cl::NullRange, m.range(), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(e.wait() == CL_SUCCESS);
    factors.push_back(factor_of(e));
  }
  for (cl_uint f : factors) std::cout << f << " ";
  std::cout << "\n";
}

namespace {

// Runs "isolated: factor learning" with a cache of its own and checks the
// factors its 14 launches ran with.
void check_factor_learning(const std::string &strategy, bool out_of_order) {
  INFO(strategy << (out_of_order ? ", out of order" : ", in order"));
  std::filesystem::path cache = std::filesystem::temp_directory_path() / ("unicl-divide-" + std::to_string(getpid()));
  std::filesystem::remove_all(cache);
  child_process::EnvChanges env{{"XDG_CACHE_HOME", cache.string()}, {"TEST_STRATEGY", strategy}};
  if (out_of_order) env["TEST_OUT_OF_ORDER"] = "1";
  auto run = cltest::run_hidden("isolated: factor learning", env, 120);
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  std::vector<int> factors = factors_printed(run.out);
  REQUIRE(factors.size() == 14);
  if (strategy == "each-once") {
    // Undivided, then 1..6, each once, in order.
    CHECK(std::vector<int>(factors.begin(), factors.begin() + 7) == std::vector<int>{0, 1, 2, 3, 4, 5, 6});
  } else {
    // pthread and basic share this host's cores, one device at a time:
    // the launch stays whole (re-measures try a factor at launch 119).
    CHECK(factors == std::vector<int>(14, 0));
  }
  // After the exploration, one choice dominates (launch 7 re-measures
  // another; close options may trade places on a noisy host).
  std::map<int, int> later;
  for (size_t i = 7; i < factors.size(); ++i) later[factors[i]] += 1;
  int most = 0;
  for (auto &[f, count] : later) most = std::max(most, count);
  CHECK(most >= 4);
  std::string models = cltest::slurp((cache / "unicl" / "models.tsv").string());
  CHECK(models.find("factor\tmandelbrot 64x48 on ") != std::string::npos);
  std::filesystem::remove_all(cache);
}

}  // namespace

// On a queue out of order too: each launch is waited for before the next is
// enqueued, so none runs beside the next one. None may make the next one look
// saturated (run whole) in the moment between its event's end and UniCL's
// record of that end: each-once then ran launches whole again.
TEST_CASE("the factor strategies explore, then keep to the fastest; the times persist", "[divide]") {
  for (bool out_of_order : {false, true})
    for (std::string strategy : {"each-once", "climb"}) check_factor_learning(strategy, out_of_order);
}

namespace {

// A program written for StarPU SOCL, as its examples are: it finds its
// platform by SOCL's vendor string, specializes its kernel with SOCL's
// per-device macro, registers a divide function through clSetKernelArg and
// makes buffers over host memory inside it, mapped to read the result.
const char *kSoclSource = R"CL(
__kernel void add(__global float *s1, __global float *s2, __global float *d) {
  size_t i = get_global_id(0);
#ifdef SOCL_DEVICE_TYPE_GPU
  d[i] = s1[i] + s2[i];
#endif
#ifdef SOCL_DEVICE_TYPE_CPU
  d[i] = s1[i] + 2 * s2[i];
#endif
#ifdef SOCL_DEVICE_TYPE_ACCELERATOR
  d[i] = s1[i] + 3 * s2[i];
#endif
#ifdef SOCL_DEVICE_TYPE_UNKNOWN
  d[i] = s1[i] + 4 * s2[i];
#endif
}
)CL";

constexpr size_t kSoclSize = 1024;
struct SoclProgram {
  cl_context context;
  cl_kernel kernel;
  float s1[kSoclSize], s2[kSoclSize], d[kSoclSize];
};

// SOCL's basicsplit pattern: buffers over the application's arrays, the
// kernel, and a map of the result as the piece's event.
void socl_add(SoclProgram &p, cl_command_queue q, size_t offset, size_t size, cl_uint n, const cl_event *wait,
              cl_event *event) {
  cl_int err = CL_SUCCESS;
  cl_mem s1 = clCreateBuffer(p.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, size * 4, p.s1 + offset, &err);
  cl_mem s2 = clCreateBuffer(p.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, size * 4, p.s2 + offset, &err);
  cl_mem d = clCreateBuffer(p.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, size * 4, p.d + offset, &err);
  clSetKernelArg(p.kernel, 0, sizeof(cl_mem), &s1);
  clSetKernelArg(p.kernel, 1, sizeof(cl_mem), &s2);
  clSetKernelArg(p.kernel, 2, sizeof(cl_mem), &d);
  const size_t local = 16;
  cl_event k = nullptr;
  err = clEnqueueNDRangeKernel(q, p.kernel, 1, nullptr, &size, &local, n, wait, &k);
  if (err != CL_SUCCESS) std::cout << "launch failed " << err << "\n";
  clEnqueueMapBuffer(q, d, CL_FALSE, CL_MAP_READ, 0, size * 4, 1, &k, event, &err);
  clReleaseEvent(k);
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  clReleaseMemObject(d);
}

cl_int CL_CALLBACK socl_split(cl_command_queue q, cl_uint factor, void *data, cl_event before, cl_event *after) {
  auto &p = *static_cast<SoclProgram *>(data);
  std::vector<cl_event> pieces(factor);
  // Blocks of whole work-groups of 16; the last one takes the rest (SOCL's
  // basicsplit drops it, which leaves elements uncomputed at factor 3).
  const size_t size = kSoclSize / factor - (kSoclSize / factor) % 16;
  for (cl_uint i = 0; i < factor; ++i)
    socl_add(p, q, size * i, i + 1 < factor ? size : kSoclSize - size * i, 1, &before, &pieces[i]);
  cl_int err = clEnqueueMarkerWithWaitList(q, factor, pieces.data(), after);
  for (cl_event e : pieces) clReleaseEvent(e);
  return err;
}

// The platform SOCL programs look for: SOCL's vendor and name; null when
// there is none ("SOCL platform not found").
cl_platform_id socl_platform() {
  cl_platform_id platforms[8];
  cl_uint count = 0;
  REQUIRE(clGetPlatformIDs(8, platforms, &count) == CL_SUCCESS);
  for (cl_uint i = 0; i < count; ++i) {
    char vendor[64] = {}, name[64] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_VENDOR, sizeof vendor, vendor, nullptr);
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(vendor) == "Inria" && std::string(name) == "SOCL Platform") return platforms[i];
  }
  return nullptr;
}

// SOCL's examples' "add" kernel built from `source` in `ctx`, with three
// buffers of `bytes` (s1 and s2 read, d written) set as its arguments;
// released with it.
struct SoclAdd {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_mem s1 = nullptr, s2 = nullptr, d = nullptr;
  SoclAdd(cl_context ctx, const char *source, size_t bytes) {
    cl_int err = CL_SUCCESS;
    program = clCreateProgramWithSource(ctx, 1, &source, nullptr, &err);
    REQUIRE(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
    kernel = clCreateKernel(program, "add", &err);
    s1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    s2 = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, nullptr, &err);
    d = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(kernel, 0, sizeof(cl_mem), &s1);
    clSetKernelArg(kernel, 1, sizeof(cl_mem), &s2);
    clSetKernelArg(kernel, 2, sizeof(cl_mem), &d);
  }
  ~SoclAdd() {
    for (cl_mem m : {s1, s2, d}) clReleaseMemObject(m);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  SoclAdd(const SoclAdd &) = delete;
  SoclAdd &operator=(const SoclAdd &) = delete;
};

}  // namespace

TEST_CASE("isolated: a SOCL program", "[.]") {
  cl_platform_id socl = socl_platform();
  REQUIRE(socl);  // "SOCL platform not found" otherwise
  cl_device_id devices[8];
  cl_uint n = 0;
  REQUIRE(clGetDeviceIDs(socl, CL_DEVICE_TYPE_ALL, 8, devices, &n) == CL_SUCCESS);
  REQUIRE(n >= 2);
  auto p = std::make_unique<SoclProgram>();
  for (size_t i = 0; i < kSoclSize; ++i) p->s1[i] = 2, p->s2[i] = 7, p->d[i] = 98;
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)socl, 0};
  p->context = clCreateContext(props, n, devices, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program program = clCreateProgramWithSource(p->context, 1, &kSoclSource, nullptr, &err);
  REQUIRE(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  p->kernel = clCreateKernel(program, "add", &err);
  cl_command_queue q =
      clCreateCommandQueue(p->context, nullptr, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(p->kernel, static_cast<cl_uint>(-1), sizeof(void *), reinterpret_cast<void *>(socl_split)) ==
          CL_SUCCESS);
  cl_uint space = 5;
  REQUIRE(clSetKernelArg(p->kernel, static_cast<cl_uint>(-2), sizeof(void *), &space) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(p->kernel, static_cast<cl_uint>(-3), sizeof(void *), p.get()) == CL_SUCCESS);
  for (int i = 0; i < 12; ++i) {
    socl_add(*p, q, 0, kSoclSize, 0, nullptr, nullptr);
    REQUIRE(clFinish(q) == CL_SUCCESS);
  }
  // PoCL's devices are CPUs: every element s1 + 2 * s2.
  for (size_t i = 0; i < kSoclSize; ++i) REQUIRE(p->d[i] == 16.0f);
  clReleaseCommandQueue(q);
  clReleaseKernel(p->kernel);
  clReleaseProgram(program);
  clReleaseContext(p->context);
}

// The patterns of SOCL's other examples, each checked against what it must
// compute on PoCL's CPU devices.
TEST_CASE("isolated: the patterns of SOCL's testmap and mansched and mandelbrot", "[.]") {
  cl_platform_id socl = socl_platform();
  REQUIRE(socl);
  cl_device_id devices[8];
  cl_uint n = 0;
  REQUIRE(clGetDeviceIDs(socl, CL_DEVICE_TYPE_ALL, 8, devices, &n) == CL_SUCCESS);
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)socl, 0};
  cl_int err = CL_SUCCESS;
  const size_t size = 1024, bytes = size * 4;
  SECTION("testmap: inputs written through maps on a device-less queue, the result read through a map") {
    cl_context ctx = clCreateContext(props, n, devices, nullptr, nullptr, &err);
    {
      SoclAdd add(ctx, kSoclSource, bytes);
      cl_command_queue q = clCreateCommandQueue(ctx, nullptr, 0, &err);
      REQUIRE(err == CL_SUCCESS);
      auto *a = static_cast<float *>(
          clEnqueueMapBuffer(q, add.s1, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err));
      auto *b = static_cast<float *>(
          clEnqueueMapBuffer(q, add.s2, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err));
      REQUIRE((a && b));
      for (size_t i = 0; i < size; ++i) a[i] = 2, b[i] = 7;
      clEnqueueUnmapMemObject(q, add.s1, a, 0, nullptr, nullptr);
      clEnqueueUnmapMemObject(q, add.s2, b, 0, nullptr, nullptr);
      const size_t local = 16;
      cl_event e = nullptr;
      REQUIRE(clEnqueueNDRangeKernel(q, add.kernel, 1, nullptr, &size, &local, 0, nullptr, &e) == CL_SUCCESS);
      auto *r =
          static_cast<float *>(clEnqueueMapBuffer(q, add.d, CL_TRUE, CL_MAP_READ, 0, bytes, 1, &e, nullptr, &err));
      REQUIRE(r);
      for (size_t i = 0; i < size; ++i) REQUIRE(r[i] == 16.0f);
      clEnqueueUnmapMemObject(q, add.d, r, 0, nullptr, nullptr);
      REQUIRE(clFinish(q) == CL_SUCCESS);
      clReleaseEvent(e);
      clReleaseCommandQueue(q);
    }
    clReleaseContext(ctx);
  }
  SECTION("mansched: a context per device, writes and the kernel ordered by events") {
    const char *plain = "__kernel void add(__global float *s1, __global float *s2, __global float *d) {"
                        " size_t i = get_global_id(0); d[i] = s1[i] + s2[i]; }";
    std::vector<float> a(size, 2), b(size, 7);
    for (cl_uint dev = 0; dev < n; ++dev) {
      std::vector<float> out(size, 98);
      cl_context ctx = clCreateContext(props, 1, &devices[dev], nullptr, nullptr, &err);
      {
        SoclAdd add(ctx, plain, bytes);
        cl_command_queue q = clCreateCommandQueue(ctx, devices[dev], 0, &err);
        cl_event w[2];
        clEnqueueWriteBuffer(q, add.s1, CL_FALSE, 0, bytes, a.data(), 0, nullptr, &w[0]);
        clEnqueueWriteBuffer(q, add.s2, CL_FALSE, 0, bytes, b.data(), 0, nullptr, &w[1]);
        const size_t local = 16;
        REQUIRE(clEnqueueNDRangeKernel(q, add.kernel, 1, nullptr, &size, &local, 2, w, nullptr) == CL_SUCCESS);
        clEnqueueReadBuffer(q, add.d, CL_FALSE, 0, bytes, out.data(), 0, nullptr, nullptr);
        REQUIRE(clFinish(q) == CL_SUCCESS);
        CHECK(out == std::vector<float>(size, 9));
        for (cl_event e : w) clReleaseEvent(e);
        clReleaseCommandQueue(q);
      }
      clReleaseContext(ctx);
    }
  }
  SECTION("mandelbrot: blocks over host memory spread over the devices' own queues, read through maps") {
    // Each block's buffer covers its own rows only: buffers over overlapping
    // host memory give undefined results (OpenCL 3.0, 5.2.1), and a kernel
    // that may read a whole buffer makes the runtime upload all of it while
    // other blocks' maps write their rows back into the same memory.
    const cl_uint w = 64, h = 48, iters = 64, rows = 8;
    cl_context ctx = clCreateContext(props, n, devices, nullptr, nullptr, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
    REQUIRE(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = clCreateKernel(program, "mandelbrot_block", &err);
    std::vector<cl_command_queue> queues;
    for (cl_uint i = 0; i < n; ++i)
      queues.push_back(clCreateCommandQueue(ctx, devices[i], CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err));
    std::vector<cl_uint> image(w * h, 0);
    std::vector<cl_mem> blocks;
    std::vector<cl_event> done;
    for (cl_uint by = 0; by < h / rows; ++by) {
      // One buffer over each block of rows of the host image; the kernel
      // computes the block's rows of the whole image at a global offset.
      blocks.push_back(
          clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, rows * w * 4, image.data() + by * rows * w, &err));
      clSetKernelArg(k, 0, sizeof(cl_mem), &blocks.back());
      clSetKernelArg(k, 1, sizeof(cl_uint), &w);
      clSetKernelArg(k, 2, sizeof(cl_uint), &h);
      clSetKernelArg(k, 3, sizeof(cl_uint), &iters);
      const size_t offset[2] = {0, by * rows}, global[2] = {w, rows};
      cl_command_queue q = queues[by % n];
      cl_event e = nullptr, m = nullptr;
      REQUIRE(clEnqueueNDRangeKernel(q, k, 2, offset, global, nullptr, 0, nullptr, &e) == CL_SUCCESS);
      void *p = clEnqueueMapBuffer(q, blocks.back(), CL_FALSE, CL_MAP_READ, 0, rows * w * 4, 1, &e, &m, &err);
      REQUIRE(p);
      CHECK(p == image.data() + by * rows * w);  // a map of a USE_HOST_PTR buffer is the application's memory
      clReleaseEvent(e);
      done.push_back(m);
    }
    REQUIRE(clWaitForEvents(static_cast<cl_uint>(done.size()), done.data()) == CL_SUCCESS);
    CHECK(image == host_mandelbrot(w, h, iters));
    for (cl_event e : done) clReleaseEvent(e);
    for (cl_mem m : blocks) clReleaseMemObject(m);
    for (cl_command_queue q : queues) clReleaseCommandQueue(q);
    clReleaseKernel(k);
    clReleaseProgram(program);
    clReleaseContext(ctx);
  }
}

TEST_CASE("SOCL compatibility mode: SOCL programs find their platform and their per-device macro", "[divide]") {
  // PoCL alone: its devices are CPUs, so the SOCL kernel's result is known.
  const char *vendors = std::getenv("UNICL_VENDORS");
  REQUIRE(vendors);
  std::string pocl = std::string(vendors) + "/pocl.icd";
  auto run = cltest::run_hidden("isolated: a SOCL program",
                                {{"UNICL_SOCL_COMPAT", std::string("1")}, {"UNICL_VENDORS", pocl}}, 120);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  run = cltest::run_hidden("isolated: the patterns of SOCL's testmap and mansched and mandelbrot",
                           {{"UNICL_SOCL_COMPAT", std::string("1")}, {"UNICL_VENDORS", pocl}}, 120);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  // Without the mode, the same program does not find SOCL's platform.
  run = cltest::run_hidden("isolated: a SOCL program", {{"UNICL_VENDORS", pocl}}, 120);
  CHECK(run.exit_code != 0);
  CHECK_THAT(run.out, Catch::Contains("REQUIRE( socl )"));
}

TEST_CASE("builds define UNICL_DEVICE_TYPE_<type>; CL_PROGRAM_BUILD_OPTIONS is the application's", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread"});
  const char *source = R"CL(
__kernel void type(__global int *out) {
#if defined(UNICL_DEVICE_TYPE_CPU)
  out[0] = 1;
#elif defined(UNICL_DEVICE_TYPE_UNKNOWN)
  out[0] = 2;
#else
  out[0] = 3;
#endif
#ifdef SOCL_DEVICE_TYPE_CPU
  out[0] += 10;  /* SOCL's macro only in SOCL compatibility mode */
#endif
}
)CL";
  cl::Program program(md.context, source);
  REQUIRE(program.build("-DEXTRA=1") == CL_SUCCESS);
  CHECK(program.getBuildInfo<CL_PROGRAM_BUILD_OPTIONS>(md.devices[0]) == "-DEXTRA=1");
  cl::Kernel k(program, "type");
  cl::Buffer out(md.context, CL_MEM_WRITE_ONLY, sizeof(cl_int));
  k.setArg(0, out);
  REQUIRE(md.queues[0].enqueueTask(k) == CL_SUCCESS);
  cl_int value = 0;
  REQUIRE(md.queues[0].enqueueReadBuffer(out, CL_TRUE, 0, sizeof value, &value) == CL_SUCCESS);
  CHECK(value == 1);
}

namespace {

const char *kSplitSource = R"CL(
__kernel void scale(__global const uint *x, __global uint *y) {
  size_t i = get_global_id(0);
  y[i] = 3u * x[i] + (uint)i;
}
__kernel void rows(__global uint *m, uint width) {
  size_t c = get_global_id(0), r = get_global_id(1);
  m[r * width + c] = m[r * width + c] * 2u + (uint)(r * 1000 + c);
}
)CL";

clSetKernelSplitUNICL_fn set_split() {
  auto fn = reinterpret_cast<clSetKernelSplitUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(cltest::platform()(), "clSetKernelSplitUNICL"));
  REQUIRE(fn);
  return fn;
}

// A 64 x 64 grid of ones that kSplitSource's "rows" kernel, declared split
// by rows, updates in place (x = 2x + 1000 r + c): what the host expects
// after each launch is kept beside it.
struct RowsGrid {
  static constexpr cl_uint w = 64, h = 64;
  std::vector<cl_uint> m = std::vector<cl_uint>(w * h, 1), expected = m;
  cl::Buffer M;
  cl::Kernel k;
  RowsGrid(const cl::Context &ctx, const cl::Program &program)
      : M(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, w * h * 4, m.data()), k(program, "rows") {
    k.setArg(0, M), k.setArg(1, w);
    const cl_kernel_split_arg_unicl row{0, 0, w * 4, w * 4};
    REQUIRE(set_split()(k(), 1, 1, &row) == CL_SUCCESS);
  }
  void launched() {
    for (cl_uint r = 0; r < h; ++r)
      for (cl_uint c = 0; c < w; ++c) expected[r * w + c] = expected[r * w + c] * 2 + r * 1000 + c;
  }
  // Reads the grid back and compares.
  void check(cl::CommandQueue &q) {
    REQUIRE(q.enqueueReadBuffer(M, CL_TRUE, 0, m.size() * 4, m.data()) == CL_SUCCESS);
    CHECK(m == expected);
  }
};

cl_ulong bytes_moved(const cl::Context &ctx) {
  cl_ulong moved = 0;
  REQUIRE(clGetContextInfo(ctx(), CL_CONTEXT_BYTES_MOVED_UNICL, sizeof moved, &moved, nullptr) == CL_SUCCESS);
  return moved;
}

}  // namespace

TEST_CASE("the built-in divider cuts declared kernels over the devices, 1-D and 2-D, uneven sizes", "[divide]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  // Factor 1: one piece per device (the learnt factor is tested below).
  cl::Context ctx = divide_context(md.devices, "heft", 1);
  cl::Program program = cltest::build(ctx, kSplitSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  auto split = set_split();

  SECTION("1-D, 1001 elements, with and without a work-group size") {
    for (size_t local : {size_t{0}, size_t{7}}) {
      const size_t n = 1001;  // 7 * 11 * 13
      std::vector<cl_uint> x(n), y(n, 0);
      for (size_t i = 0; i < n; ++i) x[i] = static_cast<cl_uint>(i * 5);
      cl::Buffer X(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, x.data()), Y(ctx, CL_MEM_WRITE_ONLY, n * 4);
      cl::Kernel k(program, "scale");
      k.setArg(0, X), k.setArg(1, Y);
      const cl_kernel_split_arg_unicl args[] = {{0, 0, 4, 4}, {1, 0, 4, 4}};
      REQUIRE(split(k(), 0, 2, args) == CL_SUCCESS);
      cl::Event e;
      REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), local ? cl::NDRange(local) : cl::NullRange,
                                     nullptr, &e) == CL_SUCCESS);
      REQUIRE(q.enqueueReadBuffer(Y, CL_TRUE, 0, n * 4, y.data()) == CL_SUCCESS);
      for (size_t i = 0; i < n; ++i) REQUIRE(y[i] == 3 * x[i] + i);
      CHECK(factor_of(e) == 1);  // one piece per device
      CHECK(devices_of(e).size() == 2);
    }
  }
  SECTION("2-D, cut along rows, 37 x 23") {
    const cl_uint w = 37, h = 23;
    std::vector<cl_uint> m(w * h), expected(w * h);
    for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<cl_uint>(i), expected[i] = 0;
    for (cl_uint r = 0; r < h; ++r)
      for (cl_uint c = 0; c < w; ++c) expected[r * w + c] = m[r * w + c] * 2 + r * 1000 + c;
    cl::Buffer M(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m.size() * 4, m.data());
    cl::Kernel k(program, "rows");
    k.setArg(0, M), k.setArg(1, w);
    const cl_kernel_split_arg_unicl row{0, 0, w * 4, w * 4};  // index r touches row r
    REQUIRE(split(k(), 1, 1, &row) == CL_SUCCESS);
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(w, h), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(q.enqueueReadBuffer(M, CL_TRUE, 0, m.size() * 4, m.data()) == CL_SUCCESS);
    CHECK(m == expected);
    CHECK(factor_of(e) == 1);
  }
  SECTION("launches enqueued back to back on an in-order queue see each other's results") {
    // Each launch's pieces follow the previous launch's pieces that touch
    // their rows (and every command before the chain): read-modify-write of
    // every element, so a piece running before the one it follows would
    // lose updates. Rows whose device changed between launches move.
    RowsGrid g(ctx, program);
    for (int i = 0; i < 8; ++i) {
      REQUIRE(q.enqueueNDRangeKernel(g.k, cl::NullRange, cl::NDRange(g.w, g.h)) == CL_SUCCESS);
      g.launched();
      if (i == 3) {  // a command of its own in between: the next launch follows it
        std::vector<cl_uint> ones(g.w, 1);
        REQUIRE(q.enqueueWriteBuffer(g.M, CL_FALSE, 0, g.w * 4, ones.data()) == CL_SUCCESS);
        REQUIRE(q.finish() == CL_SUCCESS);  // `ones` lives in this block
        std::fill(g.expected.begin(), g.expected.begin() + g.w, 1u);
      }
    }
    g.check(q);
  }
  SECTION("consecutive launches over the same partition move nothing between them") {
    RowsGrid g(ctx, program);
    std::vector<cl_ulong> moved;
    for (int i = 0; i < 12; ++i) {
      cl_ulong before = bytes_moved(ctx);
      cl::Event e;
      REQUIRE(q.enqueueNDRangeKernel(g.k, cl::NullRange, cl::NDRange(g.w, g.h), cl::NullRange, nullptr, &e) ==
              CL_SUCCESS);
      REQUIRE(e.wait() == CL_SUCCESS);
      moved.push_back(bytes_moved(ctx) - before);
      g.launched();
    }
    INFO("bytes moved per launch: " << ::Catch::Detail::stringify(moved));
    // The first launch uploads each piece. After it, a launch with the
    // partition of the one before moves nothing; one whose boundary the
    // models moved (tiny kernels time noisily, in sanitizer builds even more,
    // and the first samples weigh most) moves only the rows that changed
    // device: some, never the buffer (under AddressSanitizer a boundary once
    // moved by 18 of the 64 rows). Once the models have settled (the last six
    // launches), most launches move nothing.
    // The partition follows measured times: asserted where they are the
    // runtime's (cltest::timing_checked; under TSan a boundary moved by 40 of
    // the 64 rows).
    // The bound holds from the fifth launch: the models behind the second
    // to fourth rest on one to three samples of a kernel of microseconds
    // (in CI once launch 3 moved 52 of the 64 rows, launch 4 24, then none).
    const cl_ulong buffer_bytes = cl_ulong{g.w} * g.h * 4;
    if (cltest::timing_checked()) {
      for (size_t i = 4; i < moved.size(); ++i) CHECK(moved[i] <= buffer_bytes / 2);
      CHECK(std::count(moved.end() - 6, moved.end(), cl_ulong{0}) >= 3);
    }
    g.check(q);
  }
  SECTION("a read of what the pieces left on both devices: each part read by the device holding it, nothing moved") {
    // Rows 0 .. h-1 lie on the two devices after the launch; a read waits for
    // it, then each device reads its own rows straight into the
    // application's memory (no copy through the host copy or the other
    // device). Reads of the whole grid, of a range across the boundary, of
    // a sub-buffer, blocking and not.
    RowsGrid g(ctx, program);
    cl::CommandQueue pq = cltest::device_less_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
    const size_t row = g.w * 4, bytes = size_t{g.h} * row;
    for (int round = 0; round < 4; ++round) {
      // Odd rounds read once the launch is done; even ones at once, before
      // its pieces are placed (where the bytes will be is decided then).
      cl::Event launch;
      REQUIRE(pq.enqueueNDRangeKernel(g.k, cl::NullRange, cl::NDRange(g.w, g.h), cl::NullRange, nullptr, &launch) ==
              CL_SUCCESS);
      g.launched();
      if (round % 2) REQUIRE(launch.wait() == CL_SUCCESS);
      const cl_ulong before = bytes_moved(ctx);
      std::vector<cl_uint> all(g.w * g.h, 0), middle(g.w * 40, 0), sub(g.w * 8, 0);
      cl::Event whole, across;
      REQUIRE(pq.enqueueReadBuffer(g.M, CL_FALSE, 0, bytes, all.data(), nullptr, &whole) == CL_SUCCESS);
      REQUIRE(pq.enqueueReadBuffer(g.M, CL_TRUE, 12 * row, 40 * row, middle.data(), nullptr, &across) == CL_SUCCESS);
      cl_buffer_region region{48 * row, 8 * row};
      cl_int err = CL_SUCCESS;
      cl::Buffer part = g.M.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
      REQUIRE(err == CL_SUCCESS);
      REQUIRE(pq.enqueueReadBuffer(part, CL_TRUE, 0, 8 * row, sub.data()) == CL_SUCCESS);
      REQUIRE(whole.wait() == CL_SUCCESS);
      CHECK(all == g.expected);
      CHECK(std::equal(middle.begin(), middle.end(), g.expected.begin() + 12 * g.w));
      CHECK(std::equal(sub.begin(), sub.end(), g.expected.begin() + 48 * g.w));
      if (round % 2) CHECK(bytes_moved(ctx) == before);
      // Each device that holds rows reads them: the read runs on the devices
      // the launch's pieces ran on. Those are both unless the models gave one
      // device every row (a machine loaded enough to make one look dozens of
      // times slower): then there is one part, and nothing else to show.
      auto sorted = [](std::vector<cl_device_id> v) {
        std::sort(v.begin(), v.end());
        return v;
      };
      const auto pieces_ran_on = sorted(devices_of(launch));
      CHECK(sorted(devices_of(whole)) == pieces_ran_on);
      if (pieces_ran_on.size() < 2) WARN("the launch ran on one device: the read's parts were not shown");
      CHECK(whole.getInfo<CL_EVENT_COMMAND_TYPE>() == CL_COMMAND_READ_BUFFER);
      cl_ulong queued = 0, ended = 0;
      REQUIRE(whole.getProfilingInfo(CL_PROFILING_COMMAND_QUEUED, &queued) == CL_SUCCESS);
      REQUIRE(whole.getProfilingInfo(CL_PROFILING_COMMAND_END, &ended) == CL_SUCCESS);
      CHECK(queued <= ended);
    }
  }
}

namespace {

// The simulated machine's bs_round kernel over n floats of X, declared split
// along its range, in a heft context of factor 1 (one piece per device), with
// a device-less queue of `properties`.
struct SimSplit {
  static constexpr size_t n = 1 << 20;
  cl::Context ctx = divide_context(cltest::devices(), "heft", 1);
  cl::Program program{ctx, "__kernel void bs_round(__global float *x) { x[get_global_id(0)] += 1.0f; }"};
  cl::CommandQueue q;
  cl::Buffer X{ctx, CL_MEM_READ_WRITE, n * 4};
  cl::Kernel k;
  explicit SimSplit(cl_command_queue_properties properties) : q(cltest::device_less_queue(ctx, properties)) {
    REQUIRE(program.build() == CL_SUCCESS);
    k = cl::Kernel(program, "bs_round");
    k.setArg(0, X);
    const cl_kernel_split_arg_unicl arg{0, 0, 4, 4};
    REQUIRE(set_split()(k(), 0, 1, &arg) == CL_SUCCESS);
  }
};

}  // namespace

TEST_CASE("isolated: the built-in divider on the simulated machine", "[.]") {
  // 1 CPU of 5 GFLOPS and 3 GPUs of 50: shares about 1:10:10:10, one piece
  // per device (factor 1).
  REQUIRE(cltest::devices().size() == 4);
  SimSplit sim(0);
  auto &q = sim.q;
  auto &k = sim.k;
  const size_t n = sim.n;
  for (int i = 0; i < 4; ++i) {
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(e.wait() == CL_SUCCESS);
    CHECK(factor_of(e) == 1);
    CHECK(devices_of(e).size() == 4);
  }
}

namespace {

// Runs the isolated test case `name` on the simulated machine with
// UNICL_LOG=2 and returns, per divided launch of bs_round at `factor`, its
// pieces in order: (device, work-items), from the lines
// "divided bs_round along dimension 0, factor F: cpu N, gpu0 N, ...".
// `time_scale` stretches every simulated duration (the machine file's
// `time_scale` line replaced): the simulator sleeps its modelled times, and
// a thread that wakes some milliseconds late on a loaded host adds the same
// milliseconds to a short piece's measured time as to a long one's.
std::vector<std::vector<std::pair<std::string, double>>> pieces_logged(const std::string &name, cl_uint factor,
                                                                       double time_scale = 1.0) {
  const char *sim = std::getenv("TEST_SIM_ICD");
  const char *machine = std::getenv("TEST_SIM_MACHINE");
  REQUIRE(sim);
  REQUIRE(machine);
  std::filesystem::path cache = std::filesystem::temp_directory_path() / ("unicl-split-" + std::to_string(getpid()));
  std::filesystem::remove_all(cache);
  std::filesystem::create_directories(cache);
  std::filesystem::path config = cache / "machine.conf";
  {
    std::ifstream in(machine);
    REQUIRE(in);
    std::ofstream out(config);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("time_scale", 0) != 0) out << line << "\n";
    out << "time_scale " << time_scale << "\n";
  }
  auto run = cltest::run_hidden(name,
                                {{"UNICL_VENDORS", std::string(sim)},
                                 {"UNICL_SIM_CONFIG", config.string()},
                                 {"XDG_CACHE_HOME", cache.string()},
                                 {"UNICL_LOG", std::string("2")}},
                                120);
  std::filesystem::remove_all(cache);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<std::vector<std::pair<std::string, double>>> launches;
  const std::string head = "divided bs_round along dimension 0, factor " + std::to_string(factor) + ": ";
  for (auto &line : child_process::Result::lines(run.err)) {
    auto at = line.find(head);
    if (at == std::string::npos) continue;
    auto &pieces = launches.emplace_back();
    std::istringstream parts(line.substr(at + head.size()));
    for (std::string part; std::getline(parts, part, ',');) {
      std::istringstream p(part);
      std::string device;
      double count = 0;
      p >> device >> count;
      pieces.emplace_back(device, count);
    }
  }
  return launches;
}

}  // namespace

TEST_CASE("the built-in divider gives each device a share proportional to its measured rate", "[divide]") {
  // One piece per device (factor 1): the shares.
  std::vector<std::map<std::string, double>> launches;
  for (auto &pieces : pieces_logged("isolated: the built-in divider on the simulated machine", 1, 10.0))
    launches.emplace_back(pieces.begin(), pieces.end());
  REQUIRE(launches.size() == 4);
  // The first launch knows no rate: equal shares, which measure every device.
  CHECK(launches[0]["cpu"] == launches[0]["gpu0"]);
  // Then 1:10:10:10 (5 and 50 GFLOPS): the GPUs' mean share 7 to 13 times
  // the CPU's. The shares follow measured rates, and the simulator sleeps its
  // modelled times and wakes up late under load, more so in sanitizer builds
  // (one GPU measured 1.4 times slow under TSan): a single GPU may stray
  // further, 5 to 15 times. Durations 10 times the machine file's: a GPU's
  // first piece sleeps 21 ms, not 2.1, so a wake-up some ms late on a loaded
  // host moves its measured rate by a fraction (at 2.1 ms, beside a build,
  // one GPU measured 3 times slow and kept a share 3.3 times the CPU's).
  if (!cltest::timing_checked()) return;
  for (size_t i = 1; i < launches.size(); ++i) {
    INFO("launch " << i);
    REQUIRE(launches[i]["cpu"] > 0);
    double gpus = 0;
    for (auto gpu : {"gpu0", "gpu1", "gpu2"}) {
      double ratio = launches[i][gpu] / launches[i]["cpu"];
      gpus += ratio / 3;
      CHECK(ratio >= 5);
      CHECK(ratio <= 15);
    }
    CHECK(gpus >= 7);
    CHECK(gpus <= 13);
  }
}

// A kernel that takes a while per work-item, so that launches overlap.
const char *kSpinSource = R"CL(
__kernel void spin(__global uint *y, uint rounds) {
  size_t i = get_global_id(0);
  uint v = (uint)i;
  for (uint r = 0; r < rounds; ++r) v = v * 1664525u + 1013904223u;
  y[i] = v;
}
)CL";

// Sixteen independent launches of one kernel, declared split, factor 4, on an
// out-of-order device-less queue: their pieces start at several global
// offsets, and heft queues several on PoCL's pthread device at once.
TEST_CASE("isolated: divided launches of one kernel at once on PoCL's pthread device", "[.]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  cl::Context ctx = divide_context(md.devices, "heft", 4);
  cl::Program program = cltest::build(ctx, kSpinSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  constexpr size_t n = 512, launches = 16;
  constexpr cl_uint rounds = 20000;
  std::vector<cl::Buffer> outs;
  for (size_t l = 0; l < launches; ++l) {
    outs.emplace_back(ctx, CL_MEM_WRITE_ONLY, n * 4);
    cl::Kernel k(program, "spin");
    k.setArg(0, outs.back()), k.setArg(1, rounds);
    const cl_kernel_split_arg_unicl out{0, 0, 4, 4};
    REQUIRE(set_split()(k(), 0, 1, &out) == CL_SUCCESS);
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NDRange(16)) == CL_SUCCESS);
  }
  REQUIRE(q.finish() == CL_SUCCESS);
  std::vector<cl_uint> expected(n), got(n);
  for (size_t i = 0; i < n; ++i) {
    cl_uint v = static_cast<cl_uint>(i);
    for (cl_uint r = 0; r < rounds; ++r) v = v * 1664525u + 1013904223u;
    expected[i] = v;
  }
  for (auto &b : outs) {
    REQUIRE(q.enqueueReadBuffer(b, CL_TRUE, 0, n * 4, got.data()) == CL_SUCCESS);
    CHECK(got == expected);
  }
}

TEST_CASE("pieces of one kernel never overlap on a vendor that aborts when they do (PoCL before 6.0)", "[divide]") {
  // PoCL 3.1-5.0's CPU drivers count a kernel's compiled code per launch by
  // work-group size alone: launches of one kernel at different global
  // offsets that overlap on its pthread device (several threads) lose the
  // count, and an assertion aborts the process, the application's. Three
  // threads at least show it on this two-core machine (two rarely do).
  for (int run = 0; run < 8; ++run) {
    auto r = cltest::run_hidden("isolated: divided launches of one kernel at once on PoCL's pthread device",
                                {{"POCL_MAX_PTHREAD_COUNT", "8"}}, 120);
    INFO("run " << run << "\n" << r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
}

TEST_CASE("isolated: built-in pieces in place", "[.]") {
  // Factor 3: up to 4 pieces per device. Launch 1 measures, the next ones
  // set a partition and keep it over untouched buffers (unless the models
  // moved it by over 10%), the last follows a write of the host into the
  // buffer.
  cl::Context ctx = divide_context(cltest::devices(), "heft", 3);
  cl::Program program(ctx, "__kernel void bs_round(__global float *x) { x[get_global_id(0)] += 1.0f; }");
  REQUIRE(program.build() == CL_SUCCESS);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  const size_t n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  cl::Buffer X(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, host.data());
  cl::Kernel k(program, "bs_round");
  k.setArg(0, X);
  const cl_kernel_split_arg_unicl arg{0, 0, 4, 4};
  REQUIRE(set_split()(k(), 0, 1, &arg) == CL_SUCCESS);
  for (int i = 0; i < 7; ++i) {
    if (i == 6) REQUIRE(q.enqueueWriteBuffer(X, CL_TRUE, 0, 4096, host.data()) == CL_SUCCESS);
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n)) == CL_SUCCESS);
    REQUIRE(q.finish() == CL_SUCCESS);
  }
}

TEST_CASE("the built-in divider cuts a share in pieces only while its bytes must move, fewer for a smaller share",
          "[divide]") {
  // Per launch, how many pieces each device ran.
  using Counts = std::map<std::string, int>;
  std::vector<Counts> launches;
  std::string seen;
  for (auto &pieces : pieces_logged("isolated: built-in pieces in place", 3)) {
    auto &count = launches.emplace_back();
    for (auto &[device, items] : pieces) count[device] += 1;
    seen += "\n";
    for (auto &[device, n] : count) seen += device + " " + std::to_string(n) + "  ";
  }
  INFO("pieces per device, per launch:" << seen);
  REQUIRE(launches.size() == 7);
  // Equal shares first: 4 pieces on every device.
  CHECK(launches[0] == Counts{{"cpu", 4}, {"gpu0", 4}, {"gpu1", 4}, {"gpu2", 4}});
  // The rest follows the measured rates (cltest::timing_checked).
  if (!cltest::timing_checked()) return;
  // The partition kept over buffers nothing touched since: one piece each
  // (not every time: under load the models may move the partition by over
  // 10%, and then its bytes move).
  const Counts one_each{{"cpu", 1}, {"gpu0", 1}, {"gpu1", 1}, {"gpu2", 1}};
  CHECK(std::count(launches.begin() + 2, launches.begin() + 6, one_each) >= 1);
  // After the host wrote: pieces again, 4 for the largest shares and fewer
  // for the CPU's (a tenth of a GPU's; a GPU measured slow under load may
  // get fewer too).
  Counts &last = launches.back();
  int most = 0;
  for (auto &[device, n] : last) most = std::max(most, n);
  CHECK(most == 4);
  CHECK(last["cpu"] < 4);
}

namespace {

// Work-items of each independent launch on the simulated machine.
constexpr size_t kIndependentItems = size_t{1} << 20;

// Divide function for the simulated machine: `factor` equal pieces of a
// 1-D range (the simulator's kernels only take time).
struct Blocks {
  cl_kernel kernel;
  size_t n;
};
cl_int CL_CALLBACK blocks(cl_command_queue q, cl_uint factor, void *data, cl_event before, cl_event *after) {
  auto &b = *static_cast<Blocks *>(data);
  std::vector<cl_event> pieces;
  for (auto [first, count] : cut(b.n, factor)) {
    cl_event e = nullptr;
    if (cl_int err = clEnqueueNDRangeKernel(q, b.kernel, 1, &first, &count, nullptr, 1, &before, &e); err != CL_SUCCESS)
      return err;
    pieces.push_back(e);
  }
  cl_int err = clEnqueueMarkerWithWaitList(q, static_cast<cl_uint>(pieces.size()), pieces.data(), after);
  for (cl_event e : pieces) clReleaseEvent(e);
  return err;
}

}  // namespace

TEST_CASE("isolated: a chain of built-in divided launches", "[.]") {
  // Factor 1, fresh models: the first launches know no rate and cut the
  // range in equal shares, so the CPU's piece (5 GFLOPS) takes ten times a
  // GPU's (50): about 21 ms against 2.
  SimSplit sim(CL_QUEUE_PROFILING_ENABLE);
  auto &q = sim.q;
  auto &k = sim.k;
  const size_t n = sim.n;
  std::vector<cl::Event> launches(3);
  for (auto &e : launches)
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
  REQUIRE(q.finish() == CL_SUCCESS);
  // As the application sees them, the launches ran one after the other.
  for (size_t i = 1; i < launches.size(); ++i) {
    INFO("launch " << i);
    CHECK(launches[i].getProfilingInfo<CL_PROFILING_COMMAND_START>() >=
          launches[i - 1].getProfilingInfo<CL_PROFILING_COMMAND_END>());
  }
}

TEST_CASE("in a chain of divided launches a device goes on to its next piece before the slowest has ended",
          "[divide]") {
  const char *sim = std::getenv("TEST_SIM_ICD");
  const char *machine = std::getenv("TEST_SIM_MACHINE");
  REQUIRE(sim);
  REQUIRE(machine);
  auto tmp = std::filesystem::temp_directory_path();
  std::filesystem::path cache = tmp / ("unicl-chain-" + std::to_string(getpid()));
  std::filesystem::path trace = tmp / ("unicl-chain-" + std::to_string(getpid()) + ".json");
  std::filesystem::remove_all(cache);
  auto run = cltest::run_hidden("isolated: a chain of built-in divided launches",
                                {{"UNICL_VENDORS", std::string(sim)},
                                 {"UNICL_SIM_CONFIG", std::string(machine)},
                                 {"XDG_CACHE_HOME", cache.string()},
                                 {"UNICL_TRACE", trace.string()}},
                                120);
  std::string json = cltest::slurp(trace.string());
  std::filesystem::remove_all(cache);
  std::filesystem::remove(trace);
  INFO(run.out << run.err << json);
  REQUIRE(run.exit_code == 0);
  // The pieces on the trace: launch id -> device -> (begin, end) in us.
  std::map<int, std::map<std::string, std::pair<double, double>>> pieces;
  const std::regex piece(R"re("name":"bs_round on (\w+)","cat":"divided","ph":"([be])","id":(\d+),"pid":\d+,"ts":([0-9.]+))re");
  std::istringstream lines(json);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, piece)) continue;
    auto &span = pieces[std::stoi(m[3])][m[1]];
    (m[2] == "b" ? span.first : span.second) = std::stod(m[4]);
  }
  REQUIRE(pieces.size() == 3);
  for (auto &[id, devices] : pieces) REQUIRE(devices.size() == 4);
  // The second launch's GPU pieces began while the first launch's CPU
  // piece still ran (it takes ten times as long): they followed the GPUs'
  // own earlier pieces, not the whole first launch.
  if (!cltest::timing_checked()) return;
  auto first = pieces.begin()->second, second = std::next(pieces.begin())->second;
  for (auto gpu : {"gpu0", "gpu1", "gpu2"}) {
    INFO(gpu);
    CHECK(second[gpu].first < first["cpu"].second);
  }
}

// Enqueue calls while oclgrind, which runs its queued commands inside
// clFlush on the flushing thread and whose calls UniCL serializes, takes
// part: each call must return without running device work, and without
// waiting for a call into oclgrind made while oclgrind runs a kernel (the
// runtime flushes from its own threads). Per pattern, 16 launches: the mean
// time of the enqueue call and of the whole launch (enqueue to the end of
// clFinish), printed and checked.
TEST_CASE("isolated: enqueue calls return while oclgrind runs", "[.]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic", "Oclgrind"});
  REQUIRE(md.devices.size() == 3);
  cl::Context ctx = divide_context(md.devices, "heft");
  cl_device_id oclgrind = nullptr, pthread = nullptr;
  for (auto &d : md.devices) {
    const std::string name = cltest::device_name(d);
    if (name.find("Oclgrind") != std::string::npos) oclgrind = d();
    if (name.find("pthread") != std::string::npos) pthread = d();
  }
  cl::Program program = cltest::build(ctx, kSplitSource), kernels = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  // Mean seconds of `enqueue()` and of it with `finish()` after, over 16
  // runs; `events` collects the launches' events, if the pattern keeps them.
  auto measure = [](const char *what, auto &&enqueue, auto &&finish) {
    double enqueue_s = 0, launch_s = 0;
    for (int i = 0; i < 16; ++i) {
      auto start = std::chrono::steady_clock::now();
      enqueue();
      auto enqueued = std::chrono::steady_clock::now();
      finish();
      auto done = std::chrono::steady_clock::now();
      enqueue_s += std::chrono::duration<double>(enqueued - start).count() / 16;
      launch_s += std::chrono::duration<double>(done - start).count() / 16;
    }
    std::printf("%s: enqueue %.2f ms of %.2f ms\n", what, enqueue_s * 1e3, launch_s * 1e3);
    INFO(what << ": enqueue " << enqueue_s * 1e3 << " ms of " << launch_s * 1e3 << " ms");
    if (cltest::timing_checked()) CHECK(enqueue_s < 0.5 * launch_s);
  };
  std::vector<cl::Event> launches;
  auto launched = [&] {
    launches.emplace_back();
    return &launches.back();
  };
  auto finish = [&] { REQUIRE(q.finish() == CL_SUCCESS); };

  // The built-in divider over a declared kernel.
  const size_t n = 1 << 14;
  std::vector<cl_uint> x(n, 1);
  cl::Buffer X(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, x.data()), Y(ctx, CL_MEM_READ_WRITE, n * 4);
  cl::Kernel divided(program, "scale");
  divided.setArg(0, X), divided.setArg(1, Y);
  const cl_kernel_split_arg_unicl whole{0, 0, 4, 4};
  REQUIRE(set_split()(divided(), 0, 1, &whole) == CL_SUCCESS);
  measure(
      "built-in divider",
      [&] { REQUIRE(q.enqueueNDRangeKernel(divided, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, launched()) == CL_SUCCESS); },
      finish);
  // Divide functions, whose pieces the application's call enqueues:
  // Mandelbrot by rows (the factor learnt), and N-body with the input
  // written and each block's output read back inside the division.
  DividedMandelbrot m(ctx, kernels, 128, 96, 200, 6);
  measure(
      "Mandelbrot, divide function",
      [&] { REQUIRE(q.enqueueNDRangeKernel(m.kernel, cl::NullRange, m.range(), cl::NullRange, nullptr, launched()) == CL_SUCCESS); },
      finish);
  const size_t bodies = 512;
  std::vector<cl_float4> pos(bodies, cl_float4{{1, 2, 3, 1}}), force(bodies);
  for (size_t i = 0; i < bodies; ++i) pos[i].s[0] = static_cast<float>(i);
  cl::Buffer P(ctx, CL_MEM_READ_ONLY, bodies * sizeof(cl_float4)), F(ctx, CL_MEM_READ_WRITE, bodies * sizeof(cl_float4));
  cl::Kernel forces(kernels, "forces");
  forces.setArg(0, P), forces.setArg(1, F), forces.setArg(2, static_cast<cl_uint>(bodies));
  NBody nbody{forces(), P(), F(), &pos, &force, bodies};
  REQUIRE(set_divide()(forces(), nbody_blocks, &nbody, 1, 3) == CL_SUCCESS);
  measure(
      "N-body, divide function with transfers",
      [&] { REQUIRE(q.enqueueNDRangeKernel(forces, cl::NullRange, cl::NDRange(bodies), cl::NullRange, nullptr, launched()) == CL_SUCCESS); },
      finish);
  // With no model learnt, the policy gave oclgrind pieces: the case is about them.
  size_t with_oclgrind = 0;
  for (auto &e : launches) {
    auto where = devices_of(e);
    with_oclgrind += std::count(where.begin(), where.end(), oclgrind);
  }
  std::printf("divided launches with a piece on oclgrind: %zu of %zu\n", with_oclgrind, launches.size());
  CHECK(with_oclgrind > 0);
  std::vector<cl_uint> mandelbrot(m.w * m.h);
  REQUIRE(q.enqueueReadBuffer(m.out, CL_TRUE, 0, mandelbrot.size() * 4, mandelbrot.data()) == CL_SUCCESS);
  CHECK(mandelbrot == m.expected());

  // A plain launch on oclgrind's queue of the same context: its input is
  // on another device first (after the launches above), so the launch is
  // issued once its transfer is.
  cl::CommandQueue on_oclgrind(ctx, cl::Device(oclgrind, true)), on_pthread(ctx, cl::Device(pthread, true));
  cl::Kernel plain(program, "scale");
  plain.setArg(0, X), plain.setArg(1, Y);
  measure(
      "plain launch on oclgrind",
      [&] { REQUIRE(on_oclgrind.enqueueNDRangeKernel(plain, cl::NullRange, cl::NDRange(n)) == CL_SUCCESS); },
      [&] { REQUIRE(on_oclgrind.finish() == CL_SUCCESS); });
  // A kernel on oclgrind's own queue writes Y; a read of Y on pthread's
  // queue must wait for it: its enqueue returns before.
  std::vector<cl_uint> y(n);
  measure(
      "transfer after an oclgrind kernel",
      [&] {
        cl::Event written;
        REQUIRE(on_oclgrind.enqueueNDRangeKernel(plain, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr,
                                                 &written) == CL_SUCCESS);
        std::vector<cl::Event> after{written};
        REQUIRE(on_pthread.enqueueReadBuffer(Y, CL_FALSE, 0, n * 4, y.data(), &after) == CL_SUCCESS);
      },
      [&] { REQUIRE(on_pthread.finish() == CL_SUCCESS); });
  CHECK(y[n - 1] == 3u + static_cast<cl_uint>(n - 1));
}

TEST_CASE("an enqueue call returns without running device work, oclgrind in the context", "[divide]") {
  // Fresh models: with none learnt, the policy sends work to oclgrind too.
  // PoCL's kernel cache is kept apart and warmed by a first run whose
  // times are not checked: PoCL compiles a kernel for each new piece size
  // inside its clEnqueueNDRangeKernel, as it does called directly, and a
  // cold cache would measure that. The piece sizes follow measured times,
  // so on a loaded host a measured run can still meet sizes the warm-up did
  // not (beside a build: the N-body pattern's enqueue 46 of 47 ms, once):
  // up to three measured runs, each warming the cache further. A caller
  // that runs device work fails every one of them.
  auto tmp = std::filesystem::temp_directory_path();
  auto models = tmp / ("unicl-caller-" + std::to_string(getpid()));
  auto pocl_cache = tmp / ("unicl-caller-pocl-" + std::to_string(getpid()));
  auto run_once = [&] {
    std::filesystem::remove_all(models);
    auto r = cltest::run_hidden("isolated: enqueue calls return while oclgrind runs",
                                {{"XDG_CACHE_HOME", models.string()}, {"POCL_CACHE_DIR", pocl_cache.string()}}, 240);
    REQUIRE(r.exit_code >= 0);  // ended, not killed
    return r;
  };
  std::string tries;
  child_process::Result run = run_once();  // warm-up
  for (int measured = 1; measured <= 3; ++measured) {
    run = run_once();
    tries += "measured run " + std::to_string(measured) + ":\n" + run.out + run.err;
    if (run.exit_code == 0) break;
  }
  std::filesystem::remove_all(models);
  std::filesystem::remove_all(pocl_cache);
  INFO(tries);
  CHECK(run.exit_code == 0);
}

TEST_CASE("isolated: factor learning on the simulated machine", "[.]") {
  cl::Context ctx = divide_context(cltest::devices(), "heft", std::nullopt, std::getenv("TEST_STRATEGY"));
  cl::Program program(ctx, "__kernel void nbody(__global float *x) { x[get_global_id(0)] += 1.0f; }");
  REQUIRE(program.build() == CL_SUCCESS);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  const size_t n = 1 << 18;
  cl::Buffer X(ctx, CL_MEM_READ_WRITE, n * 4);
  cl::Kernel k(program, "nbody");
  k.setArg(0, X);
  Blocks b{k(), n};
  REQUIRE(set_divide()(k(), blocks, &b, 1, 8) == CL_SUCCESS);
  for (int i = 0; i < 24; ++i) {
    cl::Event e;
    REQUIRE(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e) == CL_SUCCESS);
    REQUIRE(e.wait() == CL_SUCCESS);
    std::cout << factor_of(e) << " ";
  }
  std::cout << "\n";
}

TEST_CASE("on the simulated 1 CPU + 3 GPUs the learnt factor is within 10% of the best measured", "[divide]") {
  const char *sim = std::getenv("TEST_SIM_ICD");
  const char *machine = std::getenv("TEST_SIM_MACHINE");
  REQUIRE(sim);
  REQUIRE(machine);
  for (std::string strategy : {"each-once", "climb"}) {
    INFO(strategy);
    std::filesystem::path cache =
        std::filesystem::temp_directory_path() / ("unicl-learn-" + std::to_string(getpid()));
    std::filesystem::remove_all(cache);
    auto run = cltest::run_hidden("isolated: factor learning on the simulated machine",
                                  {{"UNICL_VENDORS", std::string(sim)},
                                   {"UNICL_SIM_CONFIG", std::string(machine)},
                                   {"XDG_CACHE_HOME", cache.string()},
                                   {"TEST_STRATEGY", strategy}},
                                  120);
    std::string models = cltest::slurp((cache / "unicl" / "models.tsv").string());
    std::filesystem::remove_all(cache);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    std::vector<int> chosen = factors_printed(run.out);
    REQUIRE(chosen.size() == 24);
    // The measured mean of each factor tried.
    std::map<int, double> mean = factor_means(models, "nbody");
    INFO(models);
    REQUIRE(mean.size() >= 3);
    double best = 1e30;
    for (auto &[f, m] : mean) best = std::min(best, m);
    // After the exploration: the factor chosen most often over the last
    // twelve launches.
    std::map<int, int> later;
    for (size_t i = 12; i < chosen.size(); ++i) later[chosen[i]] += 1;
    int kept = std::max_element(later.begin(), later.end(), [](auto &a, auto &b) { return a.second < b.second; })->first;
    INFO("kept factor " << kept);
    REQUIRE(mean.count(kept));
    // Which factor measured best follows measured rates: under the
    // sanitizers, beside other work, the simulated devices' times move by
    // more than the 10% (ASan beside a CTS run: 1.13x).
    if (cltest::timing_checked()) CHECK(mean[kept] <= 1.1 * best);
  }
}

// Twelve bs_round kernels, kernel i on buffer i % buffers (split along
// it), and a device-less out-of-order queue, in a heft context over the
// simulated machine.
struct BsRounds {
  cl::Context ctx = divide_context(cltest::devices(), "heft");
  cl::CommandQueue q = cltest::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  std::vector<cl::Buffer> xs;
  std::vector<cl::Kernel> ks;
  explicit BsRounds(size_t buffers) {
    cl::Program program(ctx, "__kernel void bs_round(__global float *x) { x[get_global_id(0)] += 1.0f; }");
    REQUIRE(program.build() == CL_SUCCESS);
    const cl_kernel_split_arg_unicl arg{0, 0, 4, 4};
    for (size_t i = 0; i < buffers; ++i) xs.emplace_back(ctx, CL_MEM_READ_WRITE, kIndependentItems * 4);
    for (size_t i = 0; i < 12; ++i) {
      ks.emplace_back(program, "bs_round");
      ks.back().setArg(0, xs[i % buffers]);
      REQUIRE(set_split()(ks.back()(), 0, 1, &arg) == CL_SUCCESS);
    }
  }
};

// Six rounds of the twelve launches, launch i of `chains` interleaved chains
// (its buffer i % chains) waiting, when `gated`, for launch i - chains, the
// first of each chain for a user event set once the round is enqueued.
// Prints, for every launch, round after round, on one line: its factor, and
// how many launches of its round before it, not of its chain and run whole,
// had not ended once its enqueue returned (so were in flight beside it while
// its factor was chosen; a divided launch leaves the choice's count when
// its pieces end, before its event does).
void launch_rounds(size_t chains, bool gated) {
  BsRounds b(chains);
  std::string factors;
  for (int round = 0; round < 6; ++round) {
    std::vector<cl::Event> launched(b.ks.size());
    std::vector<std::vector<bool>> unfinished(b.ks.size());
    cl::UserEvent go(b.ctx);
    for (size_t i = 0; i < b.ks.size(); ++i) {
      std::vector<cl::Event> after;
      if (gated) after.push_back(i >= chains ? launched[i - chains] : cl::Event(go));
      REQUIRE(b.q.enqueueNDRangeKernel(b.ks[i], cl::NullRange, cl::NDRange(kIndependentItems), cl::NullRange,
                                       gated ? &after : nullptr, &launched[i]) == CL_SUCCESS);
      for (size_t j = 0; j < i; ++j)
        unfinished[i].push_back(launched[j].getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    }
    REQUIRE(go.setStatus(CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(b.q.finish() == CL_SUCCESS);
    for (size_t i = 0; i < b.ks.size(); ++i) {
      int beside = 0;
      for (size_t j = 0; j < i; ++j) beside += unfinished[i][j] && j % chains != i % chains && factor_of(launched[j]) == 0;
      factors += std::to_string(factor_of(launched[i])) + " " + std::to_string(beside) + " ";
    }
  }
  std::printf("\n%s\n", factors.c_str());
}

// Twelve launches of one kernel at a time, independent of each other (a
// buffer each), declared split, on an out-of-order device-less queue, heft,
// learnt factors: on three simulated GPUs heft queues four undivided
// launches on each, one behind the other. Prints what launch_rounds does.
TEST_CASE("isolated: independent launches on the simulated machine", "[.]") { launch_rounds(12, false); }

TEST_CASE("an undivided launch queued behind others on its device is timed from its own start", "[divide]") {
  // What the factor choice learns of the undivided launch is its own time
  // (bs_round, 400 flops per item: 2^20 items take 8.4 ms on a GPU of 50
  // GFLOPS), not its wait behind the launches queued before it on its GPU
  // as well (2.5 times that in the mean, four deep): with that wait, one
  // divided launch over every device seemed faster, and independent
  // launches went divided at 3-4x the makespan (bench-sim-compare's
  // Black-Scholes). And with a launch in flight per GPU, the round's next
  // launches run whole without being tried divided (factor_choice.hpp).
  const char *sim = std::getenv("TEST_SIM_ICD");
  REQUIRE(sim);
  auto tmp = std::filesystem::temp_directory_path();
  std::filesystem::path cache = tmp / ("unicl-independent-" + std::to_string(getpid()));
  std::filesystem::path machine = tmp / ("unicl-independent-" + std::to_string(getpid()) + ".conf");
  std::filesystem::remove_all(cache);
  std::ofstream(machine) << "mode timing\ntime_scale 1.0\n"
                            "device count=3 name=gpu type=gpu gflops=50 memory_mb=1024 bandwidth_gbps=4 latency_us=20 "
                            "units=32 copy_engine=1\n"
                            "kernel name=bs_round flops=400*n\n";
  auto run = cltest::run_hidden("isolated: independent launches on the simulated machine",
                                {{"UNICL_VENDORS", std::string(sim)},
                                 {"UNICL_SIM_CONFIG", machine.string()},
                                 {"XDG_CACHE_HOME", cache.string()}},
                                120);
  std::string models = cltest::slurp((cache / "unicl" / "models.tsv").string());
  std::filesystem::remove_all(cache);
  std::filesystem::remove(machine);
  INFO(run.out << run.err << models);
  REQUIRE(run.exit_code == 0);
  // The undivided factor's measured mean.
  const std::map<int, double> mean = factor_means(models, "bs_round");
  REQUIRE(mean.count(0));
  const double whole = mean.at(0);
  REQUIRE(whole > 0);
  const double own = 400.0 * kIndependentItems / 50e9;
  CHECK(whole >= 0.9 * own);
  if (cltest::timing_checked()) CHECK(whole <= 1.6 * own);
  // With three launches (one per GPU) in flight, each GPU has a whole
  // launch to run: a launch chosen then runs whole, whatever the strategy
  // would have tried. (Which launches those are depends on how fast the
  // enqueues come: most of a round's last nine here, fewer under the
  // sanitizers: 3 of the 72 in one AddressSanitizer run.)
  const std::vector<int> pairs = factors_printed(run.out);
  REQUIRE(pairs.size() == 2 * 72);
  int saturated = 0;
  for (size_t i = 0; i < pairs.size(); i += 2) {
    if (pairs[i + 1] < 3) continue;
    ++saturated;
    CHECK(pairs[i] == 0);
  }
  CHECK(saturated >= (cltest::timing_checked() ? 6 : 1));
}

TEST_CASE("isolated: three chains of launches on the simulated machine", "[.]") { launch_rounds(3, true); }
TEST_CASE("isolated: one chain of launches on the simulated machine", "[.]") { launch_rounds(1, true); }

TEST_CASE("a launch with as many launches beside it in flight as devices runs whole; one of a chain may divide",
          "[divide]") {
  // Three chains of four launches a round on three simulated GPUs, every
  // launch waiting for another or for a user event: a launch chosen while
  // three launches of the other chains are in flight runs whole (each GPU
  // has one to run; factor_choice.hpp), though it waits for its own chain's (bench-sim-compare's Cholesky on 16 devices: 124-131
  // ms undivided, 167-255 divided by the choice, 134-151 with this rule).
  // One chain: nothing runs beside its launches, and the strategy tries
  // dividing them.
  const char *sim = std::getenv("TEST_SIM_ICD");
  REQUIRE(sim);
  for (const char *which : {"three chains", "one chain"}) {
    INFO(which);
    auto tmp = std::filesystem::temp_directory_path();
    const std::string name = "unicl-chains-" + std::to_string(getpid());
    std::filesystem::path cache = tmp / name, machine = tmp / (name + ".conf");
    std::filesystem::remove_all(cache);
    std::ofstream(machine) << "mode timing\ntime_scale 1.0\n"
                              "device count=3 name=gpu type=gpu gflops=50 memory_mb=1024 bandwidth_gbps=4 latency_us=20 "
                              "units=32 copy_engine=1\n"
                              "kernel name=bs_round flops=400*n\n";
    auto run = cltest::run_hidden(std::string("isolated: ") + which + " of launches on the simulated machine",
                                  {{"UNICL_VENDORS", std::string(sim)},
                                   {"UNICL_SIM_CONFIG", machine.string()},
                                   {"XDG_CACHE_HOME", cache.string()}},
                                  120);
    std::filesystem::remove_all(cache);
    std::filesystem::remove(machine);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const std::vector<int> pairs = factors_printed(run.out);
    REQUIRE(pairs.size() == 2 * 72);
    int saturated = 0, divided = 0;
    for (size_t i = 0; i < pairs.size(); i += 2) {
      divided += pairs[i] != 0;
      if (pairs[i + 1] < 3) continue;
      ++saturated;
      CHECK(pairs[i] == 0);
    }
    if (std::string(which) == "three chains") CHECK(saturated >= 6);
    else CHECK(divided >= 1);
  }
}

TEST_CASE("isolated: a traced divided launch", "[.]") {
  cltest::MultiDevice md(std::vector<std::string>{"pthread", "basic"});
  cl::Context ctx = divide_context(md.devices, "round-robin", 3);
  cl::Program program = cltest::build(ctx, kSource);
  cl::CommandQueue q = cltest::device_less_queue(ctx, 0);
  DividedMandelbrot m(ctx, program, 16, 12, 8, 4);
  REQUIRE(q.enqueueNDRangeKernel(m.kernel, cl::NullRange, m.range()) == CL_SUCCESS);
  REQUIRE(q.finish() == CL_SUCCESS);
}

TEST_CASE("UNICL_TRACE shows a divided launch as one slice, its factor, and its pieces under it", "[divide]") {
  std::filesystem::path trace = std::filesystem::temp_directory_path() / ("unicl-trace-" + std::to_string(getpid()) + ".json");
  auto run = cltest::run_hidden("isolated: a traced divided launch", {{"UNICL_TRACE", trace.string()}}, 120);
  std::string json = cltest::slurp(trace.string());
  std::filesystem::remove(trace);
  INFO(run.out << run.err << json);
  REQUIRE(run.exit_code == 0);
  // The launch: a begin and an end of async track 1, named with its factor.
  CHECK_THAT(json, Catch::Contains("\"name\":\"mandelbrot divided by 3\",\"cat\":\"divided\",\"ph\":\"b\",\"id\":1"));
  CHECK_THAT(json, Catch::Contains("\"name\":\"mandelbrot divided by 3\",\"cat\":\"divided\",\"ph\":\"e\",\"id\":1"));
  // Its three pieces on the same track, nested (named with their device).
  size_t pieces = 0;
  std::istringstream lines(json);
  for (std::string line; std::getline(lines, line);)
    if (line.find("\"name\":\"mandelbrot on ") != std::string::npos &&
        line.find("\"cat\":\"divided\",\"ph\":\"b\",\"id\":1,") != std::string::npos)
      ++pieces;
  CHECK(pieces == 3);
}
