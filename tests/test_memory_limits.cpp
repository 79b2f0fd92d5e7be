// Device memory limits and host swap: UniCL accounts the replicas it puts
// on each device of a multi-device context; when a device is full the least
// recently used ones go back to the host copy, so programs whose buffers
// total several times a device's memory still run right.
#include <catch2/catch.hpp>

#include <child_process.hpp>

#include <CL/cl_ext_unicl.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "isolated.hpp"
#include "multi_device.hpp"
#include "scheduling.hpp"

namespace {

const char *kSource = R"CL(
__kernel void bump(__global uint *a, uint k) {
  size_t i = get_global_id(0);
  a[i] = a[i] * 5u + k;
}
__kernel void xor_into(__global uint *dst, __global const uint *src) {
  size_t i = get_global_id(0);
  dst[i] ^= src[i] + 1u;
}
)CL";

constexpr size_t kCount = 4096;
constexpr size_t kBytes = kCount * sizeof(cl_uint);

cl::Context limited_context(const std::vector<cl::Device> &devices, size_t limit, const char *policy = "heft") {
  return cltest::scheduling_context(devices, policy, limit);
}

// `n` buffers of kCount words, word i of buffer b starting as b * seed + i,
// and the host's model of them.
struct FilledBuffers {
  std::vector<std::vector<cl_uint>> host;
  std::vector<cl::Buffer> buffers;
  FilledBuffers(cl::Context &ctx, size_t n, cl_uint seed) : host(n, std::vector<cl_uint>(kCount)) {
    for (size_t b = 0; b < n; ++b) {
      for (size_t i = 0; i < kCount; ++i) host[b][i] = static_cast<cl_uint>(b * seed + i);
      buffers.emplace_back(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, host[b].data());
    }
  }
  // One bump(k = pass) over every buffer, in order, on `queue`.
  void bump_all(cl::CommandQueue &queue, cl::Kernel &bump, int pass) {
    for (size_t b = 0; b < buffers.size(); ++b) {
      bump.setArg(0, buffers[b]);
      bump.setArg(1, static_cast<cl_uint>(pass));
      queue.enqueueNDRangeKernel(bump, cl::NullRange, cl::NDRange(kCount));
      for (auto &v : host[b]) v = v * 5u + static_cast<cl_uint>(pass);
    }
  }
  // Every buffer holds what the host expects.
  void check(cl::CommandQueue &queue) {
    for (size_t b = 0; b < buffers.size(); ++b) {
      std::vector<cl_uint> out(kCount);
      queue.enqueueReadBuffer(buffers[b], CL_TRUE, 0, kBytes, out.data());
      INFO("buffer " << b);
      CHECK(out == host[b]);
    }
  }
};

// 16 buffers, 4x what one device may hold, updated in random order.
void random_updates(cl::Context &ctx, std::vector<cl::CommandQueue> &queues, unsigned seed) {
  cl::Program program = cltest::build(ctx, kSource);
  constexpr size_t kBuffers = 16;
  FilledBuffers filled(ctx, kBuffers, 7919);
  auto &host = filled.host;
  auto &buffers = filled.buffers;
  std::vector<cl::Event> last(kBuffers);
  std::mt19937 rng(seed);
  for (int step = 0; step < 120; ++step) {
    size_t a = rng() % kBuffers, b = rng() % kBuffers;
    auto &q = queues[rng() % queues.size()];
    std::vector<cl::Event> wait;
    if (last[a]()) wait.push_back(last[a]);
    if (b != a && last[b]()) wait.push_back(last[b]);
    cl::Event done;
    if (b == a || rng() % 2) {
      cl::Kernel k(program, "bump");
      k.setArg(0, buffers[a]);
      k.setArg(1, static_cast<cl_uint>(step));
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &wait, &done);
      for (auto &v : host[a]) v = v * 5u + static_cast<cl_uint>(step);
      last[a] = done;
    } else {
      cl::Kernel k(program, "xor_into");
      k.setArg(0, buffers[a]);
      k.setArg(1, buffers[b]);
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &wait, &done);
      for (size_t i = 0; i < kCount; ++i) host[a][i] ^= host[b][i] + 1u;
      last[a] = last[b] = done;
    }
  }
  for (size_t b = 0; b < kBuffers; ++b) {
    std::vector<cl_uint> result(kCount);
    std::vector<cl::Event> wait;
    if (last[b]()) wait.push_back(last[b]);
    queues[b % queues.size()].enqueueReadBuffer(buffers[b], CL_TRUE, 0, kBytes, result.data(), &wait);
    INFO("buffer " << b);
    CHECK(result == host[b]);
  }
}

