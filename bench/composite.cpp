// bench-composite: plain single-device programs through the composite device
// (UNICL_COMPOSITE), against the best single device and against the same
// kernels with their split declared by hand.
//
// Each workload is a program as people write them for one device: the
// platform's first device, one context of it, one in-order queue, one
// launch over the whole problem, its result read back, iterated. It runs in a
// child process per configuration (UniCL reads UNICL_COMPOSITE once per
// process):
//   alone      on one device (the best of the machine: a GPU of the
//              simulator, pthread of PoCL), no composite;
//   composite  UNICL_COMPOSITE=1: the program's one device is the composite,
//              its launches split as the analysis of the kernel's source says;
//   declared   the composite, the kernel's split declared by hand
//              (clSetKernelSplitUNICL): the bound of what the analysis can do.
// Time per iteration: the median of the last half of the iterations (the
// first ones learn the models and the factor). With --reps R the three
// configurations run R times in turn, and each ratio is the median of the
// R ratios of runs made in the same minutes (this machine is shared).
//
// Machines: the simulated 1 CPU + 3 GPUs of bench/sim_machine.conf (timing
// mode: kernels take their modelled time, transfers move their bytes), where
// the ideal is the sum of the devices' rates over the best one's (3.1x); and
// PoCL's pthread + basic on this machine's two cores, which they share, so
// splitting cannot pay there and the composite must cost nothing.
//
// Goals (issue "One device that is every device"): on the simulator matmul,
// N-body, Mandelbrot and Black-Scholes >= 2.5x the best single device and
// within 1.1x of the split declared by hand; the vector sum no slower than
// the best single device; on PoCL at most 1.05x pthread alone.
#include <args.hpp>
#include <child_process.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <cmath>
#include <cstring>
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
#ifndef BENCH_POCL_VENDORS
#define BENCH_POCL_VENDORS "build/vendors-test/pocl.icd"
#endif
#ifndef BENCH_UNICL_VENDORS
#define BENCH_UNICL_VENDORS "build/vendors-exclusive"
#endif

