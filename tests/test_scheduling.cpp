// Scheduling contexts: device-less queues whose commands the context's
// policy places. Every policy, on every mixed device set, must give the
// results a single device gives; the policy is chosen per context.
#include <catch2/catch.hpp>

#include <child_process.hpp>

#include <CL/cl_ext_unicl.h>

#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "isolated.hpp"
#include "multi_device.hpp"
#include "scheduling.hpp"

namespace {

const char *kSource = R"CL(
__kernel void advance(__global uint *a, uint k) {
  size_t i = get_global_id(0);
  a[i] = a[i] * 3u + k + (uint)i;
}
__kernel void add(__global uint *dst, __global const uint *src) {
  size_t i = get_global_id(0);
  dst[i] += src[i];
}
)CL";

constexpr size_t kCount = 64;
constexpr size_t kBytes = kCount * sizeof(cl_uint);
const std::vector<std::string> kPolicies = {"heft", "eager", "ws", "random", "round-robin"};

using cltest::device_less_queue;
using cltest::scheduling_context;

// The device a command ran on; null when it cannot be read. No assertion
// here: run_dag() runs on several threads at once, and Catch2's assertions
// may only be made from one.
cl_device_id ran_on(const cl::Event &e) {
  cl_device_id d = nullptr;
  return clGetEventInfo(e(), CL_EVENT_DEVICE_UNICL, sizeof d, &d, nullptr) == CL_SUCCESS ? d : nullptr;
}

std::string context_policy(const cl::Context &ctx) {
  size_t n = 0;
  REQUIRE(clGetContextInfo(ctx(), CL_CONTEXT_SCHEDULER_UNICL, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetContextInfo(ctx(), CL_CONTEXT_SCHEDULER_UNICL, n, s.data(), nullptr) == CL_SUCCESS);
  s.resize(n ? n - 1 : 0);
  return s;
}

// A random DAG of `steps` commands over a few buffers: kernels (advance a
// buffer, add one buffer into another), host writes and reads. Each command
// waits for the last command that touched each buffer it uses, so buffers
// evolve independently and in parallel. The host computes the same steps.
struct DagRun {
  std::map<cl_device_id, int> launches_per_device;
  bool results_match = true;
};

DagRun run_dag(const cl::Context &ctx, cl::CommandQueue &q, int steps, unsigned seed) {
  cl::Program program = cltest::build(ctx, kSource);
  constexpr size_t kBuffers = 6;
  std::vector<std::vector<cl_uint>> host(kBuffers, std::vector<cl_uint>(kCount));
  std::vector<cl::Buffer> buffers;
  std::vector<cl::Event> last(kBuffers);
  for (size_t b = 0; b < kBuffers; ++b) {
    for (size_t i = 0; i < kCount; ++i) host[b][i] = static_cast<cl_uint>(b * 100 + i);
    buffers.emplace_back(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, host[b].data());
  }
  std::vector<std::vector<cl_uint>> writes, reads, expected_reads;
  writes.reserve(steps);
  reads.reserve(steps);
  std::vector<cl::Event> launches;
  unsigned state = seed;
  auto next = [&] { return state = state * 1103515245u + 12345u, (state >> 8) & 0xffff; };
  auto after = [&](std::initializer_list<size_t> bs) {
    std::vector<cl::Event> w;
    for (size_t b : bs)
      if (last[b]()) w.push_back(last[b]);
    return w;
  };
  for (int s = 0; s < steps; ++s) {
    size_t a = next() % kBuffers, b = next() % kBuffers;
    unsigned kind = next() % 10;
    cl::Event done;
    if (kind < 5) {
      cl::Kernel k(program, "advance");
      k.setArg(0, buffers[a]);
      k.setArg(1, static_cast<cl_uint>(s));
      auto w = after({a});
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &w, &done);
      for (size_t i = 0; i < kCount; ++i) host[a][i] = host[a][i] * 3u + static_cast<cl_uint>(s) + static_cast<cl_uint>(i);
      launches.push_back(done);
      last[a] = done;
    } else if (kind < 8 && a != b) {
      cl::Kernel k(program, "add");
      k.setArg(0, buffers[a]);
      k.setArg(1, buffers[b]);
      auto w = after({a, b});
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kCount), cl::NullRange, &w, &done);
      for (size_t i = 0; i < kCount; ++i) host[a][i] += host[b][i];
      launches.push_back(done);
      last[a] = done;
      last[b] = done;
    } else if (kind < 9) {
      writes.emplace_back(kCount);
      for (size_t i = 0; i < kCount; ++i) writes.back()[i] = static_cast<cl_uint>(s * 7 + i);
      host[a] = writes.back();
      auto w = after({a});
      q.enqueueWriteBuffer(buffers[a], CL_FALSE, 0, kBytes, writes.back().data(), &w, &done);
      last[a] = done;
    } else {
      reads.emplace_back(kCount, 0xdeadbeef);
      expected_reads.push_back(host[a]);
      auto w = after({a});
      q.enqueueReadBuffer(buffers[a], CL_FALSE, 0, kBytes, reads.back().data(), &w, &done);
      last[a] = done;
    }
  }
  q.finish();
  DagRun run;
  for (size_t i = 0; i < reads.size(); ++i) run.results_match &= reads[i] == expected_reads[i];
  for (size_t b = 0; b < kBuffers; ++b) {
    std::vector<cl_uint> final_value(kCount);
    q.enqueueReadBuffer(buffers[b], CL_TRUE, 0, kBytes, final_value.data());
    run.results_match &= final_value == host[b];
  }
  for (auto &e : launches) run.launches_per_device[ran_on(e)] += 1;
  return run;
}

}  // namespace

