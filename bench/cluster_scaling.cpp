// bench-cluster-scaling: the simulated "1 CPU + 3 GPUs" machine of
// bench-sim-compare (bench/sim_machine.conf, the simulator in timing mode)
// on each of 1, 2, 3 and 4 nodes of an Open MPI job on this machine, the
// application (rank 0) with no device of its own: the matmul and Cholesky
// workloads on a device-less queue over every node's devices (heft).
//
// Each makespan (inputs in rank 0's memory at the start, to the clFinish
// after the last launch) is compared with the ideal bound that includes the
// network: the larger of the compute bound (total flops / the sum of the
// nodes' device rates) and the network bound (the inputs' bytes leaving
// rank 0 once, at the plain MPI bandwidth from rank 0 to a node measured in
// the same job). Efficiency = bound / makespan; goal: >= 0.8 for matmul on
// 4 nodes. For matmul the makespan is also compared with the best any
// placement of its whole launches can reach (whole_launch_bound): goal
// <= 1.15x that bound on 4 nodes. Messages per launch: what crossed rank 0's
// link with the nodes (both ways) in the timed runs, per launch.
//
// The simulated transfers take their modeled time without their memcpy
// (the simulator's `move_bytes no`, as bench-divide's machine): on this
// one machine the copies of every node would take the cores from the
// ranks' own threads. The bytes still travel over MPI between the ranks.
//
// Models: each job starts from the same fresh model folder; per workload one
// round-robin calibration run (every kernel on every device), one untimed
// heft run, then --reps timed runs, medians.
//
// Run as is: it starts itself under mpirun once per node count (as root with
// the flags DEVELOPERS.md gives). With UNICL_TRACE set, rank 0 writes the
// trace of its last run there.
#include <args.hpp>
#include <child_process.hpp>
#include <sched.hpp>
#include <sim_workloads.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <dlfcn.h>
#include <malloc.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>