namespace {

// The kernels, with real bodies (the analysis reads them; the simulator
// only times them by name, bench/sim_machine.conf).
const char *kSource = R"CL(
__kernel void mm_rows(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(1), j = get_global_id(0);
  float s = 0;
  for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
  c[i * n + j] = s;
}
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
__kernel void mandelbrot(__global int *out, int w, int h, int max_iter) {
  int x = get_global_id(0), y = get_global_id(1);
  float cr = -2.0f + 3.0f * x / w, ci = -1.0f + 2.0f * y / h, zr = 0, zi = 0;
  int k = 0;
  while (k < max_iter && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  out[y * w + x] = k;
}
__kernel void bs_round(__global const float *s, __global const float *x, __global const float *t,
                       __global float *call, __global float *put) {
  size_t i = get_global_id(0);
  float d = log(s[i] / x[i]) / sqrt(t[i]);
  call[i] = s[i] * d - x[i];
  put[i] = x[i] * d - s[i];
}
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)CL";

// One workload: its kernel, NDRange, buffers (bytes; which are read back
// each iteration), scalar arguments, and the split one would declare.
struct Workload {
  std::string name, kernel;
  std::vector<size_t> global;
  std::vector<size_t> buffers;          // bytes, in argument order
  std::vector<bool> read_back;          // per buffer: read back each iteration
  std::vector<std::vector<std::byte>> scalars;  // after the buffers
  cl_uint split_dim;
  std::vector<cl_kernel_split_arg_unicl> split;
};

template <class T>
std::vector<std::byte> scalar(T v) {
  std::vector<std::byte> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}

// The workloads at `scale` (1: the simulator's sizes; smaller for PoCL,
// which computes them).
std::vector<Workload> workloads(double scale) {
  auto sized = [scale](size_t n) { return std::max<size_t>(64, static_cast<size_t>(static_cast<double>(n) * scale)); };
  const int mm = static_cast<int>(sized(2048)), image = static_cast<int>(sized(2048));
  const size_t particles = sized(1 << 16), options = sized(1 << 22), elements = sized(1 << 24);
  const size_t mmb = size_t(mm) * mm * 4, rows = size_t(mm) * 4, ib = size_t(image) * image * 4;
  std::vector<Workload> out;
  out.push_back({"matmul", "mm_rows", {size_t(mm), size_t(mm)}, {mmb, mmb, mmb}, {false, false, true}, {scalar(mm)}, 1,
                 {{0, 0, rows, rows}, {2, 0, rows, rows}}});
  out.push_back({"nbody", "nbody", {particles}, {particles * 16, particles * 16}, {false, true},
                 {scalar(static_cast<cl_uint>(particles))}, 0, {{1, 0, 16, 16}}});
  out.push_back({"mandelbrot", "mandelbrot", {size_t(image), size_t(image)}, {ib}, {true},
                 {scalar(image), scalar(image), scalar(256)}, 1, {{0, 0, size_t(image) * 4, size_t(image) * 4}}});
  std::vector<cl_kernel_split_arg_unicl> every;
  for (cl_uint a = 0; a < 5; ++a) every.push_back({a, 0, 4, 4});
  out.push_back({"blackscholes", "bs_round", {options}, std::vector<size_t>(5, options * 4),
                 {false, false, false, true, true}, {}, 0, every});
  out.push_back({"vadd", "vadd", {elements}, std::vector<size_t>(3, elements * 4), {false, false, true}, {}, 0,
                 {{0, 0, 4, 4}, {1, 0, 4, 4}, {2, 0, 4, 4}}});
  return out;
}

struct Options {
  std::string config = BENCH_SIM_CONF, sim_icd = BENCH_SIM_ICD, pocl_vendors = BENCH_POCL_VENDORS;
  int iterations = 12, reps = 1;
  std::string only;     // one workload
  std::string machine;  // one machine: "simulated" or "pocl"
  // Child mode: run `child` on `on` ("composite" or a device name).
  std::string child, on;
  bool declared = false;
  double scale = 1;
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-composite", "[--config FILE] [--sim-icd FILE] [--pocl-vendors ICD|''] [--iterations N] "
                                 "[--reps R] [--only WORKLOAD] [--machine simulated|pocl]")
      .value("--config", o.config)
      .value("--sim-icd", o.sim_icd)
      .value("--pocl-vendors", o.pocl_vendors)
      .value("--iterations", o.iterations)
      .value("--reps", o.reps)
      .value("--only", o.only)
      .value("--machine", o.machine)
      .value("--child", o.child)
      .value("--on", o.on)
      .value("--scale", o.scale)
      .flag("--declared", o.declared)
      .parse(argc, argv);
  return o;
}

// ---- child: one plain program ---------------------------------------------

cl::Device chosen_device(const std::string &on) {
  cl::Platform p = bench::platform(bench::kUniCL);
  std::vector<cl::Device> all;
  p.getDevices(CL_DEVICE_TYPE_ALL, &all);
  for (auto &d : all) {
    std::string name = d.getInfo<CL_DEVICE_NAME>();
    if (on == "composite" ? name.rfind("UniCL composite", 0) == 0 : name.rfind(on, 0) == 0) return d;
  }
  throw std::runtime_error("no device " + on);
}

// Runs the workload's iterations; prints "RESULT seconds...", one time per
// iteration, and "KERNEL seconds...", the launch's own time in each (its
// event's profiling START to END).
int child(const Options &o) {
  const double scale = o.scale;
  Workload w;
  for (auto &x : workloads(scale))
    if (x.name == o.child) w = x;
  if (w.name.empty()) throw std::runtime_error("no workload " + o.child);
  cl::Device device = chosen_device(o.on);
  cl::Context ctx(device);
  cl::CommandQueue q(ctx, device, CL_QUEUE_PROFILING_ENABLE);
  cl::Program program = bench::build(ctx, kSource);
  cl::Kernel k(program, w.kernel.c_str());
  std::vector<cl::Buffer> buffers;
  std::vector<std::vector<float>> host;
  for (size_t i = 0; i < w.buffers.size(); ++i) {
    host.emplace_back(w.buffers[i] / 4, 1.0f);
    buffers.emplace_back(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, w.buffers[i], host.back().data());
    k.setArg(static_cast<cl_uint>(i), buffers.back());
  }
  for (size_t i = 0; i < w.scalars.size(); ++i)
    clSetKernelArg(k(), static_cast<cl_uint>(w.buffers.size() + i), w.scalars[i].size(), w.scalars[i].data());
  if (o.declared) {
    auto set_split = reinterpret_cast<clSetKernelSplitUNICL_fn>(
        clGetExtensionFunctionAddressForPlatform(bench::platform(bench::kUniCL)(), "clSetKernelSplitUNICL"));
    set_split(k(), w.split_dim, static_cast<cl_uint>(w.split.size()), w.split.data());
  }
  cl::NDRange global = w.global.size() == 1 ? cl::NDRange(w.global[0]) : cl::NDRange(w.global[0], w.global[1]);
  std::vector<double> wall, kernel;
  for (int it = 0; it < o.iterations; ++it) {
    auto start = bench::Clock::now();
    cl::Event launch;
    q.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NullRange, nullptr, &launch);
    for (size_t i = 0; i < buffers.size(); ++i)
      if (w.read_back[i]) q.enqueueReadBuffer(buffers[i], CL_FALSE, 0, w.buffers[i], host[i].data());
    q.finish();
    wall.push_back(bench::seconds_since(start));
    kernel.push_back(static_cast<double>(launch.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                         launch.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-9);
  }
  for (auto [tag, times] : {std::pair{"RESULT", &wall}, std::pair{"KERNEL", &kernel}}) {
    std::cout << tag;
    for (double t : *times) std::cout << ' ' << t;
    std::cout << std::endl;
  }
  return 0;
}

