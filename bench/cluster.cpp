// bench-cluster: UniCL with the devices of other nodes (Open MPI, loopback
// here), against plain MPI between the same ranks, in the same job.
//
//   transfers  clEnqueueWriteBuffer then clEnqueueReadBuffer (blocking) of
//              4 KiB .. 256 MiB to a buffer on node 1's device, through
//              UniCL, against a plain MPI round trip of the same size between
//              rank 0 and node 1 (the node client's communicator, from its
//              communication thread). Goal: >= 0.8x plain MPI at 1, 16 and
//              64 MiB, medians and best times alike (the table shows every
//              size). Plain MPI and UniCL take turns, round by round.
//              Also node 1 -> node 2: a buffer written on node 1's device,
//              then migrated to node 2's (straight between the nodes),
//              against half a plain MPI round trip between them.
//   launch     a kernel of two buffers and one scalar (set before each
//              launch) on node 1's device, against the same program on
//              rank 0's own PoCL device through UniCL (the two taking
//              turns): a stream of 1000 launches then one clFinish
//              (goal: <= 3x local per launch, <= 1.5 messages per launch,
//              both ways), and launches each followed by clFinish (goal:
//              <= 1.5x local, <= 2.5 messages per launch).
//
//   --launch-only  only the launch part.
//
// Run as is: it starts itself under mpirun (`-np 1 bench-cluster : -np 2
// unicl-node`, as root with the flags DEVELOPERS.md gives), each node
// serving PoCL's pthread device, rank 0 PoCL's pthread device too.
#include <args.hpp>
#include <child_process.hpp>
#include <cl_env.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>

#ifndef BENCH_UNICL_NODE
#define BENCH_UNICL_NODE "build/src/cluster/node/unicl-node"
#endif
#ifndef BENCH_UNICL_VENDORS
#define BENCH_UNICL_VENDORS "build/vendors-exclusive"
#endif
#ifndef BENCH_POCL_VENDORS
#define BENCH_POCL_VENDORS "build/vendors-test/pocl.icd"
#endif

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

using RawPingPong = int (*)(int rank, size_t bytes, size_t count, double *seconds);

using RawPingPongBetween = int (*)(int from, int to, size_t bytes, size_t count, double *seconds);

// A function of the node client UniCL loaded as a vendor: already in the
// process.
template <class Fn>
Fn client_function(const char *name) {
  void *client = dlopen("libunicl-remote.so", RTLD_NOW | RTLD_NOLOAD);
  if (!client) throw std::runtime_error("the node client is not loaded (not an MPI job with nodes?)");
  auto fn = reinterpret_cast<Fn>(dlsym(client, name));
  if (!fn) throw std::runtime_error(std::string(name) + " not found");
  return fn;
}

// Samples per size: about 256 MiB moved, within [3, 100].
size_t samples_for(size_t bytes) { return std::clamp<size_t>(256 * MiB / bytes, 3, 100); }

// Rounds of a transfer size, plain MPI and UniCL taking turns.
constexpr size_t kRounds = 7;

// A time's median and best of its samples.
struct Times {
  double median = 0, best = 0;
  explicit Times(const std::vector<double> &samples)
      : median(bench::median(samples)), best(*std::min_element(samples.begin(), samples.end())) {}
};

// Seconds per plain MPI round trip of `bytes`, the mean of `count`: rank 0
// with node `rank`, or (from > 0) node `from` with node `rank`.
double raw_round_trip(int rank, size_t bytes, size_t count, int from = 0) {
  static auto with_rank0 = client_function<RawPingPong>("unicl_cluster_raw_ping_pong");
  static auto between = client_function<RawPingPongBetween>("unicl_cluster_raw_ping_pong_between");
  double seconds = 0;
  if ((from ? between(from, rank, bytes, count, &seconds) : with_rank0(rank, bytes, count, &seconds)) != 0)
    throw std::runtime_error("no node " + std::to_string(rank));
  return seconds / count;
}

