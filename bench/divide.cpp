// bench-divide: divided launches on the simulated "1 CPU + 3 GPUs" machine
// (tests/sim_icd in timing mode, bench/sim_machine.conf), through UniCL.
//
//   nbody     20 iterations of an N-body force step over 64 Ki particles
//             (write the positions, the force kernel, read the forces back),
//             the kernel carrying a divide function that cuts it into 2^f
//             blocks (f = 1..6, as seed 004's N-body cut it into 4..64).
//             Each fixed factor (CL_CONTEXT_DIVIDE_FACTOR_UNICL), undivided,
//             and the learnt factor with each strategy: total time of the
//             20 iterations, as speed-up over one launch per iteration;
//             the learnt runs also over their last 12 iterations (after the
//             exploration). Goals: learnt >= 0.95x the best fixed factor
//             over the whole run, >= 1.0x after the exploration.
//   builtin   the built-in divider (clSetKernelSplitUNICL, one launch cut in
//             proportion to the devices' rates, 2^(f-1) pieces per device) on
//             a 2048^2 matmul (rows of A and C partitioned, B shared) and on
//             Black-Scholes (4 pricing rounds over 4 Mi options, every buffer
//             partitioned), with each fixed factor and the learnt one:
//             makespan against the ideal bound (total flops / sum of the
//             devices' rates, no transfers). Goal: <= 1.05x.
//   inplace   two kernels, one after the other, over the same partitioned
//             buffer, both cut by the built-in divider: bytes moved between
//             them (CL_CONTEXT_BYTES_MOVED_UNICL), with the pieces left where
//             they were computed, and with the buffer gathered to the host
//             in between (what a runtime tracking whole buffers does).
//
// `--only SECTION` runs one of them.
//
// Performance models: a fresh XDG_CACHE_HOME, warmed per workload by
// untimed runs (so every piece size has a kernel model) before the timed
// ones; each learnt run is a process of its own, with those kernel models
// and no factor statistics.
#include <args.hpp>
#include <child_process.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <config.hpp>  // the simulator's (tests/sim_icd)

#include <malloc.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#ifndef BENCH_SIM_CONF
#define BENCH_SIM_CONF "bench/sim_machine.conf"
#endif
#ifndef BENCH_SIM_ICD
#define BENCH_SIM_ICD "build/tests/sim_icd/vendors/unicl-sim.icd"
#endif
#ifndef BENCH_POCL_VENDORS
#define BENCH_POCL_VENDORS "build/vendors-test/pocl.icd"
#endif
#ifndef BENCH_UNICL_VENDORS
#define BENCH_UNICL_VENDORS "build/vendors-exclusive"
#endif

namespace {

// Signatures only: in timing mode the simulator runs nothing.
const char *kSource = R"(
__kernel void nbody(__global const float4 *pos, __global float4 *force, uint n) {}
__kernel void mm_rows(__global const float *a, __global const float *b, __global float *c, int n) {}
__kernel void bs_round(__global const float *s, __global const float *x, __global const float *t,
                       __global float *call, __global float *put) {}
__kernel void scale(__global float *x) {}
__kernel void shift(__global float *x) {}
)";

// The same step computed for real, on PoCL: every particle against every other.
const char *kNBodySource = R"(
__kernel void nbody(__global const float4 *pos, __global float4 *force, uint n) {
  size_t i = get_global_id(0);
  float4 p = pos[i], f = (float4)(0.0f);
  for (uint j = 0; j < n; ++j) {
    float4 d = pos[j] - p;
    d.w = 0.0f;
    float r2 = dot(d, d) + 0.01f;
    f += d * (pos[j].w / (r2 * sqrt(r2)));
  }
  force[i] = f;
}
)";

constexpr size_t kParticles = 1 << 16, kRealParticles = 4096;
constexpr int kIterations = 20, kAfter = 12;  // the last kAfter iterations: after the exploration
constexpr cl_uint kMaxFactor = 6;

