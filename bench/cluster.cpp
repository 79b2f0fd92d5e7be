// bench-cluster: UniCL with the devices of other nodes (Open MPI, loopback
// here), against plain MPI between the same ranks, in the same job.
//
//   transfers  clEnqueueWriteBuffer then clEnqueueReadBuffer (blocking) of
//              4 KiB .. 256 MiB to a buffer on node 1's device, through
//              UniCL, against a plain MPI round trip of the same size between
//              rank 0 and node 1 (the node client's communicator, from its
//              communication thread). Goal: >= 0.8x plain MPI from 1 MiB.
//              Also node 1 -> node 2: a buffer written on node 1's device,
//              then migrated to node 2's (straight between the nodes),
//              against half a plain MPI round trip between them.
//   launch     an empty kernel enqueued and finished on node 1's device,
//              against the plain MPI round trip of 8 bytes and the same
//              launch on the local PoCL device through UniCL (the two
//              devices taking turns). Goal: <= 2x the round trip + the
//              local launch.
//
// Run as is: it starts itself under mpirun (`-np 1 bench-cluster : -np 2
// unicl-node`, as root with the flags DEVELOPERS.md gives), each node
// serving PoCL's pthread device, rank 0 PoCL's pthread device too.
#include <args.hpp>
#include <child_process.hpp>
#include <cl_env.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#ifndef BENCH_UNICL_NODE
#define BENCH_UNICL_NODE "build/src/cluster/unicl-node"
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