TEST_CASE("every policy on every device set runs a 200-command DAG right", "[scheduling]") {
  std::vector<std::vector<std::string>> sets = {{"pthread", "basic"}, {"pthread", "basic", "Oclgrind"}};
  for (auto &set : sets) {
    auto devices = cltest::MultiDevice::matching(set);
    for (auto &policy : kPolicies) {
      INFO("policy " << policy << " on " << devices.size() << " devices");
      // Where each command goes: its launches whole, not split by UniCL on
      // its own (whose pieces the policy places too, under a launch event
      // that names one device).
      cl::Context ctx = scheduling_context(devices, policy, 0, {CL_CONTEXT_AUTO_SPLIT_UNICL, CL_FALSE});
      CHECK(context_policy(ctx) == policy);
      cl::CommandQueue q = device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
      DagRun run = run_dag(ctx, q, 200, 7);
      CHECK(run.results_match);
      for (auto &[dev, n] : run.launches_per_device) {
        bool in_context = false;
        for (auto &d : devices) in_context |= d() == dev;
        CHECK(in_context);
      }
      // Policies that must spread independent work over all devices.
      if (policy == "eager" || policy == "round-robin") CHECK(run.launches_per_device.size() == devices.size());
    }
  }
}

TEST_CASE("an in-order device-less queue keeps program order across devices", "[scheduling]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic", "Oclgrind"});
  for (auto &policy : kPolicies) {
    INFO("policy " << policy);
    cl::Context ctx = scheduling_context(devices, policy);
    cl::CommandQueue q = device_less_queue(ctx, 0);
    cl::Program program = cltest::build(ctx, kSource);
    std::vector<cl_uint> data(kCount, 1), expected = data;
    cl::Buffer buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, data.data());
    for (cl_uint k = 0; k < 12; ++k) {
      cl::Kernel kernel(program, "advance");
      kernel.setArg(0, buffer);
      kernel.setArg(1, k);
      q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount));
      for (size_t i = 0; i < kCount; ++i) expected[i] = expected[i] * 3u + k + static_cast<cl_uint>(i);
    }
    std::vector<cl_uint> result(kCount);
    q.enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, result.data());
    CHECK(result == expected);
  }
}

