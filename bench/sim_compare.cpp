// bench-sim-compare: the policies on a simulated "1 CPU + 3 GPUs" machine.
// UniCL loads only the simulated accelerator ICD (tests/sim_icd, timing
// mode: kernels and transfers sleep their modeled durations), described by
// bench/sim_machine.conf. Three workloads, each on a device-less
// out-of-order queue of a context of all four devices, with every policy:
//
//   matmul       C = A x B, 2048 x 2048 floats, 64 row blocks (B shared)
//   blackscholes 24 independent chunks of 512 Ki options, 4 pricing rounds
//                each; round r+1 of a chunk follows round r and reuses its
//                buffers (6 MiB of inputs, 4 MiB of results), so a chunk
//                that changes device pays its transfers again
//   cholesky     tiled Cholesky of 10 x 10 tiles of 512 x 512 floats: the
//                potrf/trsm/syrk/gemm task graph, ordered by events
//
// Buffers are made (inputs copied in, so valid in host memory only) and
// kernel arguments set before the clock starts; the makespan runs from the
// first launch to the clFinish after the last (results stay where they were
// computed: the bound below has no transfers either). It is compared with
// the ideal bound: total flops / the sum of the devices' rates (read from
// the configuration: gflops x the kernel's efficiency on the device type,
// the same for every kernel in sim_machine.conf). Goals: heft <= 1.15x the
// bound, ws <= 1.3x. The critical path on the fastest device is printed too:
// the workloads are sized so that it stays well below the bound.
//
// Models: fresh XDG_CACHE_HOME; per workload, one calibration run with
// round-robin (which puts every kernel on every device, so every model
// exists), then per policy one untimed warm-up run and timed runs (up to
// --reps, fewer past --budget seconds), medians. Without the calibration
// (--no-calibration) heft explores each device with every command pushed
// before that device's first measurement returns: all 64 matmul blocks go to
// the CPU on the first run, all to gpu0 on the second, and so on.
//
// The simulator sleeps each command's modeled time; on a loaded machine it
// wakes up late. The "simulator overshoot" line measures it: back-to-back
// kernels on one simulated GPU, their time against the modeled time.
#include <args.hpp>
#include <child_process.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <sim_workloads.hpp>

#include <malloc.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#ifndef BENCH_SIM_CONF
#define BENCH_SIM_CONF "bench/sim_machine.conf"
#endif
#ifndef BENCH_SIM_ICD
#define BENCH_SIM_ICD "build/tests/sim_icd/vendors/unicl-sim.icd"
#endif
#ifndef BENCH_UNICL_VENDORS
#define BENCH_UNICL_VENDORS "build/vendors-exclusive"
#endif