// ---- parent -----------------------------------------------------------------

// The machine a configuration runs on.
struct Machine {
  std::string name;
  child_process::EnvChanges env;
  std::string best;  // the best single device's name prefix
  double scale;
};

// One configuration's run: seconds per iteration, and what the iteration
// cost besides its launch's own time (the same program's host side and,
// through UniCL, the scheduled context's), medians of the last half. The
// second barely moves with the machine's load, which stretches kernels.
struct ChildTimes {
  double seconds = 0, besides_launch = 0;
};

ChildTimes run_child(const Options &o, const Machine &m, const Workload &w, const std::string &on, bool composite,
                 bool declared) {
  std::vector<std::string> args = {"--child", w.name, "--on", on, "--iterations", std::to_string(o.iterations),
                                   "--scale", std::to_string(m.scale)};
  if (declared) args.push_back("--declared");
  child_process::EnvChanges env = m.env;
  env["UNICL_COMPOSITE"] = composite ? std::optional<std::string>("1") : std::nullopt;
  auto r = child_process::run_self(args, env, 900);
  if (!r.ok()) throw std::runtime_error(m.name + " " + w.name + " on " + on + ": " + r.why());
  std::map<std::string, std::vector<double>> series;
  for (auto &line : r.out_lines()) {
    std::istringstream in(line);
    std::string tag;
    if (!(in >> tag) || (tag != "RESULT" && tag != "KERNEL")) continue;
    for (double t; in >> t;) series[tag].push_back(t);
  }
  const auto &wall = series["RESULT"], &kernel = series["KERNEL"];
  if (wall.empty() || kernel.size() != wall.size())
    throw std::runtime_error("no result from " + w.name + " on " + on + ": " + r.out + r.err);
  std::vector<double> last_half, besides;
  for (size_t i = wall.size() / 2; i < wall.size(); ++i) {
    last_half.push_back(wall[i]);
    besides.push_back(wall[i] - kernel[i]);
  }
  return {bench::median(last_half), bench::median(besides)};
}

// Per configuration, the median of its runs; the ratios are the medians of
// the ratios of runs made one after the other (alone, composite, declared:
// the same minutes of this shared machine), not ratios of medians.
// `held`: the composite's time per iteration over alone's if the launch
// took alone's time in both (alone's iteration with the composite's cost
// besides the launch): what the composite adds, with the load's stretching
// of kernels taken out.
struct Row {
  double alone = 0, composite = 0, declared = 0;
  double speedup = 0, versus_declared = 0;
  double alone_besides = 0, composite_besides = 0, held = 0;
};

Row row_of(const std::vector<ChildTimes> &alone, const std::vector<ChildTimes> &composite,
           const std::vector<ChildTimes> &declared) {
  std::vector<double> a, c, d, speedup, versus, a_besides, c_besides, held;
  for (size_t r = 0; r < alone.size(); ++r) {
    a.push_back(alone[r].seconds), c.push_back(composite[r].seconds), d.push_back(declared[r].seconds);
    speedup.push_back(alone[r].seconds / composite[r].seconds);
    versus.push_back(composite[r].seconds / declared[r].seconds);
    a_besides.push_back(alone[r].besides_launch), c_besides.push_back(composite[r].besides_launch);
    held.push_back((alone[r].seconds - alone[r].besides_launch + composite[r].besides_launch) / alone[r].seconds);
  }
  return {bench::median(a),         bench::median(c),         bench::median(d),   bench::median(speedup),
          bench::median(versus),    bench::median(a_besides), bench::median(c_besides), bench::median(held)};
}