struct Options {
  std::string config = BENCH_SIM_CONF;
  std::string sim_icd = BENCH_SIM_ICD;
  std::string out = ".";
  int reps = 3;
  std::string pocl_vendors = BENCH_POCL_VENDORS;  // empty: no N-body on PoCL
  bool pocl_child = false;
  std::string learnt;  // child mode: one learnt N-body run with this strategy
  bool real = false;   // with --learnt: the N-body on PoCL (computed, kRealParticles)
  std::string only;  // one section (nbody, builtin or inplace); empty: all
  bool wants(const std::string &section) const { return only.empty() || only == section; }
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-divide", "[--config FILE] [--sim-icd FILE] [--pocl-vendors ICD|''] [--reps R] [--out DIR] "
                               "[--only nbody|builtin|inplace]")
      .value("--config", o.config)
      .value("--pocl-vendors", o.pocl_vendors)
      .flag("--pocl-child", o.pocl_child)
      .value("--learnt", o.learnt)
      .flag("--real", o.real)
      .value("--sim-icd", o.sim_icd)
      .value("--reps", o.reps)
      .value("--out", o.out)
      .value("--only", o.only)
      .parse(argc, argv);
  return o;
}

clSetKernelDivideFunctionUNICL_fn set_divide(const cl::Platform &p) {
  auto fn = reinterpret_cast<clSetKernelDivideFunctionUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(p(), "clSetKernelDivideFunctionUNICL"));
  if (!fn) throw std::runtime_error("UniCL does not offer clSetKernelDivideFunctionUNICL");
  return fn;
}

clSetKernelSplitUNICL_fn set_split(const cl::Platform &p) {
  auto fn = reinterpret_cast<clSetKernelSplitUNICL_fn>(
      clGetExtensionFunctionAddressForPlatform(p(), "clSetKernelSplitUNICL"));
  if (!fn) throw std::runtime_error("UniCL does not offer clSetKernelSplitUNICL");
  return fn;
}

// A heft context of `devices`; `factor`: a fixed divide factor, `strategy`:
// the learnt factor's strategy.
cl::Context context(const std::vector<cl::Device> &devices, std::optional<cl_uint> factor,
                    const char *strategy = nullptr) {
  std::vector<cl_context_properties> more;
  if (factor) more.insert(more.end(), {CL_CONTEXT_DIVIDE_FACTOR_UNICL, static_cast<cl_context_properties>(*factor)});
  if (strategy) more.insert(more.end(), {CL_CONTEXT_GRANULARITY_UNICL, reinterpret_cast<cl_context_properties>(strategy)});
  return bench::unicl_context(devices, "heft", 0, more);
}

cl_ulong bytes_moved(const cl::Context &ctx) {
  cl_ulong moved = 0;
  clGetContextInfo(ctx(), CL_CONTEXT_BYTES_MOVED_UNICL, sizeof moved, &moved, nullptr);
  return moved;
}

// ---- nbody ----------------------------------------------------------------

struct Blocks {
  cl_kernel kernel;
  size_t n;
};

// The divide function: 2^factor blocks of particles (sizes differing by at
// most one), each after `before`.
cl_int CL_CALLBACK nbody_blocks(cl_command_queue q, cl_uint factor, void *data, cl_event before, cl_event *after) {
  auto &b = *static_cast<Blocks *>(data);
  size_t blocks = size_t{1} << factor;
  std::vector<cl_event> pieces(blocks);
  for (size_t i = 0, offset = 0; i < blocks; ++i) {
    size_t size = b.n / blocks + (i < b.n % blocks ? 1 : 0);
    if (cl_int err = clEnqueueNDRangeKernel(q, b.kernel, 1, &offset, &size, nullptr, 1, &before, &pieces[i]);
        err != CL_SUCCESS)
      return err;
    offset += size;
  }
  cl_int err = clEnqueueMarkerWithWaitList(q, static_cast<cl_uint>(blocks), pieces.data(), after);
  for (cl_event e : pieces) clReleaseEvent(e);
  return err;
}

struct NBodyRun {
  double total = 0, after = 0;  // seconds: all iterations; the last kAfter
  std::vector<cl_uint> factors;
};