// UniCL reads UNICL_DEVICE_MEM_LIMIT once per process: each value is tried
// in a child running a hidden test case of this executable.
child_process::Result run_with_limit(const char *test_name, const std::string &spec, const char *log_level) {
  return cltest::run_hidden(test_name, {{"UNICL_DEVICE_MEM_LIMIT", spec}, {"UNICL_LOG", std::string(log_level)}}, 120);
}

// A limit UniCL must refuse: context creation fails with
// CL_INVALID_PROPERTY and says why in one line.
void expect_refused(const std::string &spec) {
  INFO("UNICL_DEVICE_MEM_LIMIT=" << spec);
  auto run = run_with_limit("isolated: a two-device context is refused", spec, "1");
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  size_t said = 0;
  for (auto &line : run.err_lines()) said += line.rfind("unicl: UNICL_DEVICE_MEM_LIMIT=" + spec + " is not", 0) == 0;
  CHECK(said == 1);
}

}  // namespace

TEST_CASE("isolated: random updates on devices limited by UNICL_DEVICE_MEM_LIMIT", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl::Context ctx(devices);
  std::vector<cl::CommandQueue> queues;
  for (auto &d : devices) queues.emplace_back(ctx, d);
  random_updates(ctx, queues, 3);
}

TEST_CASE("isolated: a two-device context is refused", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  std::vector<cl_device_id> ids;
  for (auto &d : devices) ids.push_back(d());
  cl_int err = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, static_cast<cl_uint>(ids.size()), ids.data(), nullptr, nullptr, &err);
  CHECK(err == CL_INVALID_PROPERTY);
  CHECK(c == nullptr);
  if (c) clReleaseContext(c);
}

namespace {
std::atomic<int> destructor_calls{0};
void CL_CALLBACK count_destructor(cl_mem, void *) { destructor_calls.fetch_add(1); }
}  // namespace

TEST_CASE("isolated: a cycle over buffers of one size on a device holding two", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  constexpr size_t kBuffers = 6;
  cl::Context ctx = limited_context(devices, 2 * kBytes);
  cl::CommandQueue queue(ctx, devices[0]);
  cl::Program program = cltest::build(ctx, kSource);
  FilledBuffers filled(ctx, kBuffers, 131);
  cl::Kernel k(program, "bump");
  for (int pass = 0; pass < 3; ++pass) filled.bump_all(queue, k, pass);
  // Each buffer is right, wherever its bytes went in between.
  filled.check(queue);
  // The destructor callbacks of buffers whose memory went to others still
  // come once they are released.
  for (auto &b : filled.buffers)
    REQUIRE(clSetMemObjectDestructorCallback(b(), count_destructor, nullptr) == CL_SUCCESS);
  filled.buffers.clear();
  for (int i = 0; i < 5000 && destructor_calls.load() < static_cast<int>(kBuffers); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(destructor_calls.load() == static_cast<int>(kBuffers));
}

TEST_CASE("an evicted buffer's device memory goes to the buffer that needed the room", "[memory]") {
  // UNICL_LOG=2 names each eviction and each hand-over on stderr.
  auto run = cltest::run_hidden("isolated: a cycle over buffers of one size on a device holding two",
                                {{"UNICL_LOG", "2"}}, 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  size_t evicted = 0, handed = 0;
  for (auto &line : run.err_lines()) {
    evicted += line.rfind("unicl: evicted ", 0) == 0;
    handed += line.find("gave the memory of an evicted buffer") != std::string::npos;
  }
  // Every miss after the first two evicts one buffer of the same size and
  // takes over its memory: no new allocation on the device.
  CHECK(evicted > 0);
  CHECK(handed == evicted);
}

TEST_CASE("buffers totalling 4x a device's limit, used in random order, stay right", "[memory]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  SECTION("device queues") {
    cl::Context ctx = limited_context(devices, 4 * kBytes);
    std::vector<cl::CommandQueue> queues;
    for (auto &d : devices) queues.emplace_back(ctx, d);
    random_updates(ctx, queues, 1);
  }
  SECTION("a device-less queue, every policy") {
    for (const char *policy : {"heft", "eager", "ws", "random", "round-robin"}) {
      INFO("policy " << policy);
      cl::Context ctx = limited_context(devices, 4 * kBytes, policy);
      std::vector<cl::CommandQueue> queues{cltest::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)};
      random_updates(ctx, queues, 2);
    }
  }
  SECTION("UNICL_DEVICE_MEM_LIMIT, per device") {
    // UNICL_LOG=2 tells each eviction with the limit it enforced.
    auto run = run_with_limit("isolated: random updates on devices limited by UNICL_DEVICE_MEM_LIMIT",
                              "64K,basic=32K", "2");
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
    bool pthread_at_64k = false, basic_at_32k = false;
    for (auto &line : run.err_lines()) {
      if (line.find("evicted") == std::string::npos) continue;
      pthread_at_64k |= line.find("pthread") != std::string::npos && line.find("(limit 65536)") != std::string::npos;
      basic_at_32k |= line.find("basic") != std::string::npos && line.find("(limit 32768)") != std::string::npos;
    }
    CHECK(pthread_at_64k);
    CHECK(basic_at_32k);
  }
}