void report(const Machine &m, const std::map<std::string, Row> &rows) {
  bench::Table t({"workload", "best single (" + m.best + ") ms", "composite ms", "declared by hand ms",
                  "speed-up", "composite / declared", "besides the launch us (alone / composite)"});
  for (auto &[name, r] : rows)
    t.add({name, bench::fixed(r.alone * 1e3, 2), bench::fixed(r.composite * 1e3, 2), bench::fixed(r.declared * 1e3, 2),
           bench::fixed(r.speedup, 2) + "x", bench::fixed(r.versus_declared, 3) + "x",
           bench::fixed(r.alone_besides * 1e6, 0) + " / " + bench::fixed(r.composite_besides * 1e6, 0)});
  std::cout << m.name << ":\n";
  t.print();
  std::cout << '\n';
  for (auto &[name, r] : rows) {
    const double speedup = r.speedup, versus = r.versus_declared;
    if (m.name.rfind("simulated", 0) == 0) {
      if (name == "vadd") {
        bench::summary("bench-composite", name + " (memory-bound) vs best single device", bench::fixed(speedup, 2) + "x",
                       ">= 1.0x", speedup >= 1.0 ? "MET" : "MISSED");
      } else {
        bench::summary("bench-composite", name + " vs best single device", bench::fixed(speedup, 2) + "x", ">= 2.5x",
                       speedup >= 2.5 ? "MET" : "MISSED");
        bench::summary("bench-composite", name + " vs declared by hand", bench::fixed(versus, 3) + "x", "<= 1.1x",
                       versus <= 1.1 ? "MET" : "MISSED");
      }
    } else {
      const double cost = 1 / r.speedup;
      bench::summary("bench-composite", name + " on PoCL pthread+basic vs pthread alone", bench::fixed(cost, 3) + "x",
                     "<= 1.05x", cost <= 1.05 ? "MET" : "MISSED");
      bench::summary("bench-composite", name + " on PoCL pthread+basic vs pthread alone, launch time held",
                     bench::fixed(r.held, 3) + "x", "<= 1.05x", r.held <= 1.05 ? "MET" : "MISSED");
    }
  }
}

int parent(const Options &o) {
  bench::ModelCache models;  // shared by the children: what one learnt, the next starts from
  std::vector<Machine> machines;
  const child_process::EnvChanges common = {{"OCL_ICD_VENDORS", std::string(BENCH_UNICL_VENDORS)},
                                            {"XDG_CACHE_HOME", models.dir()}};
  if (o.machine.empty() || o.machine == "simulated") {
    Machine sim{"simulated 1 CPU + 3 GPUs", common, "gpu0", 1.0};
    sim.env["UNICL_VENDORS"] = o.sim_icd;
    sim.env["UNICL_SIM_CONFIG"] = o.config;
    machines.push_back(sim);
  }
  if (!o.pocl_vendors.empty() && (o.machine.empty() || o.machine == "pocl")) {
    Machine pocl{"PoCL pthread + basic", common, "pthread", 1.0 / 16};
    pocl.env["UNICL_VENDORS"] = o.pocl_vendors;
    pocl.env["POCL_DEVICES"] = std::string("pthread basic");
    machines.push_back(pocl);
  }
  for (auto &m : machines) {
    std::map<std::string, Row> rows;
    for (auto &w : workloads(m.scale)) {
      if (!o.only.empty() && w.name != o.only) continue;
      std::vector<ChildTimes> alone, composite, declared;
      for (int r = 0; r < o.reps; ++r) {
        alone.push_back(run_child(o, m, w, m.best, false, false));
        composite.push_back(run_child(o, m, w, "composite", true, false));
        declared.push_back(run_child(o, m, w, "composite", true, true));
      }
      rows[w.name] = row_of(alone, composite, declared);
    }
    report(m, rows);
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-composite", [&] {
    Options o = parse(argc, argv);
    return o.child.empty() ? parent(o) : child(o);
  });
}