// `particles`: kParticles, or a few more so that a learnt run starts from a
// launch shape no earlier run timed (factor statistics are kept per shape).
NBodyRun nbody(const cl::Platform &p, const std::vector<cl::Device> &devices, std::optional<cl_uint> factor,
               const char *strategy, const char *source, size_t particles) {
  cl::Context ctx = context(devices, factor, strategy);
  cl::CommandQueue q = bench::device_less_queue(ctx, 0);
  cl::Program program = bench::build(ctx, source);
  const size_t n = particles;
  std::vector<cl_float4> pos(n), force(n);
  for (size_t i = 0; i < n; ++i)
    pos[i] = {{static_cast<float>(i % 64), static_cast<float>(i / 64 % 64), static_cast<float>(i / 4096), 1.0f}};
  cl::Buffer P(ctx, CL_MEM_READ_ONLY, n * sizeof(cl_float4)), F(ctx, CL_MEM_WRITE_ONLY, n * sizeof(cl_float4));
  cl::Kernel k(program, "nbody");
  k.setArg(0, P), k.setArg(1, F), k.setArg(2, static_cast<cl_uint>(n));
  // Each block writes its own forces: declared, so blocks on different
  // devices do not wait for one another's writes.
  const cl_kernel_split_arg_unicl own{1, 0, sizeof(cl_float4), sizeof(cl_float4)};
  set_split(p)(k(), 0, 1, &own);
  Blocks b{k(), n};
  set_divide(p)(k(), nbody_blocks, &b, 1, kMaxFactor);
  NBodyRun r;
  auto start = bench::Clock::now();
  for (int i = 0; i < kIterations; ++i) {
    auto iteration = bench::Clock::now();
    q.enqueueWriteBuffer(P, CL_FALSE, 0, n * sizeof(cl_float4), pos.data());
    cl::Event e;
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &e);
    q.enqueueReadBuffer(F, CL_TRUE, 0, n * sizeof(cl_float4), force.data());
    cl_uint f = 0;
    clGetEventInfo(e(), CL_EVENT_DIVIDE_FACTOR_UNICL, sizeof f, &f, nullptr);

    r.factors.push_back(f);
    if (i >= kIterations - kAfter) r.after += bench::seconds_since(iteration);
  }
  r.total = bench::seconds_since(start);
  return r;
}

// ---- builtin ----------------------------------------------------------------

// One run of the matmul (one launch) or Black-Scholes (4 dependent rounds),
// inputs in host memory; returns its makespan.
double builtin_matmul(const cl::Context &ctx, const cl::Program &program, const cl::Platform &p) {
  constexpr int n = 2048;
  static std::vector<float> host(size_t(n) * n, 1.0f);
  cl::Buffer A(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data());
  cl::Buffer B(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data());
  cl::Buffer C(ctx, CL_MEM_WRITE_ONLY, host.size() * 4);
  cl::Kernel k(program, "mm_rows");
  k.setArg(0, A), k.setArg(1, B), k.setArg(2, C), k.setArg(3, n);
  const cl_kernel_split_arg_unicl rows[] = {{0, 0, n * 4, n * 4}, {2, 0, n * 4, n * 4}};
  set_split(p)(k(), 1, 2, rows);
  cl::CommandQueue q = bench::device_less_queue(ctx, 0);
  auto start = bench::Clock::now();
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n, n));
  q.finish();
  return bench::seconds_since(start);
}

constexpr size_t kOptions = size_t{1} << 22;
constexpr int kRounds = 4;

double builtin_blackscholes(const cl::Context &ctx, const cl::Program &program, const cl::Platform &p) {
  static std::vector<float> host(kOptions, 1.0f);
  std::vector<cl::Buffer> in, out;
  for (int i = 0; i < 3; ++i) in.emplace_back(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kOptions * 4, host.data());
  for (int i = 0; i < 2; ++i) out.emplace_back(ctx, CL_MEM_READ_WRITE, kOptions * 4);
  cl::Kernel k(program, "bs_round");
  for (int i = 0; i < 3; ++i) k.setArg(i, in[i]);
  k.setArg(3, out[0]), k.setArg(4, out[1]);
  std::vector<cl_kernel_split_arg_unicl> every;
  for (cl_uint a = 0; a < 5; ++a) every.push_back({a, 0, 4, 4});
  set_split(p)(k(), 0, 5, every.data());
  cl::CommandQueue q = bench::device_less_queue(ctx, 0);
  auto start = bench::Clock::now();
  for (int r = 0; r < kRounds; ++r) q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kOptions));
  q.finish();
  return bench::seconds_since(start);
}