cl::Device named(const std::vector<cl::Device> &all, const std::string &suffix, bool remote) {
  for (auto &d : all) {
    std::string name = d.getInfo<CL_DEVICE_NAME>();
    bool is_remote = name.find(" @ ") != std::string::npos;
    if (is_remote == remote && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return d;
  }
  throw std::runtime_error("no device ending in '" + suffix + "'");
}

// A kernel with two buffers and one scalar, the scalar set before each
// launch, on one device (a context of its own): the launches of an
// ordinary program.
struct Launcher {
  cl::Context ctx;
  cl::CommandQueue q;
  cl::Kernel k;
  cl::Buffer in, out;
  explicit Launcher(const cl::Device &d) : ctx(d), q(ctx, d) {
    cl::Program program(ctx,
                        "__kernel void accumulate(__global const float *in, __global float *out, float s) {"
                        "  size_t i = get_global_id(0); out[i] += in[i] * s; }");
    program.build();
    k = cl::Kernel(program, "accumulate");
    in = cl::Buffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float));
    out = cl::Buffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float));
    k.setArg(0, in);
    k.setArg(1, out);
  }
  // `n` launches, each waited for (clFinish) or all then one clFinish.
  void run(int n, bool waited) {
    for (int i = 0; i < n; ++i) {
      k.setArg(2, static_cast<float>(i));
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(256));
      if (waited) q.finish();
    }
    if (!waited) q.finish();
  }
};

// Messages both ways across rank 0's link so far (the node client's count).
uint64_t messages_so_far() {
  static auto counts = client_function<void (*)(uint64_t *)>("unicl_cluster_counts");
  uint64_t c[6] = {};
  counts(c);
  return c[0] + c[2];
}

struct LaunchCost {
  double seconds;           // median per launch
  double messages = 0;      // per launch, both ways (remote only)
};

// Per-launch time of a stream of launches (then one clFinish) or of
// launches each waited for, on each device, the devices taking turns
// (rounds of `per_round` launches): this machine's speed drifts from second
// to second, and one device measured after the other would compare two
// different machines.
std::vector<LaunchCost> launch_costs(const std::vector<cl::Device> &devices, bool waited, int per_round) {
  std::vector<Launcher> all;
  for (auto &d : devices) all.emplace_back(d).run(20, true);
  std::vector<std::vector<double>> samples(all.size());
  std::vector<uint64_t> messages(all.size(), 0);
  constexpr int kRounds = 10;
  for (int round = 0; round < kRounds; ++round)
    for (size_t i = 0; i < all.size(); ++i) {
      const uint64_t before = messages_so_far();
      auto start = bench::Clock::now();
      all[i].run(per_round, waited);
      samples[i].push_back(bench::seconds_since(start) / per_round);
      messages[i] += messages_so_far() - before;
    }
  std::vector<LaunchCost> out;
  for (size_t i = 0; i < all.size(); ++i)
    out.push_back({bench::median(samples[i]), static_cast<double>(messages[i]) / (kRounds * per_round)});
  return out;
}