// Median seconds per plain MPI round trip of `bytes`: rank 0 with node
// `rank`, or (from > 0) node `from` with node `rank`.
double raw_round_trip(int rank, size_t bytes, int from = 0) {
  static auto with_rank0 = client_function<RawPingPong>("unicl_cluster_raw_ping_pong");
  static auto between = client_function<RawPingPongBetween>("unicl_cluster_raw_ping_pong_between");
  std::vector<double> samples;
  for (int rep = 0; rep < 3; ++rep) {
    const size_t n = samples_for(bytes);
    double seconds = 0;
    if ((from ? between(from, rank, bytes, n, &seconds) : with_rank0(rank, bytes, n, &seconds)) != 0)
      throw std::runtime_error("no node " + std::to_string(rank));
    samples.push_back(seconds / n);
  }
  return bench::median(samples);
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

// Median seconds of an empty kernel enqueued and finished on each device,
// the devices taking turns (rounds of 20 launches): this machine's speed
// drifts from second to second, and one device measured after the other
// would compare two different machines.
std::vector<double> launch_seconds(const std::vector<cl::Device> &devices) {
  struct One {
    cl::Context ctx;
    cl::CommandQueue q;
    cl::Kernel k;
    cl::Buffer b;
    std::vector<double> samples;
  };
  std::vector<One> all;
  for (auto &d : devices) {
    cl::Context ctx(d);
    cl::Program program(ctx, "__kernel void nothing(__global int *p) { }");
    program.build();
    One o{ctx, cl::CommandQueue(ctx, d), cl::Kernel(program, "nothing"), cl::Buffer(ctx, CL_MEM_READ_WRITE, 64), {}};
    o.k.setArg(0, o.b);
    for (int i = 0; i < 20; ++i) o.q.enqueueNDRangeKernel(o.k, cl::NullRange, cl::NDRange(1)), o.q.finish();
    all.push_back(std::move(o));
  }
  for (int round = 0; round < 10; ++round)
    for (auto &o : all)
      for (int i = 0; i < 20; ++i) {
        auto start = bench::Clock::now();
        o.q.enqueueNDRangeKernel(o.k, cl::NullRange, cl::NDRange(1));
        o.q.finish();
        o.samples.push_back(bench::seconds_since(start));
      }
  std::vector<double> out;
  for (auto &o : all) out.push_back(bench::median(o.samples));
  return out;
}

int rank0(size_t max_size) {
  cl::Platform p = bench::platform("UniCL");
  std::vector<cl::Device> all;
  p.getDevices(CL_DEVICE_TYPE_ALL, &all);
  cl::Device local = named(all, "", false), node1 = named(all, ":1", true), node2 = named(all, ":2", true);
  std::cout << "bench-cluster: rank 0 and two unicl-node ranks on this machine (Open MPI "
            << (std::getenv("OMPI_MCA_btl") ? std::getenv("OMPI_MCA_btl") : std::string("default transports"))
            << "), PoCL pthread everywhere\n\n";

  // transfers
  cl::Context one(node1);
  cl::CommandQueue q(one, node1);
  cl::Context both(std::vector<cl::Device>{node1, node2});
  cl::CommandQueue q1(both, node1), q2(both, node2);
  bench::Table t({"size", "MPI round trip", "MPI GB/s", "UniCL write+read", "UniCL GB/s", "MPI / UniCL",
                  "node1 -> node2 UniCL", "MPI one way", "MPI / UniCL"});
  double worst_from_1m = 1e9, worst_between_from_1m = 1e9;
  for (size_t size = 4 * KiB; size <= max_size; size *= 4) {
    std::vector<char> host(size, 1);
    const double mpi = raw_round_trip(1, size);
    const double mpi_one_way = raw_round_trip(2, size, 1) / 2;
    cl::Buffer b(one, CL_MEM_READ_WRITE, size);
    std::vector<double> samples;
    const size_t n = samples_for(size);
    for (size_t i = 0; i < n + 1; ++i) {
      auto start = bench::Clock::now();
      q.enqueueWriteBuffer(b, CL_TRUE, 0, size, host.data());
      q.enqueueReadBuffer(b, CL_TRUE, 0, size, host.data());
      if (i) samples.push_back(bench::seconds_since(start));  // the first one places the buffer
    }
    const double unicl = bench::median(samples);
    // node 1 -> node 2: written on node 1, then migrated to node 2.
    std::vector<double> moves;
    cl::Buffer m(both, CL_MEM_READ_WRITE, size);
    for (size_t i = 0; i < std::min<size_t>(n, 10); ++i) {
      q1.enqueueWriteBuffer(m, CL_TRUE, 0, size, host.data());
      auto start = bench::Clock::now();
      q2.enqueueMigrateMemObjects({m}, 0);
      q2.finish();
      moves.push_back(bench::seconds_since(start));
    }
    const double move = bench::median(moves);
    const double ratio = mpi / unicl, between = mpi_one_way / move;
    if (size >= MiB) {
      worst_from_1m = std::min(worst_from_1m, ratio);
      worst_between_from_1m = std::min(worst_between_from_1m, between);
    }
    t.add({bench::bytes(size), bench::fixed(mpi * 1e6, 1) + " us", bench::fixed(2.0 * size / mpi / 1e9, 2),
           bench::fixed(unicl * 1e6, 1) + " us", bench::fixed(2.0 * size / unicl / 1e9, 2), bench::fixed(ratio, 2),
           bench::fixed(move * 1e6, 1) + " us", bench::fixed(mpi_one_way * 1e6, 1) + " us",
           bench::fixed(between, 2)});
  }
  t.print();
  std::cout << "(medians; GB/s counts both directions of a round trip; node 1 -> node 2 goes straight between "
               "the nodes, against half a plain MPI round trip between them)\n\n";

  // launch
  const double rtt = raw_round_trip(1, 8);
  const auto launches = launch_seconds({node1, local});
  const double remote = launches[0], here = launches[1];
  bench::Table l({"", "median"});
  l.add({"MPI round trip, 8 bytes", bench::fixed(rtt * 1e6, 1) + " us"});
  l.add({"empty kernel, enqueue + finish, local PoCL through UniCL", bench::fixed(here * 1e6, 1) + " us"});
  l.add({"same on node 1's device", bench::fixed(remote * 1e6, 1) + " us"});
  l.print();
  const double bound = 2 * rtt + here;
  std::cout << '\n';
  bench::summary("cluster", "transfers to a node, UniCL / plain MPI from 1 MiB (worst size)",
                 bench::fixed(worst_from_1m, 2) + "x", ">= 0.8x", worst_from_1m >= 0.8 ? "met" : "MISSED");
  bench::summary("cluster", "node to node, UniCL / plain MPI from 1 MiB (worst size)",
                 bench::fixed(worst_between_from_1m, 2) + "x", ">= 0.8x",
                 worst_between_from_1m >= 0.8 ? "met" : "MISSED");
  bench::summary("cluster", "remote launch / (2 round trips + local launch)", bench::fixed(remote / bound, 2) + "x",
                 "<= 1.0x", remote <= bound ? "met" : "MISSED");
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  size_t max_size = 256 * MiB;
  bool is_rank0 = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rank0") is_rank0 = true;
    else if (a == "--max-size" && i + 1 < argc) max_size = std::stoull(argv[++i]) * MiB;
    else {
      std::cerr << "usage: bench-cluster [--max-size MiB]\n";
      return 2;
    }
  }
  if (is_rank0) {
    try {
      return rank0(max_size);
    } catch (const std::exception &e) {
      std::cerr << "bench-cluster: " << e.what() << "\n";
      return 1;
    }
  }
  // Start the job: this program as rank 0, two nodes.
  const std::string pocl = BENCH_POCL_VENDORS;
  std::vector<std::string> cmd = {"mpirun", "--oversubscribe", "-np", "1", "-x", "OCL_ICD_VENDORS=" BENCH_UNICL_VENDORS,
                                  "-x", "UNICL_VENDORS=" + pocl, "-x", "POCL_DEVICES=pthread",
                                  child_process::self_executable(), "--rank0", "--max-size",
                                  std::to_string(max_size / MiB), ":", "-np", "2", "-x", "UNICL_VENDORS=" + pocl,
                                  "-x", "POCL_DEVICES=pthread", BENCH_UNICL_NODE};
  auto r = child_process::run(cmd, {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}}, 1800);
  std::cout << r.out;
  if (!r.ok()) {
    std::cerr << r.err;
    std::cout << "SUMMARY|cluster|the job|" << r.why() << "|-|FAILED\n";
    return 1;
  }
  return 0;
}