// ---- inplace ----------------------------------------------------------------

struct InPlace {
  cl_ulong between = 0, buffer = 0;
};

// scale then shift over one buffer, both cut by the built-in divider; with
// `gather`, the buffer is read back to the host between them.
InPlace inplace(const cl::Context &ctx, const cl::Program &program, const cl::Platform &p, bool gather) {
  constexpr size_t n = size_t{1} << 22;
  static std::vector<float> host(n, 1.0f);
  cl::Buffer X(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, host.data());
  cl::CommandQueue q = bench::device_less_queue(ctx, 0);
  const cl_kernel_split_arg_unicl one{0, 0, 4, 4};
  cl::Kernel scale(program, "scale"), shift(program, "shift");
  scale.setArg(0, X), shift.setArg(0, X);
  set_split(p)(scale(), 0, 1, &one);
  set_split(p)(shift(), 0, 1, &one);
  q.enqueueNDRangeKernel(scale, cl::NullRange, cl::NDRange(n));
  q.finish();
  cl_ulong before = bytes_moved(ctx);
  if (gather) q.enqueueReadBuffer(X, CL_TRUE, 0, n * 4, host.data());
  q.enqueueNDRangeKernel(shift, cl::NullRange, cl::NDRange(n));
  q.finish();
  return {bytes_moved(ctx) - before, n * 4};
}

// One learnt run, as a new application would make it: in a process of its
// own whose models are those learnt so far without any factor statistics
// (so the factor is learnt from nothing, at the same launch shape).
NBodyRun learnt_in_child(const std::string &strategy, bool real, const Options &o) {
  const char *cache = std::getenv("XDG_CACHE_HOME");
  if (!cache) throw std::runtime_error("no XDG_CACHE_HOME");
  bench::ModelCache fresh;  // a folder of its own, removed afterwards
  std::filesystem::create_directories(fresh.dir() + "/unicl");
  {
    std::ifstream in(std::string(cache) + "/unicl/models.tsv");
    std::ofstream out(fresh.dir() + "/unicl/models.tsv");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("factor\t", 0) != 0) out << line << '\n';
  }
  setenv("XDG_CACHE_HOME", cache, 1);  // fresh's constructor pointed it at itself
  std::vector<std::string> args = {"--learnt", strategy, "--out", o.out};
  if (real) args.push_back("--real");
  auto r = child_process::run_self(args, {{"XDG_CACHE_HOME", fresh.dir()}}, 600);
  if (!r.ok()) throw std::runtime_error("learnt N-body run: " + r.why());
  NBodyRun run;
  for (auto &line : r.out_lines()) {
    std::istringstream fields(line);
    std::string tag, factors;
    if (fields >> tag >> run.total >> run.after >> factors && tag == "LEARNT") {
      for (char f : factors) run.factors.push_back(static_cast<cl_uint>(f - '0'));
      return run;
    }
  }
  throw std::runtime_error("learnt N-body run printed no result: " + r.out);
}