namespace {

using namespace bench;  // the simulated workloads

struct Options {
  std::string nodes = "1,2,3,4";
  int reps = 3;
  std::string only;
  std::string out = ".";
  int rank0_nodes = 0;  // child mode: rank 0 of a job with this many nodes
  // --check R: fail (exit status 1) when matmul's makespan passes R times
  // its whole-launch bound at a node count run (the cluster-scaling test).
  double check = 0;
};

Options parse(int argc, char **argv) {
  Options o;
  Args("bench-cluster-scaling", "[--nodes 1,2,3,4] [--reps R] [--only matmul|cholesky] [--out DIR] [--check RATIO]")
      .value("--nodes", o.nodes)
      .value("--check", o.check)
      .value("--reps", o.reps)
      .value("--only", o.only)
      .value("--out", o.out)
      .value("--rank0", o.rank0_nodes)
      .parse(argc, argv);
  return o;
}

// Plain MPI bandwidth from rank 0 to node 1 (half a round trip of 16 MiB),
// through the node client's own baseline.
double mpi_bandwidth() {
  void *client = dlopen("libunicl-remote.so", RTLD_NOW | RTLD_NOLOAD);
  auto fn = client ? reinterpret_cast<int (*)(int, size_t, size_t, double *)>(
                         dlsym(client, "unicl_cluster_raw_ping_pong"))
                   : nullptr;
  if (!fn) throw std::runtime_error("the node client is not loaded");
  const size_t bytes = size_t{16} << 20;
  std::vector<double> samples;
  for (int i = 0; i < 5; ++i) {
    double seconds = 0;
    if (fn(1, bytes, 4, &seconds) != 0) throw std::runtime_error("no node 1");
    samples.push_back(2.0 * bytes * 4 / seconds);
  }
  return median(samples);
}

// Messages both ways across rank 0's link with the nodes so far.
uint64_t messages_so_far() {
  void *client = dlopen("libunicl-remote.so", RTLD_NOW | RTLD_NOLOAD);
  auto fn = client ? reinterpret_cast<void (*)(uint64_t *)>(dlsym(client, "unicl_cluster_counts")) : nullptr;
  if (!fn) throw std::runtime_error("the node client is not loaded");
  uint64_t c[6] = {};
  fn(c);
  return c[0] + c[2];
}

// Rank 0 of a job with `nodes` nodes: one line per workload,
// "RESULT <workload> <median makespan s> <compute bound s> <network bound s> <devices> <whole-launch bound s>
//  <messages per launch>".
int rank0(const Options &o) {
  sim::Config m = read_machine(BENCH_SIM_CONF);
  // As bench-sim-compare: freed memory stays in the process (no first-touch
  // page faults in new buffers).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  cl::Platform unicl = platform(kUniCL);
  std::vector<cl::Device> devices;
  unicl.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  if (devices.size() != m.devices.size() * o.rank0_nodes)
    throw std::runtime_error("UniCL shows " + std::to_string(devices.size()) + " devices, expected " +
                             std::to_string(m.devices.size() * o.rank0_nodes));
  const double bandwidth = mpi_bandwidth();
  for (auto &w : {sim_matmul(), sim_cholesky()}) {
    if (!o.only.empty() && o.only != w.name) continue;
    {
      // Whole launches only: a calibration measures each kernel on each
      // device at the size the timed runs launch it (a launch split into
      // pieces would measure only the pieces' devices, at the pieces' size).
      cl::Context ctx = unicl_context(devices, "round-robin", 0, {CL_CONTEXT_AUTO_SPLIT_UNICL, CL_FALSE});
      cl::CommandQueue q = device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
      Prepared run = w.prepare(ctx, build(ctx, kSimSource));
      run(q);
      q.finish();
    }
    cl::Context ctx = unicl_context(devices, "heft");
    cl::CommandQueue q = device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl::Program p = build(ctx, kSimSource);
    std::vector<double> samples;
    uint64_t messages = 0;
    for (int i = 0; i < o.reps + 1; ++i) {
      Prepared run = w.prepare(ctx, p);
      const uint64_t before = messages_so_far();
      auto start = Clock::now();
      run(q);
      q.finish();
      if (i) samples.push_back(seconds_since(start));  // the first one: untimed warm-up
      if (i) messages += messages_so_far() - before;
    }
    std::cout << "RUNS " << w.name;
    for (double s : samples) std::cout << ' ' << s;
    std::cout << std::endl;
    std::cout << "RESULT " << w.name << ' ' << median(samples) << ' ' << ideal_bound(m, w, o.rank0_nodes).seconds
              << ' ' << w.input_bytes / bandwidth << ' ' << devices.size() << ' '
              << whole_launch_bound(m, w, o.rank0_nodes, bandwidth) << ' '
              << static_cast<double>(messages) / (o.reps * w.launches.size()) << std::endl;
  }
  return 0;
}

struct Row {
  int nodes = 0, devices = 0;
  double makespan = 0, compute = 0, network = 0;
  double whole = 0;  // whole_launch_bound (0: not of that form)
  double messages = 0;  // per launch, both ways
  double bound() const { return std::max(compute, network); }
  double efficiency() const { return bound() / makespan; }
};

// bench/sim_machine.conf with `move_bytes no`, in `dir`.
std::string machine_without_copies(const std::string &dir) {
  std::ifstream in(BENCH_SIM_CONF);
  if (!in) throw std::runtime_error("cannot read " BENCH_SIM_CONF);
  std::string path = dir + "/sim_machine_nomove.conf";
  std::ofstream out(path);
  out << in.rdbuf() << "\n# bench-cluster-scaling: transfers only take their time\nmove_bytes no\n";
  return path;
}

// --check: matmul's makespan at each node count run within o.check times
// its whole-launch bound (said, with the ratio, for each).
bool within_check(const Options &o, const std::map<std::string, std::vector<Row>> &rows) {
  bool all = true;
  auto found = rows.find("matmul");
  if (found == rows.end()) return false;
  for (const Row &row : found->second) {
    const bool met = row.whole > 0 && row.makespan <= o.check * row.whole;
    summary("cluster-scaling",
            "matmul makespan on " + std::to_string(row.nodes) + " node(s) / its whole-launch bound (checked)",
            fixed(row.makespan / row.whole, 2) + "x", "<= " + fixed(o.check, 2) + "x", met ? "met" : "MISSED");
    all = all && met;
  }
  return all;
}

int run(const Options &o) {
  ModelCache cache;  // one fresh model folder, shared by the jobs
  const std::string machine = machine_without_copies(cache.dir());
  std::vector<int> counts;
  std::istringstream list(o.nodes);
  for (std::string n; std::getline(list, n, ',');) counts.push_back(std::stoi(n));
  std::cout << "bench-cluster-scaling: the simulated machine " << BENCH_SIM_CONF
            << " (1 CPU + 3 GPUs) on each node, rank 0 without devices, heft on a device-less queue; "
            << o.reps << " timed runs after a round-robin calibration and an untimed run, medians.\n"
            << "bound = max(total flops / sum of rates, input bytes / plain MPI bandwidth rank 0 -> node)\n"
            << "whole launches = the best makespan with each launch whole on one device, every device first\n"
            << "  receiving the shared input (matmul's B) over MPI and its link (sim_workloads.hpp)\n\n"
            << std::flush;
  std::map<std::string, std::vector<Row>> rows;
  for (int n : counts) {
    std::vector<std::string> cmd = {"mpirun", "--oversubscribe", "-np", "1", "-x",
                                    "OCL_ICD_VENDORS=" BENCH_UNICL_VENDORS, "-x", "UNICL_VENDORS=",
                                    "-x", "XDG_CACHE_HOME=" + cache.dir(), child_process::self_executable(),
                                    "--rank0", std::to_string(n), "--reps", std::to_string(o.reps)};
    if (!o.only.empty()) cmd.insert(cmd.end(), {"--only", o.only});
    // A trace of rank 0's last run, to see where a makespan went; rank 0's
    // counts of messages and bytes (UNICL_LOG=1, printed at its exit).
    if (std::getenv("UNICL_TRACE")) cmd.insert(cmd.begin() + 4, {"-x", "UNICL_TRACE"});
    if (std::getenv("UNICL_LOG")) cmd.insert(cmd.begin() + 4, {"-x", "UNICL_LOG"});
    cmd.insert(cmd.end(), {":", "-np", std::to_string(n), "-x", "UNICL_VENDORS=" BENCH_SIM_ICD, "-x",
                           "UNICL_SIM_CONFIG=" + machine, BENCH_UNICL_NODE});
    auto r = child_process::run(cmd, {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}}, 900);
    if (!r.ok()) {
      std::cerr << r.out << r.err;
      std::cout << "SUMMARY|cluster-scaling|" << n << " nodes|" << r.why() << "|-|FAILED\n";
      return 1;
    }
    if (std::getenv("UNICL_LOG")) std::cerr << r.err;
    std::istringstream lines(r.out);
    std::string runs;  // the timed runs' makespans, ms
    for (std::string line; std::getline(lines, line);) {
      std::istringstream f(line);
      std::string tag, name;
      Row row{n};
      if (line.rfind("RUNS ", 0) == 0) {
        f >> tag >> name;
        runs.clear();
        for (double s; f >> s;) runs += (runs.empty() ? "" : ", ") + fixed(s * 1e3, 1);
        continue;
      }
      if (f >> tag >> name >> row.makespan >> row.compute >> row.network >> row.devices >> row.whole >>
              row.messages &&
          tag == "RESULT") {
        rows[name].push_back(row);
        std::cout << "  " << name << " on " << n << " node(s): " << fixed(row.makespan * 1e3, 1) << " ms (runs: "
                  << runs << ")\n"
                  << std::flush;
      }
    }
  }
  std::cout << '\n';
  Table t({"workload", "nodes", "devices", "makespan ms", "compute bound ms", "network bound ms", "efficiency",
           "speed-up over 1 node", "whole launches ms", "makespan / that bound", "messages per launch"});
  std::vector<std::vector<std::string>> csv;
  for (auto &[name, list] : rows) {
    for (auto &row : list) {
      t.add({name, std::to_string(row.nodes), std::to_string(row.devices), fixed(row.makespan * 1e3, 1),
             fixed(row.compute * 1e3, 1), fixed(row.network * 1e3, 1), fixed(row.efficiency(), 2),
             fixed(list.front().makespan / row.makespan, 2), row.whole > 0 ? fixed(row.whole * 1e3, 1) : "-",
             row.whole > 0 ? fixed(row.makespan / row.whole, 2) : "-", fixed(row.messages, 2)});
      csv.push_back({name + " " + std::to_string(row.nodes), fixed(row.efficiency(), 3)});
    }
  }
  t.print();
  std::string dir = output_dir(o.out);
  write_csv(dir + "/cluster_scaling.csv", {"workload and nodes", "efficiency"}, csv);
  if (plot(dir + "/cluster_scaling.csv", dir + "/cluster_scaling.png",
           "Simulated 1 CPU + 3 GPUs per node: efficiency (bound / makespan)",
           {"--ylabel", "bound / makespan", "--hline", "0.8:goal (matmul, 4 nodes)"}))
    std::cout << "wrote " << dir << "/cluster_scaling.csv and .png\n";
  std::cout << '\n';
  for (auto &[name, list] : rows)
    for (auto &row : list)
      if (row.nodes == 4 && name == "matmul") {
        summary("cluster-scaling", "matmul efficiency on 4 nodes", fixed(row.efficiency(), 2), ">= 0.8",
                row.efficiency() >= 0.8 ? "met" : "MISSED");
        // The most any run could reach with these whole launches, and how
        // far from it this one is.
        if (row.whole > 0) {
          summary("cluster-scaling", "matmul efficiency on 4 nodes at best with whole launches",
                  fixed(row.bound() / row.whole, 2), "-", "info");
          summary("cluster-scaling", "matmul makespan on 4 nodes / its whole-launch bound",
                  fixed(row.makespan / row.whole, 2) + "x", "<= 1.15x", row.makespan <= 1.15 * row.whole ? "met" : "MISSED");
        }
      }
      else
        summary("cluster-scaling", name + " efficiency on " + std::to_string(row.nodes) + " node(s)",
                fixed(row.efficiency(), 2), "-", "info");
  return o.check > 0 && !within_check(o, rows) ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  return guarded_main("bench-cluster-scaling", [&] {
    Options o = parse(argc, argv);
    return o.rank0_nodes > 0 ? rank0(o) : run(o);
  });
}