// Writes and reads to node 1, migrations node 1 -> node 2; prints their
// table and the summary lines: the worst ratio to plain MPI at the sizes the
// goal names, of medians and of best times.
void transfers(const cl::Device &node1, const cl::Device &node2, size_t max_size) {
  cl::Context one(node1);
  cl::CommandQueue q(one, node1);
  cl::Context both(std::vector<cl::Device>{node1, node2});
  cl::CommandQueue q1(both, node1), q2(both, node2);
  bench::Table t({"size", "MPI round trip", "MPI GB/s", "UniCL write+read", "UniCL GB/s", "MPI / UniCL", "(best)",
                  "node1 -> node2 UniCL", "MPI one way", "MPI / UniCL", "(best)"});
  struct Worst {
    double median = 1e9, best = 1e9;
    void add(const Times &mpi, const Times &unicl) {
      median = std::min(median, mpi.median / unicl.median), best = std::min(best, mpi.best / unicl.best);
    }
  } to_node, between;
  for (size_t size = 4 * KiB; size <= max_size; size *= 4) {
    std::vector<char> host(size, 1);
    cl::Buffer b(one, CL_MEM_READ_WRITE, size), m(both, CL_MEM_READ_WRITE, size);
    q.enqueueWriteBuffer(b, CL_TRUE, 0, size, host.data());  // the first one places the buffer
    // Plain MPI and UniCL take turns, round by round (this machine's speed
    // drifts from second to second: measured one after the other, they
    // would be two different machines); each round's sample is the mean of
    // its transfers, the same statistic on both sides.
    const size_t per_round = (samples_for(size) + kRounds - 1) / kRounds;
    // Each move needs a write to node 1 first (not timed): half as many
    // keep a round's length near that of the write+read loop.
    const size_t moves_per_round = std::max<size_t>(1, per_round / 2);
    std::vector<double> mpi_rounds, unicl_rounds, one_way_rounds, move_rounds;
    for (size_t round = 0; round < kRounds; ++round) {
      mpi_rounds.push_back(raw_round_trip(1, size, per_round));
      auto start = bench::Clock::now();
      for (size_t i = 0; i < per_round; ++i) {
        q.enqueueWriteBuffer(b, CL_TRUE, 0, size, host.data());
        q.enqueueReadBuffer(b, CL_TRUE, 0, size, host.data());
      }
      unicl_rounds.push_back(bench::seconds_since(start) / per_round);
      // node 1 -> node 2: written on node 1, then migrated to node 2 (the
      // migration alone timed).
      one_way_rounds.push_back(raw_round_trip(2, size, moves_per_round, 1) / 2);
      double moving = 0;
      for (size_t i = 0; i < moves_per_round; ++i) {
        q1.enqueueWriteBuffer(m, CL_TRUE, 0, size, host.data());
        auto moved = bench::Clock::now();
        q2.enqueueMigrateMemObjects({m}, 0);
        q2.finish();
        moving += bench::seconds_since(moved);
      }
      move_rounds.push_back(moving / moves_per_round);
    }
    const Times mpi(mpi_rounds), unicl(unicl_rounds), mpi_one_way(one_way_rounds), move(move_rounds);
    if (size == MiB || size == 16 * MiB || size == 64 * MiB) to_node.add(mpi, unicl), between.add(mpi_one_way, move);
    t.add({bench::bytes(size), bench::fixed(mpi.median * 1e6, 1) + " us", bench::fixed(2.0 * size / mpi.median / 1e9, 2),
           bench::fixed(unicl.median * 1e6, 1) + " us", bench::fixed(2.0 * size / unicl.median / 1e9, 2),
           bench::fixed(mpi.median / unicl.median, 2), bench::fixed(mpi.best / unicl.best, 2),
           bench::fixed(move.median * 1e6, 1) + " us", bench::fixed(mpi_one_way.median * 1e6, 1) + " us",
           bench::fixed(mpi_one_way.median / move.median, 2), bench::fixed(mpi_one_way.best / move.best, 2)});
  }
  t.print();
  std::cout << "(medians of " << kRounds << " rounds, plain MPI and UniCL taking turns, each round's sample the mean of its "
               "transfers; the ratio of best rounds in brackets; GB/s counts both directions of a round trip; node 1 -> "
               "node 2 goes straight between the nodes, against half a plain MPI round trip between them)\n\n";
  auto summary = [](const std::string &what, double ratio) {
    bench::summary("cluster", what, bench::fixed(ratio, 2) + "x", ">= 0.8x", ratio >= 0.8 ? "met" : "MISSED");
  };
  if (max_size < 64 * MiB) return;  // the goal's sizes were not all run
  summary("transfers to a node, UniCL / plain MPI at 1, 16, 64 MiB (worst, medians)", to_node.median);
  summary("transfers to a node, UniCL / plain MPI at 1, 16, 64 MiB (worst, best times)", to_node.best);
  summary("node to node, UniCL / plain MPI at 1, 16, 64 MiB (worst, medians)", between.median);
  summary("node to node, UniCL / plain MPI at 1, 16, 64 MiB (worst, best times)", between.best);
}