// The N-body table: each fixed factor, undivided, and the learnt factor with
// each strategy, over `particles` particles; prints the table and the
// goals' summary lines.
void nbody_table(const cl::Platform &p, const std::vector<cl::Device> &devices, const char *source, size_t particles,
                 const Options &o, const std::string &machine, const std::string &csv) {
  // nbody: warm the kernel models at every block size, untimed.
  for (cl_uint f = 0; f <= kMaxFactor; ++f) nbody(p, devices, f, nullptr, source, particles);
  std::map<std::string, std::vector<NBodyRun>> runs;
  std::vector<std::string> configs = {"undivided"};
  for (cl_uint f = 1; f <= kMaxFactor; ++f) configs.push_back("factor " + std::to_string(f) + " (" + std::to_string(1 << f) + " blocks)");
  configs.push_back("learnt: each-once");
  configs.push_back("learnt: climb");
  for (int rep = 0; rep < o.reps; ++rep)
    for (size_t c = 0; c < configs.size(); ++c) {
      bool learnt = c > kMaxFactor;
      runs[configs[c]].push_back(
          learnt ? learnt_in_child(c == kMaxFactor + 1 ? "each-once" : "climb", source == kNBodySource, o)
                 : nbody(p, devices, std::optional<cl_uint>(c), nullptr, source, particles));
    }
  auto med = [&](const std::string &c, bool after) {
    std::vector<double> v;
    for (auto &r : runs[c]) v.push_back(after ? r.after : r.total);
    return bench::median(v);
  };
  double one = med("undivided", false), best_total = 1e30, best_after = 1e30;
  std::string best;
  std::cout << "N-body on " << machine << ", " << particles << " particles:\n";
  bench::Table t({"nbody, 20 iterations", "total ms", "speed-up over undivided", "last 12 iterations ms", "factors chosen (last run)"});
  for (auto &c : configs) {
    std::string chosen;
    if (c.rfind("learnt", 0) == 0)
      for (cl_uint f : runs[c].back().factors) chosen += std::to_string(f);
    else if (med(c, false) < best_total)
      best_total = med(c, false), best_after = med(c, true), best = c;
    t.add({c, bench::fixed(med(c, false) * 1e3, 1), bench::fixed(one / med(c, false), 2) + "x",
           bench::fixed(med(c, true) * 1e3, 1), chosen});
  }
  t.print();
  std::cout << "(medians of " << o.reps << " runs; best fixed: " << best << ")\n";
  std::string dir = bench::output_dir(o.out);
  std::vector<std::vector<std::string>> rows;
  for (auto &c : configs)
    rows.push_back({c, bench::fixed(one / med(c, false), 3), bench::fixed(med("undivided", true) / med(c, true), 3)});
  bench::write_csv(dir + "/" + csv + ".csv", {"nbody", "whole run", "last 12 iterations"}, rows);
  if (bench::plot(dir + "/" + csv + ".csv", dir + "/" + csv + ".png",
                  "N-body on " + machine + ": speed-up over one launch per iteration",
                  {"--ylabel", "speed-up over undivided"}))
    std::cout << "wrote " << dir << "/" << csv << ".csv and .png\n";
  std::cout << '\n';

  for (auto &c : {"learnt: each-once", "learnt: climb"}) {
    double whole = best_total / med(c, false), after = best_after / med(c, true);
    bench::summary("divide", "nbody (" + machine + ") " + c + " / best fixed, whole run", bench::fixed(whole, 2) + "x",
                   ">= 0.95x", whole >= 0.95 ? "met" : "MISSED");
    bench::summary("divide", "nbody (" + machine + ") " + c + " / best fixed, after exploration",
                   bench::fixed(after, 2) + "x", ">= 1.0x", after >= 1.0 ? "met" : "MISSED");
  }
  bench::summary("divide", "nbody (" + machine + ") best fixed factor over undivided",
                 bench::fixed(one / best_total, 2) + "x", "-", "info");
}