namespace {

using namespace bench;  // the simulated workloads

const std::map<std::string, double> kGoals = {{"heft", 1.15}, {"ws", 1.3}};

struct Options {
  std::string config = BENCH_SIM_CONF;
  std::string sim_icd = BENCH_SIM_ICD;
  int warmups = 1;
  int reps = 3;
  bool calibrate = true;
  double budget = 3;
  std::string out = ".";
  std::string only;  // one workload
  std::vector<std::string> policies = bench::kPolicies;
  std::string socl_lib;     // StarPU's SOCL library: also run the workloads on it (child process)
  bool socl_child = false;  // child mode: the workloads on SOCL, which loads the simulator itself
};

Options parse(int argc, char **argv) {
  Options o;
  bool no_calibration = false;
  bench::Args("bench-sim-compare",
              "[--config FILE] [--sim-icd FILE] [--no-calibration] [--warmups W] [--reps R] [--budget SECONDS] "
              "[--out DIR] [--only matmul|blackscholes|cholesky] [--policies heft,ws,...] [--socl-lib LIBSOCL]")
      .value("--config", o.config)
      .value("--sim-icd", o.sim_icd)
      .value("--warmups", o.warmups)
      .flag("--no-calibration", no_calibration)
      .value("--reps", o.reps)
      .value("--budget", o.budget)
      .value("--out", o.out)
      .value("--only", o.only)
      .value("--socl-lib", o.socl_lib)
      .flag("--socl-child", o.socl_child)
      .with("--policies",
            [&](const std::string &text) {
              o.policies.clear();
              std::istringstream list(text);
              for (std::string p; std::getline(list, p, ',');) o.policies.push_back(p);
            })
      .parse(argc, argv);
  o.calibrate = !no_calibration;
  return o;
}

// The simulator's timing under the current load: `launches` back-to-back
// matmul blocks on one device (a one-device context), measured / modeled.
double overshoot(const sim::Config &m, const sim::DeviceConfig &md, const cl::Device &d, int launches) {
  constexpr int n = 2048, rows = 32;
  cl::Context ctx({d});
  cl::CommandQueue q(ctx, d);
  cl::Kernel k(bench::build(ctx, kSimSource), "mm_block");
  cl::Buffer a(ctx, CL_MEM_READ_WRITE, 4096), b(ctx, CL_MEM_READ_WRITE, 4096), c(ctx, CL_MEM_READ_WRITE, 4096);
  k.setArg(0, a);
  k.setArg(1, b);
  k.setArg(2, c);
  k.setArg(3, static_cast<int>(n));
  double seconds = 0;
  for (int pass = 0; pass < 2; ++pass) {
    auto start = bench::Clock::now();
    for (int i = 0; i < launches; ++i) launch(q, k, cl::NDRange(n, rows));
    q.finish();
    seconds = bench::seconds_since(start);
  }
  return seconds / (launches * m.kernel_seconds("mm_block", md, double(n) * rows));
}

// `warmups` untimed runs of `w`, then timed ones (o.reps, fewer once
// o.budget seconds are spent): the seconds of each, from the first launch
// to clFinish. `last`: the events of the last timed run.
std::vector<double> timed_runs(const Workload &w, const cl::Context &ctx, const cl::Program &p, cl::CommandQueue &q,
                               int warmups, const Options &o, Events *last = nullptr) {
  for (int i = 0; i < warmups; ++i) {
    Prepared run = w.prepare(ctx, p);
    run(q);
    q.finish();
  }
  std::vector<double> samples;
  double spent = 0;
  for (int i = 0; i < o.reps && (i == 0 || spent < o.budget); ++i) {
    Prepared run = w.prepare(ctx, p);
    auto start = bench::Clock::now();
    Events events = run(q);
    q.finish();
    samples.push_back(bench::seconds_since(start));
    spent += samples.back();
    if (last) *last = std::move(events);
  }
  return samples;
}

struct Result {
  double median = 0, bound = 0, critical = 0;
  int runs = 0;
  std::map<std::string, int> placement;
};

// Child mode: the same workloads through StarPU's SOCL, which sees the
// simulated devices through the loader (OCL_ICD_VENDORS holds SOCL's .icd
// and the simulator's). A device-less out-of-order queue; StarPU's dmda
// policy (its HEFT: STARPU_SCHED, since SOCL ignores the context property).
// Prints "SOCL <workload> <median seconds> <runs>".
int socl_child(const Options &o) {
  cl::Platform p = bench::platform(bench::kSOCL);
  std::vector<cl::Device> devices;
  p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  const char *policy = "dmda";
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(p()),
                                   CL_CONTEXT_SCHEDULER_SOCL, reinterpret_cast<cl_context_properties>(policy), 0};
  cl::Context ctx(devices, props);
  cl_int err = CL_SUCCESS;
  cl_command_queue raw = clCreateCommandQueue(ctx(), nullptr, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err != CL_SUCCESS) throw cl::Error(err, "SOCL clCreateCommandQueue(device NULL)");
  cl::CommandQueue q(raw);
  cl::Program program = bench::build(ctx, kSimSource);
  for (auto &w : {sim_matmul(), sim_blackscholes(), sim_cholesky()}) {
    if (!o.only.empty() && o.only != w.name) continue;
    // One more warm-up than UniCL's: StarPU calibrates its models too.
    std::vector<double> samples = timed_runs(w, ctx, program, q, o.warmups + 1, o);
    std::cout << "SOCL " << w.name << ' ' << bench::median(samples) << ' ' << samples.size() << std::endl;
  }
  return 0;
}

// Runs socl_child in a child process; workload -> (median seconds, runs).
std::map<std::string, std::pair<double, int>> measure_socl(const Options &o, std::string &why) {
  std::map<std::string, std::pair<double, int>> out;
  if (o.socl_lib.empty()) {
    why = "not requested (--socl-lib LIBSOCL)";
    return out;
  }
  char pattern[] = "/tmp/unicl-bench-socl.XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  std::string dir = pattern;
  std::ofstream(dir + "/socl.icd") << o.socl_lib << '\n';
  std::ifstream sim(o.sim_icd);  // a folder's .icd file naming the simulator library
  std::string sim_lib;
  std::getline(sim, sim_lib);
  std::ofstream(dir + "/unicl-sim.icd") << sim_lib << '\n';
  std::vector<std::string> args = {"--socl-child", "--config", o.config, "--warmups", std::to_string(o.warmups),
                                   "--reps", std::to_string(o.reps), "--budget", std::to_string(o.budget)};
  if (!o.only.empty()) args.insert(args.end(), {"--only", o.only});
  child_process::Result r = child_process::run_self(args,
                                                    {{"OCL_ICD_VENDORS", dir},
                                                     {"UNICL_SIM_CONFIG", o.config},
                                                     {"STARPU_OPENCL_ON_CPUS", "1"},
                                                     {"STARPU_NCPU", "0"},
                                                     {"STARPU_SCHED", "dmda"},
                                                     {"STARPU_SILENT", "1"}},
                                                    300);
  std::filesystem::remove_all(dir);
  std::istringstream lines(r.out);
  std::string tag, w;
  double s;
  int runs;
  while (lines >> tag >> w >> s >> runs)
    if (tag == "SOCL") out[w] = {s, runs};
  if (!r.ok()) why = r.why();
  return out;
}