TEST_CASE("the policy comes from the context property, SOCL's property or UNICL_SCHEDULER", "[scheduling]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl_platform_id p = cltest::platform()();
  std::vector<cl_device_id> ids;
  for (auto &d : devices) ids.push_back(d());
  auto make = [&](std::vector<cl_context_properties> props, cl_int &err) {
    props.push_back(0);
    cl_context c = clCreateContext(props.data(), static_cast<cl_uint>(ids.size()), ids.data(), nullptr, nullptr, &err);
    return cl::Context(c);
  };
  cl_int err = CL_SUCCESS;
  auto socl = make({CL_CONTEXT_PLATFORM, (cl_context_properties)p, CL_CONTEXT_SCHEDULER_SOCL,
                    (cl_context_properties) "eager"}, err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(context_policy(socl) == "eager");

  auto plain = make({CL_CONTEXT_PLATFORM, (cl_context_properties)p}, err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(context_policy(plain) == "heft");

  // UniCL reads UNICL_SCHEDULER once per process: a child per value.
  auto with_scheduler = [](const std::string &policy) {
    auto run = cltest::run_hidden("isolated: the policy of a context made without one",
                                  {{"UNICL_SCHEDULER", policy}, {"UNICL_LOG", std::string("1")}}, 60);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
    return run;
  };
  CHECK(with_scheduler("ws").out.find("context: policy ws\n") != std::string::npos);
  auto unknown = with_scheduler("fastest-please");
  CHECK(unknown.out.find("context: error -64\n") != std::string::npos);  // CL_INVALID_PROPERTY
  CHECK(unknown.err.find("unicl: UNICL_SCHEDULER=fastest-please is not a policy") != std::string::npos);
}

TEST_CASE("isolated: the policy of a context made without one", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  std::vector<cl_device_id> ids;
  for (auto &d : devices) ids.push_back(d());
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cltest::platform()(), 0};
  cl_int err = CL_SUCCESS;
  cl::Context ctx(clCreateContext(props, static_cast<cl_uint>(ids.size()), ids.data(), nullptr, nullptr, &err));
  if (err == CL_SUCCESS) std::cout << "context: policy " << context_policy(ctx) << "\n";
  else std::cout << "context: error " << err << "\n";
}

TEST_CASE("bad scheduling properties get CL_INVALID_PROPERTY", "[scheduling]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  std::vector<cl_device_id> ids;
  for (auto &d : devices) ids.push_back(d());
  auto status = [&](std::vector<cl_context_properties> props) {
    props.push_back(0);
    cl_int err = CL_SUCCESS;
    cl_context c = clCreateContext(props.data(), static_cast<cl_uint>(ids.size()), ids.data(), nullptr, nullptr, &err);
    if (c) clReleaseContext(c);
    return err;
  };
  CHECK(status({CL_CONTEXT_SCHEDULER_UNICL, (cl_context_properties) "no-such-policy"}) == CL_INVALID_PROPERTY);
  CHECK(status({CL_CONTEXT_SCHEDULER_UNICL, 0}) == CL_INVALID_PROPERTY);
  CHECK(status({CL_CONTEXT_SCHEDULER_UNICL, (cl_context_properties) "heft", CL_CONTEXT_SCHEDULER_UNICL,
                (cl_context_properties) "heft"}) == CL_INVALID_PROPERTY);
  CHECK(status({CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, 0}) == CL_INVALID_PROPERTY);
  CHECK(status({CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, -5}) == CL_INVALID_PROPERTY);
  CHECK(status({CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, 1 << 20}) == CL_SUCCESS);
  // A device the context does not hold is still refused.
  auto others = cltest::MultiDevice::matching({"Oclgrind"});
  cl_int err = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, static_cast<cl_uint>(ids.size()), ids.data(), nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clCreateCommandQueue(c, others[0](), 0, &err) == nullptr);
  CHECK(err == CL_INVALID_DEVICE);
  clReleaseContext(c);
}