int run(const Options &o) {
  // The machine, with transfers that take their modeled time without moving
  // bytes (`move_bytes no`): the kernels compute nothing and no result is
  // read, and the simulator's memcpys (16 MiB per GPU and launch for matmul's
  // B) took this 2-core host's cores from UniCL's own threads, which a GPU's
  // DMA engine would not (matmul 1.08-1.12x of the bound with the copies,
  // 1.05x without).
  std::string machine_conf = bench::output_dir(o.out) + "/divide_machine.conf";
  {
    std::ifstream in(o.config);
    if (!in) throw std::runtime_error("cannot read " + o.config);
    std::ofstream out(machine_conf);
    out << in.rdbuf() << "\n# bench-divide: transfers only take their time\nmove_bytes no\n";
    if (!out) throw std::runtime_error("cannot write " + machine_conf);
  }
  setenv("UNICL_VENDORS", o.sim_icd.c_str(), 1);
  setenv("UNICL_SIM_CONFIG", machine_conf.c_str(), 1);
  setenv("OCL_ICD_VENDORS", BENCH_UNICL_VENDORS, 0);
  bench::ModelCache cache;
  mallopt(M_MMAP_THRESHOLD, 1 << 30);  // as bench-sim-compare: no first-touch faults in simulated transfers
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::ifstream conf(o.config);
  if (!conf) throw std::runtime_error("cannot read " + o.config);
  sim::Config m = sim::parse_config(conf);
  cl::Platform p = bench::platform(bench::kUniCL);
  std::vector<cl::Device> devices;
  p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  if (devices.size() != m.devices.size()) throw std::runtime_error("UniCL does not show the simulated devices");
  std::string machine;
  for (auto &d : m.devices) machine += (machine.empty() ? "" : ", ") + d.name + " " + bench::fixed(d.gflops, 0) + " GFLOPS";
  std::cout << "bench-divide: simulated machine " << o.config << " (" << machine << "), through UniCL, heft.\n\n";

  if (o.wants("nbody")) nbody_table(p, devices, kSource, kParticles, o, "the simulated 1 CPU + 3 GPUs", "divide_nbody");
  if (o.wants("nbody") && !o.pocl_vendors.empty()) {
    // The same on PoCL pthread + basic, computed for real, in a child
    // process (UniCL reads its vendors once per process).
    auto r = child_process::run_self({"--pocl-child", "--reps", std::to_string(o.reps), "--out", o.out},
                                     {{"UNICL_VENDORS", o.pocl_vendors}, {"POCL_DEVICES", std::string("pthread basic")}},
                                     900);
    std::cout << r.out;
    if (!r.ok()) std::cout << "SUMMARY|divide|nbody on PoCL: " << r.why() << "|-|-|FAILED\n";
  }

  // builtin: matmul and Black-Scholes against the bound, with each fixed
  // factor (2^(f-1) pieces per device) and the learnt one.
  auto bound = [&](const std::string &kernel, double items, int launches) {
    double per_second = 0;
    for (auto &d : m.devices) per_second += 1 / m.kernel_seconds(kernel, d, items);
    return launches / per_second;
  };
  using RunOnce = std::function<double(const cl::Context &, const cl::Program &)>;
  struct Builtin {
    std::string name;
    double bound;
    RunOnce run;
  };
  std::vector<Builtin> builtins = {
      {"matmul 2048^2, one launch", bound("mm_rows", 2048.0 * 2048, 1),
       [&](const cl::Context &c, const cl::Program &pr) { return builtin_matmul(c, pr, p); }},
      {"Black-Scholes 4 Mi options, 4 rounds", bound("bs_round", double(kOptions), kRounds),
       [&](const cl::Context &c, const cl::Program &pr) { return builtin_blackscholes(c, pr, p); }}};
  bench::Table b({"built-in divider", "factor", "makespan ms", "bound ms", "/ bound"});
  std::map<std::string, double> best_ratio, learnt_ratio;
  for (auto &w : o.wants("builtin") ? builtins : std::vector<Builtin>{}) {
    best_ratio[w.name] = 1e30;
    for (cl_uint f = 1; f <= 4; ++f) {
      cl::Context ctx = context(devices, f);
      cl::Program program = bench::build(ctx, kSource);
      w.run(ctx, program);  // the first run measures every device (equal shares)
      std::vector<double> samples;
      for (int i = 0; i < o.reps; ++i) samples.push_back(w.run(ctx, program));
      double x = bench::median(samples) / w.bound;
      best_ratio[w.name] = std::min(best_ratio[w.name], x);
      b.add({w.name, std::to_string(f) + " (" + std::to_string(1 << (f - 1)) + " per device)",
             bench::fixed(bench::median(samples) * 1e3, 1), bench::fixed(w.bound * 1e3, 1), bench::fixed(x, 2)});
    }
    // Learnt (climb): 12 runs; the median of the last 3.
    cl::Context ctx = context(devices, std::nullopt);
    cl::Program program = bench::build(ctx, kSource);
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) samples.push_back(w.run(ctx, program));
    double last = bench::median(std::vector<double>(samples.end() - 3, samples.end()));
    learnt_ratio[w.name] = last / w.bound;
    b.add({w.name, "learnt (last 3 of 12 runs)", bench::fixed(last * 1e3, 1), bench::fixed(w.bound * 1e3, 1),
           bench::fixed(last / w.bound, 2)});
  }
  if (o.wants("builtin")) {
    b.print();
    std::cout << "(bound: total flops / sum of the devices' rates, transfers not counted; medians of " << o.reps
              << " runs after one untimed run)\n\n";
  }

  // inplace: bytes moved between two divided kernels.
  InPlace kept, gathered;
  if (o.wants("inplace")) {
    cl::Context ctx = context(devices, 1);
    cl::Program program = bench::build(ctx, kSource);
    inplace(ctx, program, p, false);  // models for both kernels
    kept = inplace(ctx, program, p, false), gathered = inplace(ctx, program, p, true);
    bench::Table i({"two divided kernels on one 16 MiB buffer", "bytes moved between them"});
    i.add({"pieces left where they were computed", std::to_string(kept.between)});
    i.add({"buffer gathered to the host in between", std::to_string(gathered.between)});
    i.print();
    std::cout << '\n';
  }

  for (auto &[name, x] : best_ratio) {
    bench::summary("divide", "built-in " + name + ", best factor / bound", bench::fixed(x, 2) + "x", "<= 1.05x",
                   x <= 1.05 ? "met" : "MISSED");
    bench::summary("divide", "built-in " + name + ", learnt factor / bound", bench::fixed(learnt_ratio[name], 2) + "x",
                   "<= 1.05x", learnt_ratio[name] <= 1.05 ? "met" : "MISSED");
  }
  if (o.wants("inplace"))
    bench::summary("divide", "bytes moved between two divided kernels (kept / gathered)",
                   std::to_string(kept.between) + " / " + std::to_string(gathered.between), "-", "info");
  return 0;
}

}  // namespace