int run(const Options &o) {
  // Before any OpenCL call: UniCL loads only the simulator, configured by o.config.
  setenv("UNICL_VENDORS", o.sim_icd.c_str(), 1);
  setenv("UNICL_SIM_CONFIG", o.config.c_str(), 1);
  setenv("OCL_ICD_VENDORS", BENCH_UNICL_VENDORS, 0);  // UniCL's .icd, unless the caller chose
  bench::ModelCache cache;
  sim::Config m = read_machine(o.config);
  // The simulated devices' memory is this process's heap, and each run makes
  // new buffers. Keep freed memory in the process instead of handing it back
  // to the kernel, so that a transfer into a new buffer is not slowed by
  // first-touch page faults (slow here: ~1 ms per 2 MiB, twice the modeled
  // transfer) that no real device would have.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  cl::Platform unicl = bench::platform(bench::kUniCL);
  std::vector<cl::Device> devices;
  unicl.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  std::vector<std::string> names;
  for (auto &d : devices) names.push_back(d.getInfo<CL_DEVICE_NAME>());
  if (devices.size() != m.devices.size())
    throw std::runtime_error("UniCL shows " + std::to_string(devices.size()) + " devices, " + o.config + " describes " +
                             std::to_string(m.devices.size()) + " (is " + o.sim_icd + " built?)");

  std::vector<Workload> workloads = {sim_matmul(), sim_blackscholes(), sim_cholesky()};
  size_t fastest = 0;
  for (size_t i = 1; i < m.devices.size(); ++i)
    if (m.devices[i].gflops > m.devices[fastest].gflops) fastest = i;
  double over = overshoot(m, m.devices[fastest], devices[fastest], 20);
  std::string machine;
  for (auto &d : m.devices) machine += (machine.empty() ? "" : ", ") + d.name + " " + bench::fixed(d.gflops, 0) + " GFLOPS";
  std::cout << "bench-sim-compare: simulated machine " << o.config << " (" << machine << "), through UniCL;\n"
            << "device-less out-of-order queue on all devices; makespan from the first launch (inputs in host memory) to "
               "clFinish; bound = total flops / sum of device rates.\n"
            << "Models: fresh XDG_CACHE_HOME, " << (o.calibrate ? "one round-robin calibration run per workload, " : "")
            << o.warmups << " untimed warm-up run(s) per workload and policy, then up to "
            << o.reps << " timed runs (fewer past " << o.budget << " s), medians.\n"
            << "Simulator overshoot under the current load: 20 back-to-back matmul blocks on " << m.devices[fastest].name
            << " take " << bench::fixed(over, 3) << "x their modeled time.\n\n"
            << std::flush;

  std::map<std::string, std::map<std::string, Result>> results;
  for (auto &w : workloads) {
    if (!o.only.empty() && o.only != w.name) continue;
    // A launch shared by all devices at their rates takes 1 / sum(1 / its time on each).
    const Bound bound = ideal_bound(m, w);
    double work = bound.flops, rates_time = bound.seconds, critical = 0;
    for (auto &l : w.critical_path) {
      double best = m.kernel_seconds(l.kernel, m.devices[0], l.items);
      for (auto &d : m.devices) best = std::min(best, m.kernel_seconds(l.kernel, d, l.items));
      critical += best;
    }
    std::cout << w.name << ": " << w.description << ", " << w.launches.size() << " launches, "
              << bench::fixed(work / 1e9, 1) << " GFLOP; bound " << bench::fixed(rates_time * 1e3, 1)
              << " ms, critical path on the fastest device " << bench::fixed(critical * 1e3, 1) << " ms\n"
              << std::flush;
    if (o.calibrate) {
      cl::Context ctx = bench::unicl_context(devices, "round-robin");
      cl::CommandQueue q = bench::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
      cl::Program p = bench::build(ctx, kSimSource);
      Prepared run = w.prepare(ctx, p);
      auto start = bench::Clock::now();
      run(q);
      q.finish();
      std::cout << "  (calibration run, round-robin: " << bench::fixed(bench::seconds_since(start) * 1e3, 1) << " ms)\n";
    }
    for (auto &policy : o.policies) {
      cl::Context ctx = bench::unicl_context(devices, policy);
      cl::CommandQueue q = bench::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
      cl::Program p = bench::build(ctx, kSimSource);
      Result &r = results[w.name][policy];
      r.bound = rates_time;
      r.critical = critical;
      Events last;
      std::vector<double> samples = timed_runs(w, ctx, p, q, o.warmups, o, &last);
      for (auto &e : last) ++r.placement[cl::Device(bench::ran_on(e), true).getInfo<CL_DEVICE_NAME>()];
      r.median = bench::median(samples);
      r.runs = static_cast<int>(samples.size());
      std::cout << "  " << policy << ": " << bench::fixed(r.median * 1e3, 1) << " ms\n" << std::flush;
    }
  }
  std::string socl_why;
  auto socl = measure_socl(o, socl_why);
  std::cout << '\n';

  std::vector<std::string> header = {"workload", "policy", "makespan ms", "bound ms", "/ bound", "goal", "runs"};
  for (auto &n : names) header.push_back(n);
  bench::Table t(header);
  std::vector<std::vector<std::string>> rows;
  for (auto &w : workloads) {
    if (!results.count(w.name)) continue;
    std::vector<std::string> row = {w.name};
    for (auto &policy : o.policies) {
      Result &r = results[w.name][policy];
      double x = r.median / r.bound;
      auto g = kGoals.find(policy);
      std::vector<std::string> cells = {w.name, policy, bench::fixed(r.median * 1e3, 1), bench::fixed(r.bound * 1e3, 1),
                                        bench::fixed(x, 2), g == kGoals.end() ? "" : "<= " + bench::fixed(g->second, 2),
                                        std::to_string(r.runs)};
      for (auto &n : names) cells.push_back(std::to_string(r.placement[n]));
      t.add(cells);
      row.push_back(bench::fixed(x, 3));
    }
    if (auto s = socl.find(w.name); s != socl.end()) {
      Result &any = results[w.name].begin()->second;
      t.add({w.name, "SOCL dmda", bench::fixed(s->second.first * 1e3, 1), bench::fixed(any.bound * 1e3, 1),
             bench::fixed(s->second.first / any.bound, 2), "", std::to_string(s->second.second)});
    }
    rows.push_back(row);
  }
  t.print();
  std::cout << "(last columns: launches per device in the last timed run; SOCL dmda: StarPU's SOCL with its dmda "
               "policy, same workloads on the same simulated devices, for comparison)\n";
  if (!socl_why.empty())
    std::cout << "SOCL: " << socl_why << " (workloads without a SOCL row did not finish on it)\n";

  std::string dir = bench::output_dir(o.out);
  std::vector<std::string> csv_header = {"workload"};
  for (auto &p : o.policies) csv_header.push_back(p);
  bench::write_csv(dir + "/sim_compare.csv", csv_header, rows);
  if (bench::plot(dir + "/sim_compare.csv", dir + "/sim_compare.png",
                  "Simulated 1 CPU + 3 GPUs: makespan / ideal bound, by policy",
                  {"--ylabel", "makespan / (work / sum of rates)", "--hline", "1.15:heft goal", "--hline", "1.3:ws goal"}))
    std::cout << "wrote " << dir << "/sim_compare.csv and " << dir << "/sim_compare.png\n";
  std::cout << '\n';

  for (auto &w : workloads) {
    if (!results.count(w.name)) continue;
    std::string others;
    for (auto &policy : o.policies) {
      Result &r = results[w.name][policy];
      double x = r.median / r.bound;
      auto g = kGoals.find(policy);
      if (g == kGoals.end()) {
        others += (others.empty() ? "" : " ") + policy + " " + bench::fixed(x, 2) + "x";
        continue;
      }
      bench::summary("sim-compare", w.name + " " + policy + " / bound", bench::fixed(x, 2) + "x",
                     "<= " + bench::fixed(g->second, 2) + "x", x <= g->second ? "met" : "MISSED");
    }
    if (auto s = socl.find(w.name); s != socl.end())
      others += " SOCL-dmda " + bench::fixed(s->second.first / results[w.name].begin()->second.bound, 2) + "x";
    bench::summary("sim-compare", w.name + " other policies / bound", others, "-", "info");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-sim-compare", [&] {
    Options o = parse(argc, argv);
    return o.socl_child ? socl_child(o) : run(o);
  });
}