TEST_CASE("device-less queues report no device, their events the device that ran them", "[scheduling]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl::Context ctx = scheduling_context(devices, "round-robin");
  cl::CommandQueue q = device_less_queue(ctx, 0);
  cl_device_id qdev = reinterpret_cast<cl_device_id>(1);
  REQUIRE(clGetCommandQueueInfo(q(), CL_QUEUE_DEVICE, sizeof qdev, &qdev, nullptr) == CL_SUCCESS);
  CHECK(qdev == nullptr);
  cl::Program program = cltest::build(ctx, kSource);
  cl::Buffer buffer(ctx, CL_MEM_READ_WRITE, kBytes);
  std::set<cl_device_id> seen;
  for (int i = 0; i < 4; ++i) {
    cl::Kernel k(program, "advance");
    k.setArg(0, buffer);
    k.setArg(1, 1u);
    cl::Event e;
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kCount), cl::NullRange, nullptr, &e);
    e.wait();
    seen.insert(ran_on(e));
  }
  CHECK(seen.size() == 2);
  // A device queue's events name its device.
  cl::CommandQueue bound(ctx, devices[1]);
  cl::Event e;
  bound.enqueueWriteBuffer(buffer, CL_TRUE, 0, sizeof(cl_uint), &kCount, nullptr, &e);
  CHECK(ran_on(e) == devices[1]());
}

TEST_CASE("CPU devices sharing the host's cores never run at the same time", "[scheduling]") {
  // PoCL pthread (one compute unit per core) and basic (one) together have
  // more compute units than a host of two cores has processing units: the
  // engine runs one of them at a time. Both still get work (round-robin).
  if (std::thread::hardware_concurrency() > 2) SUCCEED("host has more than two cores: only placement is checked");
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  // Whole launches: the engine's turns, not UniCL's own splits of them.
  cl::Context ctx = scheduling_context(devices, "round-robin", 0, {CL_CONTEXT_AUTO_SPLIT_UNICL, CL_FALSE});
  cl::CommandQueue q = device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl::Program program = cltest::build(ctx, kSource);
  constexpr size_t kItems = 1 << 16;
  std::vector<cl::Buffer> buffers;
  std::vector<cl::Event> events(24);
  for (size_t i = 0; i < events.size(); ++i) {
    buffers.emplace_back(ctx, CL_MEM_READ_WRITE, kItems * sizeof(cl_uint));
    cl::Kernel k(program, "advance");
    k.setArg(0, buffers.back());
    k.setArg(1, 1u);
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kItems), cl::NullRange, nullptr, &events[i]);
  }
  q.finish();
  struct Span {
    cl_device_id device;
    cl_ulong start, end;
  };
  std::vector<Span> spans;
  for (auto &e : events)
    spans.push_back({ran_on(e), e.getProfilingInfo<CL_PROFILING_COMMAND_START>(),
                     e.getProfilingInfo<CL_PROFILING_COMMAND_END>()});
  std::set<cl_device_id> used;
  for (auto &s : spans) used.insert(s.device);
  CHECK(used.size() == 2);
  // Both are PoCL devices: one clock.
  if (std::thread::hardware_concurrency() <= 2)
    for (auto &a : spans)
      for (auto &b : spans)
        if (a.device != b.device) {
          INFO("a " << a.start << "-" << a.end << ", b " << b.start << "-" << b.end);
          CHECK((a.end <= b.start || b.end <= a.start));
        }
}

// PoCL pthread and basic in a heft context with a program of `spin` (n
// steps of a linear congruential generator on out[0]) built for pthread
// only, which runs it apart from the enqueue (basic runs a command inside
// the call that issues it); a one-value buffer holding 7.
struct SpinOnPthread {
  std::vector<cl::Device> devices = cltest::MultiDevice::matching({"pthread", "basic"});
  size_t pthread = cltest::device_name(devices[0]).find("pthread") == std::string::npos ? 1 : 0;
  // Whole launches: the placement of commands, not UniCL's own splits.
  cl::Context ctx = scheduling_context(devices, "heft", 0, {CL_CONTEXT_AUTO_SPLIT_UNICL, CL_FALSE});
  cl::Program program{ctx, R"CL(
__kernel void spin(__global uint *out, uint n) {
  uint x = out[0];
  for (uint j = 0; j < n; ++j) x = x * 1664525u + 1013904223u;
  out[0] = x;
}
)CL"};
  cl_uint value = 7;
  cl::Buffer buffer{ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof value, &value};
  SpinOnPthread() { program.build({devices[pthread]}); }
  cl::Kernel spin(cl_uint steps) {
    cl::Kernel k(program, "spin");
    k.setArg(0, buffer);
    k.setArg(1, steps);
    return k;
  }
  // What `steps` steps make of the buffer's first value.
  cl_uint spun(cl_uint steps) const {
    cl_uint x = value;
    for (cl_uint j = 0; j < steps; ++j) x = x * 1664525u + 1013904223u;
    return x;
  }
};