// Child mode: the N-body table on PoCL pthread + basic (UNICL_VENDORS set by
// the parent), computed for real.
int pocl_child(const Options &o) {
  setenv("OCL_ICD_VENDORS", BENCH_UNICL_VENDORS, 0);
  bench::ModelCache cache;
  cl::Platform p = bench::platform(bench::kUniCL);
  std::vector<cl::Device> devices;
  p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  nbody_table(p, devices, kNBodySource, kRealParticles, o, "PoCL pthread + basic", "divide_nbody_pocl");
  return 0;
}

// Child mode: one learnt N-body run (learnt_in_child set the models), its
// result on one line.
int learnt_child(const Options &o) {
  setenv("OCL_ICD_VENDORS", BENCH_UNICL_VENDORS, 0);
  if (!o.real) {  // as run()
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  cl::Platform p = bench::platform(bench::kUniCL);
  std::vector<cl::Device> devices;
  p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  const char *source = o.real ? kNBodySource : kSource;
  const size_t particles = o.real ? kRealParticles : kParticles;
  // Untimed, as warm as the parent's fixed runs: runs at fixed factors
  // (which record no factor statistics), divided (the kernel on every
  // device) and undivided. Without them the learnt run paid this process's
  // first launches (on PoCL 46 ms against 15 for its first iteration).
  nbody(p, devices, 1, nullptr, source, particles);
  nbody(p, devices, 0, nullptr, source, particles);
  NBodyRun r = nbody(p, devices, std::nullopt, o.learnt.c_str(), source, particles);
  std::string factors;
  for (cl_uint f : r.factors) factors += std::to_string(f);
  std::cout << "LEARNT " << r.total << ' ' << r.after << ' ' << factors << '\n';
  return 0;
}

int main(int argc, char **argv) {
  return bench::guarded_main("bench-divide", [&] {
    Options o = parse(argc, argv);
    if (!o.learnt.empty()) return learnt_child(o);
    return o.pocl_child ? pocl_child(o) : run(o);
  });
}