TEST_CASE("a command whose own buffers do not fit fails with CL_MEM_OBJECT_ALLOCATION_FAILURE", "[memory]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl::Context ctx = limited_context(devices, kBytes);
  cl::Program program = cltest::build(ctx, kSource);
  cl::Buffer small(ctx, CL_MEM_READ_WRITE, kBytes), big(ctx, CL_MEM_READ_WRITE, 2 * kBytes);
  cl::CommandQueue q(ctx, devices[0]);
  cl::Kernel k(program, "bump");
  k.setArg(0, big);
  k.setArg(1, 1u);
  size_t global = kCount;
  CHECK(clEnqueueNDRangeKernel(q(), k(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
        CL_MEM_OBJECT_ALLOCATION_FAILURE);
  // Two buffers that fit one at a time but not together.
  cl::Buffer other(ctx, CL_MEM_READ_WRITE, kBytes);
  cl::Kernel mix(program, "xor_into");
  mix.setArg(0, small);
  mix.setArg(1, other);
  CHECK(clEnqueueNDRangeKernel(q(), mix(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
        CL_MEM_OBJECT_ALLOCATION_FAILURE);
  // The queue goes on working afterwards.
  k.setArg(0, small);
  CHECK(clEnqueueNDRangeKernel(q(), k(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(q.finish() == CL_SUCCESS);
}

TEST_CASE("malformed memory limits are CL_INVALID_PROPERTY", "[memory]") {
  for (const char *spec : {"0", "lots", "12Q", "pthread=", "basic=-1M", "nan"}) expect_refused(spec);
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl_ulong limit = 0;
  cl::Context ctx = limited_context(devices, 123456);
  REQUIRE(clGetContextInfo(ctx(), CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, sizeof limit, &limit, nullptr) == CL_SUCCESS);
  CHECK(limit == 123456);
}

TEST_CASE("memory limits past what size_t holds are CL_INVALID_PROPERTY", "[memory]") {
  for (const char *spec : {"99999999999999999999999G", "inf", "1e400", "18446744073709551616", "17179869184G",
                           "basic=inf", "64K,pthread=99999999999999999999999G"})
    expect_refused(spec);
}

// A program cycling over more buffers than a device holds: least recently
// used eviction would miss on every launch (each writes back the buffer it
// evicts and uploads its own: 2 buffers moved per launch); UniCL notices the
// evicted buffers coming back and keeps most of the cycle resident.
TEST_CASE("a cycle over more buffers than fit moves less than one miss per launch", "[memory]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  constexpr size_t kBuffers = 16, kFit = 4;  // a device holds 4 of the 16
  cl::Context ctx = limited_context(devices, kFit * kBytes);
  cl::CommandQueue queue(ctx, devices[0]);
  cl::Program program = cltest::build(ctx, kSource);
  FilledBuffers filled(ctx, kBuffers, 31);
  cl::Kernel k(program, "bump");
  auto moved = [&] {
    cl_ulong n = 0;
    REQUIRE(clGetContextInfo(ctx(), CL_CONTEXT_BYTES_MOVED_UNICL, sizeof n, &n, nullptr) == CL_SUCCESS);
    return n;
  };
  constexpr int kPasses = 6;
  cl_ulong before_last_passes = 0;
  for (int pass = 0; pass < kPasses; ++pass) {
    if (pass == kPasses - 2) before_last_passes = moved();
    filled.bump_all(queue, k, pass);
    queue.finish();
  }
  // The last two passes, once the order has adapted.
  cl_ulong per_pass = (moved() - before_last_passes) / 2;
  cl_ulong every_launch_missing = 2 * kBuffers * kBytes;
  INFO("bytes moved per pass: " << per_pass << ", one miss per launch: " << every_launch_missing);
  CHECK(per_pass < every_launch_missing);
  filled.check(queue);
}