// Launches on node 1's device against rank 0's own; prints their table and
// the four summary lines.
void launches(const cl::Device &node1, const cl::Device &local) {
  const double rtt = raw_round_trip(1, 8, 100);
  const auto stream = launch_costs({node1, local}, false, 1000);
  const auto waited = launch_costs({node1, local}, true, 50);
  bench::Table l({"launches (kernel of 2 buffers + 1 scalar set each time)", "node 1's device", "rank 0's device",
                  "node / local", "messages per launch"});
  l.add({"stream of 1000, then clFinish", bench::fixed(stream[0].seconds * 1e6, 1) + " us",
         bench::fixed(stream[1].seconds * 1e6, 1) + " us", bench::fixed(stream[0].seconds / stream[1].seconds, 2),
         bench::fixed(stream[0].messages, 2)});
  l.add({"each followed by clFinish", bench::fixed(waited[0].seconds * 1e6, 1) + " us",
         bench::fixed(waited[1].seconds * 1e6, 1) + " us", bench::fixed(waited[0].seconds / waited[1].seconds, 2),
         bench::fixed(waited[0].messages, 2)});
  l.print();
  std::cout << "(medians of 10 rounds per row, the two devices taking turns; messages counted by rank 0's link, "
               "both ways; plain MPI round trip of 8 bytes: "
            << bench::fixed(rtt * 1e6, 1) << " us)\n\n";
  const double stream_ratio = stream[0].seconds / stream[1].seconds;
  const double waited_ratio = waited[0].seconds / waited[1].seconds;
  bench::summary("cluster", "stream of launches, node / local per launch", bench::fixed(stream_ratio, 2) + "x",
                 "<= 3x", stream_ratio <= 3 ? "met" : "MISSED");
  bench::summary("cluster", "launches each waited for, node / local", bench::fixed(waited_ratio, 2) + "x", "<= 1.5x",
                 waited_ratio <= 1.5 ? "met" : "MISSED");
  bench::summary("cluster", "messages per launch, stream", bench::fixed(stream[0].messages, 2), "<= 1.5",
                 stream[0].messages <= 1.5 ? "met" : "MISSED");
  bench::summary("cluster", "messages per launch, each waited for", bench::fixed(waited[0].messages, 2), "<= 2.5",
                 waited[0].messages <= 2.5 ? "met" : "MISSED");
}

int rank0(size_t max_size, bool launch_only) {
  cl::Platform p = bench::platform("UniCL");
  std::vector<cl::Device> all;
  p.getDevices(CL_DEVICE_TYPE_ALL, &all);
  cl::Device local = named(all, "", false), node1 = named(all, ":1", true), node2 = named(all, ":2", true);
  std::cout << "bench-cluster: rank 0 and two unicl-node ranks on this machine (Open MPI "
            << (std::getenv("OMPI_MCA_btl") ? std::getenv("OMPI_MCA_btl") : std::string("default transports"))
            << "), PoCL pthread everywhere\n\n";
  launches(node1, local);
  if (!launch_only) transfers(node1, node2, max_size);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  size_t max_size = 256 * MiB;
  bool is_rank0 = false, launch_only = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rank0") is_rank0 = true;
    else if (a == "--launch-only") launch_only = true;
    else if (a == "--max-size" && i + 1 < argc) max_size = std::stoull(argv[++i]) * MiB;
    else {
      std::cerr << "usage: bench-cluster [--max-size MiB] [--launch-only]\n";
      return 2;
    }
  }
  if (is_rank0) {
    try {
      return rank0(max_size, launch_only);
    } catch (const std::exception &e) {
      std::cerr << "bench-cluster: " << e.what() << "\n";
      return 1;
    }
  }
  // Start the job: this program as rank 0, two nodes. Rank 0 learns its
  // links' models afresh in a folder of the job's own: kept in the user's
  // cache, each run's routes followed what earlier runs (of other builds)
  // had learnt.
  const std::string pocl = BENCH_POCL_VENDORS;
  bench::ModelCache cache;
  std::vector<std::string> cmd = {"mpirun", "--oversubscribe", "-np", "1", "-x", "OCL_ICD_VENDORS=" BENCH_UNICL_VENDORS,
                                  "-x", "UNICL_VENDORS=" + pocl, "-x", "POCL_DEVICES=pthread",
                                  "-x", "XDG_CACHE_HOME=" + cache.dir(),
                                  child_process::self_executable(), "--rank0", "--max-size",
                                  std::to_string(max_size / MiB), ":", "-np", "2", "-x", "UNICL_VENDORS=" + pocl,
                                  "-x", "POCL_DEVICES=pthread", BENCH_UNICL_NODE};
  if (launch_only) cmd.insert(std::find(cmd.begin(), cmd.end(), ":"), "--launch-only");
  // Rank 0's trace and counts, when asked for (as bench-cluster-scaling).
  if (std::getenv("UNICL_TRACE")) cmd.insert(cmd.begin() + 4, {"-x", "UNICL_TRACE"});
  if (std::getenv("UNICL_LOG")) cmd.insert(cmd.begin() + 4, {"-x", "UNICL_LOG"});
  auto r = child_process::run(cmd, {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}}, 1800);
  std::cout << r.out;
  if (!r.ok()) {
    std::cerr << r.err;
    std::cout << "SUMMARY|cluster|the job|" << r.why() << "|-|FAILED\n";
    return 1;
  }
  return 0;
}