TEST_CASE("a read after the launch that computes its bytes is issued to its device before the launch ends",
          "[scheduling]") {
  // Commands other than kernels go where their data is; when all they wait
  // for was issued to that device, they go there at once, ordered by the
  // vendor's queue, rather than after a round trip through the launch's
  // completion.
  SpinOnPthread s;
  cl::CommandQueue q = device_less_queue(s.ctx, 0);
  constexpr cl_uint kSteps = 1u << 26;
  cl_uint read_back = 0;
  cl::Event launch, read;
  q.enqueueNDRangeKernel(s.spin(kSteps), cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &launch);
  q.enqueueReadBuffer(s.buffer, CL_FALSE, 0, sizeof read_back, &read_back, nullptr, &read);
  const cl_int read_status = read.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  const cl_int launch_status = launch.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  q.finish();
  CHECK(ran_on(launch) == s.devices[s.pthread]());
  if (launch_status == CL_COMPLETE) WARN("the launch ended before its read was looked at: nothing shown");
  else CHECK(read_status != CL_QUEUED);
  CHECK(ran_on(read) == s.devices[s.pthread]());
  CHECK(read_back == s.spun(kSteps));
}

TEST_CASE("a kernel that follows a launch still running is queued behind it on its device", "[scheduling]") {
  // heft weighs a kernel once what it follows is planned on a device
  // (Engine::ready_at): on that device it is planned at once, ordered by
  // the vendor's queue, instead of once the engine hears of the end (for
  // a node's device, a network round trip later).
  SpinOnPthread s;
  cl::CommandQueue q = device_less_queue(s.ctx, 0);  // in order: the second launch follows the first
  constexpr cl_uint kLong = 1u << 26, kShort = 1000;
  cl_uint read_back = 0;
  cl::Event launched, followed;
  q.enqueueNDRangeKernel(s.spin(kLong), cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &launched);
  q.enqueueNDRangeKernel(s.spin(kShort), cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &followed);
  const cl_int second_status = followed.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  const cl_int first_status = launched.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  q.enqueueReadBuffer(s.buffer, CL_TRUE, 0, sizeof read_back, &read_back);
  CHECK(ran_on(launched) == s.devices[s.pthread]());
  CHECK(ran_on(followed) == s.devices[s.pthread]());
  if (first_status == CL_COMPLETE) WARN("the first launch ended before the second was looked at: nothing shown");
  else CHECK(second_status != CL_QUEUED);  // planned: handed to the device behind the first
  CHECK(read_back == s.spun(kLong + kShort));
}

TEST_CASE("a device-less queue of a one-device context runs on that device", "[scheduling]") {
  auto devices = cltest::MultiDevice::matching({"pthread"});
  cl::Context ctx(devices[0]);
  cl::CommandQueue q = device_less_queue(ctx, 0);
  std::vector<cl_uint> data(kCount, 5), back(kCount);
  cl::Buffer buffer(ctx, CL_MEM_READ_WRITE, kBytes);
  cl::Event e;
  q.enqueueWriteBuffer(buffer, CL_FALSE, 0, kBytes, data.data(), nullptr, &e);
  q.enqueueReadBuffer(buffer, CL_TRUE, 0, kBytes, back.data());
  CHECK(back == data);
  CHECK(ran_on(e) == devices[0]());
}

TEST_CASE("several host threads submit to device-less queues of one context", "[scheduling]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl::Context ctx = scheduling_context(devices, "heft");
  std::vector<int> ok(4, 0);
  // The queues are made here: device_less_queue asserts, and Catch2's
  // assertions may only be made from one thread (ThreadSanitizer saw two
  // threads write Catch's state at once).
  std::vector<cl::CommandQueue> queues;
  for (int t = 0; t < 4; ++t) queues.push_back(device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { ok[t] = run_dag(ctx, queues[t], 60, 100 + t).results_match; });
  for (auto &th : threads) th.join();
  CHECK(ok == std::vector<int>(4, 1));
}

TEST_CASE("isolated: a traced run", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl::Context ctx = scheduling_context(devices, "round-robin");
  cl::CommandQueue q = device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK(run_dag(ctx, q, 30, 5).results_match);
}

TEST_CASE("UNICL_TRACE writes a Chrome trace with a track per device", "[scheduling][trace]") {
  cltest::TempDir dir;
  std::string file = dir.path() + "/trace.json";
  auto run = cltest::run_hidden("isolated: a traced run", {{"UNICL_TRACE", file}}, 60);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::string trace = cltest::slurp(file);
  CHECK(trace.rfind("{\"traceEvents\":[", 0) == 0);
  CHECK(trace.find("\"thread_name\"") != std::string::npos);
  CHECK(trace.find("pthread") != std::string::npos);
  CHECK(trace.find("basic") != std::string::npos);
  CHECK(trace.find("\"name\":\"advance\"") != std::string::npos);
  CHECK(trace.find("\"cat\":\"transfer\"") != std::string::npos);
  CHECK(trace.find("\"ph\":\"X\"") != std::string::npos);
}

TEST_CASE("isolated: a run on every device", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic", "Oclgrind"});
  cl::Context ctx = scheduling_context(devices, "round-robin");
  cl::CommandQueue q = device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK(run_dag(ctx, q, 12, 3).results_match);
}

TEST_CASE("each device's submission worker is placed with hwloc", "[scheduling][workers]") {
  // The log (UNICL_LOG=2) says where each worker went: CPU devices' workers
  // are left to the OS, oclgrind's (not a CPU device alone) gets a core.
  auto run = cltest::run_hidden("isolated: a run on every device", {{"UNICL_LOG", "2"}}, 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("submission worker of 'Oclgrind Simulator': core ") != std::string::npos);
  CHECK(run.err.find("submission worker of 'pthread") != std::string::npos);
  CHECK(run.err.find("': not bound (CPU device)") != std::string::npos);
}

TEST_CASE("isolated: a queue made for one device under UNICL_SCHEDULE_ALL", "[.]") {
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  // Round-robin, not eager: under eager the worker that wins every race on a
  // loaded host may take all 120 commands, which would say nothing about
  // UNICL_SCHEDULE_ALL (CI saw that once). Round-robin places by turn.
  cl::Context ctx = scheduling_context(devices, "round-robin");
  cl::CommandQueue q(ctx, devices[0], CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK(q.getInfo<CL_QUEUE_DEVICE>()() == devices[0]());
  DagRun run = run_dag(ctx, q, 120, 11);
  CHECK(run.results_match);
  CHECK(run.launches_per_device.size() == 2);
}

TEST_CASE("UNICL_SCHEDULE_ALL schedules queues made for one device", "[scheduling]") {
  // UniCL reads UNICL_SCHEDULE_ALL once per process.
  auto run = cltest::run_hidden("isolated: a queue made for one device under UNICL_SCHEDULE_ALL",
                                {{"UNICL_SCHEDULE_ALL", std::string("1")}}, 120);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  // Without it, a device queue stays on its device.
  auto devices = cltest::MultiDevice::matching({"pthread", "basic"});
  cl::Context ctx = scheduling_context(devices, "eager");
  cl::CommandQueue bound(ctx, devices[1], CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  DagRun kept = run_dag(ctx, bound, 40, 12);
  CHECK(kept.results_match);
  CHECK(kept.launches_per_device.size() == 1);
  CHECK(kept.launches_per_device.count(devices[1]()) == 1);
}
