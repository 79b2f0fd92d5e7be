// bench-real-mix: the policies on this machine's real device mix. One UniCL
// context holds PoCL pthread, PoCL basic (about half as fast) and oclgrind
// (thousands of times slower on this kernel); a blocked matrix multiply
// C = A x B (N x N floats, B row blocks, one launch per block, each block its
// own A and C buffers, B shared) runs on a device-less out-of-order queue of
// it with each policy. The makespan runs from the first buffer's creation
// (inputs copied from host memory) to the last block of C back in host
// memory; every run's C is checked against the host's.
//
// Reference: the fastest single device alone, i.e. the same program on a
// UniCL context holding only PoCL pthread (or only PoCL basic, if that were
// faster). Goal: heft within 1.10x of it. eager and round-robin are
// expected to be far slower: they send blocks to oclgrind.
//
// Each configuration runs in its own child process, which measures it and
// "pthread alone" interleaved run by run (their ratio compares runs under
// the same load), after untimed warm-up runs of each with the same sizes.
// Two warm-up runs, not one: heft explores a device without a model only
// with commands pushed after the first models arrive, and all blocks of a
// run are pushed at once, so on the first run it explores pthread and basic
// and only on the second oclgrind (one block, seconds long). All
// children share one fresh XDG_CACHE_HOME (a temporary folder), so models
// start uncalibrated and are calibrated by the warm-up runs. A child that
// does not finish within --cap seconds is stopped: a policy that hands a
// third of the blocks to oclgrind (round-robin does) needs half a minute
// per run. Its makespan is then reported as more than the time its
// last run had been going when it was stopped; --cap 300 lets them finish.
// heft's child may take --heft-cap seconds (30): its warm-ups explore
// oclgrind, usually with one block (2-3 s) but sometimes with more.
#include <args.hpp>
#include <child_process.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <cmath>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

namespace {

const char *kSource = R"(
// Rows [0, rows) of C = A x B, with A and C this block's rows only.
__kernel void mm_block(__global const float *a, __global const float *b, __global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
)";

constexpr double kTarget = 1.10;
// Configurations, each measured in its own child against "pthread alone".
const std::vector<std::string> kConfigs = {"basic alone", "heft", "eager", "ws", "random", "round-robin"};

struct Options {
  int n = 320;
  int blocks = 64;
  int warmups = 2;
  int reps = 5;
  double budget = 4;  // seconds of timed runs per configuration, after the first
  double cap = 12;       // seconds a child may take
  double heft_cap = 30;  // heft's child: its warm-ups may explore oclgrind with more than one block
  std::string out = ".";
  std::string models;  // keep the models in this XDG_CACHE_HOME instead of a fresh temporary one
  std::string child;   // child mode: the configuration to measure
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-real-mix",
              "[--n N] [--blocks B] [--warmups W] [--reps R] [--budget SECONDS] [--cap SECONDS] "
              "[--heft-cap SECONDS] [--out DIR] [--models XDG_CACHE_DIR]")
      .value("--n", o.n)
      .value("--blocks", o.blocks)
      .value("--reps", o.reps)
      .value("--warmups", o.warmups)
      .value("--budget", o.budget)
      .value("--cap", o.cap)
      .value("--heft-cap", o.heft_cap)
      .value("--out", o.out)
      .value("--models", o.models)
      .value("--child", o.child)
      .parse(argc, argv);
  if (o.blocks <= 0 || o.n % o.blocks) throw std::runtime_error("--n must be a multiple of --blocks");
  return o;
}

struct Problem {
  int n, blocks, rows;
  std::vector<float> a, b, c;  // c: the host's result, for checking
  Problem(int n_, int blocks_)
      : n(n_), blocks(blocks_), rows(n_ / blocks_), a(size_t(n_) * n_), b(a.size()), c(a.size()) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto &x : a) x = u(rng);
    for (auto &x : b) x = u(rng);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) {
        float aik = a[size_t(i) * n + k];
        for (int j = 0; j < n; ++j) c[size_t(i) * n + j] += aik * b[size_t(k) * n + j];
      }
  }
};

// One context and its device-less queue, ready to run the problem.
struct Config {
  std::string name;
  cl::Context ctx;
  cl::CommandQueue queue;
  cl::Kernel kernel;
  std::vector<double> samples;
  std::map<std::string, int> placement;  // of the last run: blocks per device ("pthread", "basic", "Oclgrind")

  Config(std::string n, const std::vector<cl::Device> &devices, const std::string &policy)
      : name(std::move(n)), ctx(bench::unicl_context(devices, policy)),
        queue(bench::device_less_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    kernel = cl::Kernel(bench::build(ctx, kSource), "mm_block");
  }

  // Seconds for the whole multiply; checks the result.
  double run(const Problem &p) {
    size_t block_floats = size_t(p.rows) * p.n;
    std::vector<float> c(p.c.size(), 0.0f);
    std::vector<cl::Event> launched(p.blocks);
    auto start = bench::Clock::now();
    cl::Buffer b(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, p.b.size() * sizeof(float),
                 const_cast<float *>(p.b.data()));
    std::vector<cl::Buffer> as, cs;
    for (int i = 0; i < p.blocks; ++i) {
      as.emplace_back(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, block_floats * sizeof(float),
                      const_cast<float *>(p.a.data() + i * block_floats));
      cs.emplace_back(ctx, CL_MEM_WRITE_ONLY, block_floats * sizeof(float));
      kernel.setArg(0, as[i]);
      kernel.setArg(1, b);
      kernel.setArg(2, cs[i]);
      kernel.setArg(3, p.n);
      queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(p.n, p.rows), cl::NullRange, nullptr, &launched[i]);
      std::vector<cl::Event> after = {launched[i]};
      queue.enqueueReadBuffer(cs[i], CL_FALSE, 0, block_floats * sizeof(float), c.data() + i * block_floats, &after);
    }
    queue.finish();
    double t = bench::seconds_since(start);
    for (size_t i = 0; i < c.size(); ++i)
      if (std::fabs(c[i] - p.c[i]) > 1e-3f * (1 + std::fabs(p.c[i])))
        throw std::runtime_error(name + ": C[" + std::to_string(i) + "] = " + std::to_string(c[i]) + ", expected " +
                                 std::to_string(p.c[i]));
    placement.clear();
    for (auto &e : launched) {
      cl::Device d(bench::ran_on(e), true);
      std::string dn = d.getInfo<CL_DEVICE_NAME>();
      ++placement[dn.substr(0, dn.find_first_of("- "))];
    }
    return t;
  }

  int on(const char *device) const { return placement.count(device) ? placement.at(device) : 0; }
};

bench::Clock::time_point g_started = bench::Clock::now();

// Child mode: warm-ups, then timed runs of "pthread alone" and `o.child`,
// interleaved; prints "START seconds" (since the child started) as each run
// of `o.child` starts, then "RESULT median runs warmups pthread-median
// pthread-runs blocks-pthread blocks-basic blocks-oclgrind".
int child(const Options &o) {
  cl::Platform unicl = bench::platform(bench::kUniCL);
  cl::Device pthread = bench::device(unicl, "pthread"), basic = bench::device(unicl, "basic");
  Problem p(o.n, o.blocks);
  Config alone("pthread alone", {pthread}, "");
  std::unique_ptr<Config> c;
  if (o.child == "basic alone") c = std::make_unique<Config>(o.child, std::vector<cl::Device>{basic}, "");
  else c = std::make_unique<Config>(o.child, std::vector<cl::Device>{pthread, basic, bench::device(unicl, "Oclgrind")}, o.child);
  auto run_c = [&] {
    std::cout << "START " << bench::seconds_since(g_started) << std::endl;
    return c->run(p);
  };
  double warmup = 0;
  for (int w = 0; w < o.warmups; ++w) {
    alone.run(p);
    warmup += run_c();
  }
  double spent = 0;
  for (int r = 0; r < o.reps; ++r) {
    if (r > 0 && spent > o.budget) break;
    alone.samples.push_back(alone.run(p));
    double t = run_c();
    c->samples.push_back(t);
    spent += t;
  }
  std::cout << "RESULT " << bench::median(c->samples) << ' ' << c->samples.size() << ' ' << warmup << ' '
            << bench::median(alone.samples) << ' ' << alone.samples.size() << ' ' << c->on("pthread") << ' '
            << c->on("basic") << ' ' << c->on("Oclgrind") << std::endl;
  return 0;
}

struct Result {
  bool ok = false;
  std::string why;
  double last_start = -1;  // child seconds when its last run started
  double cap = 0;          // seconds the child was allowed
  double median = 0, warmup = 0, alone = 0;
  int runs = 0, alone_runs = 0, on_pthread = 0, on_basic = 0, on_grind = 0;
};

int run(const Options &o) {
  bench::ModelCache cache(o.models);  // inherited by the children
  std::cout << "bench-real-mix: C = A x B, " << o.n << " x " << o.n << " floats in " << o.blocks << " row blocks ("
            << o.blocks << " launches of " << o.n << " x " << o.n / o.blocks
            << " work-items) on a device-less out-of-order queue of PoCL pthread + PoCL basic + oclgrind;\n"
            << "makespan from buffer creation to C in host memory. One child process per configuration, measured "
               "against pthread alone in the same process:\n"
            << o.warmups << " untimed warm-up runs each, then up to " << o.reps << " timed runs each (fewer past " << o.budget
            << " s), medians; " << (o.models.empty() ? "fresh " : "") << "XDG_CACHE_HOME " << cache.dir()
            << "; a child is stopped after " << o.cap << " s (heft's after " << o.heft_cap << " s).\n\n"
            << std::flush;

  std::vector<std::string> args = {"--n", std::to_string(o.n), "--blocks", std::to_string(o.blocks), "--warmups",
                                   std::to_string(o.warmups), "--reps", std::to_string(o.reps), "--budget",
                                   std::to_string(o.budget)};
  std::map<std::string, Result> results;
  for (auto &name : kConfigs) {
    auto start = bench::Clock::now();
    std::vector<std::string> a = args;
    a.push_back("--child");
    a.push_back(name);
    double cap = name == "heft" ? o.heft_cap : o.cap;
    child_process::Result r = child_process::run_self(a, {}, cap);
    Result &res = results[name];
    std::istringstream lines(r.out);
    std::string tag;
    while (lines >> tag)
      if (tag == "START")
        lines >> res.last_start;
      else if (tag == "RESULT")
        lines >> res.median >> res.runs >> res.warmup >> res.alone >> res.alone_runs >> res.on_pthread >> res.on_basic >>
            res.on_grind;
    res.ok = r.ok() && res.runs > 0;
    res.cap = cap;
    if (!res.ok) res.why = r.why();
    std::cout << "  " << name << ": " << (res.ok ? "done" : res.why) << " (" << bench::fixed(bench::seconds_since(start), 1)
              << " s)\n"
              << std::flush;
  }

  // The fastest single device: pthread, unless basic alone beat it.
  const Result &b = results["basic alone"];
  double basic_over_pthread = b.ok ? b.median / b.alone : 2;
  std::string fastest = basic_over_pthread < 1 ? "basic" : "pthread";
  auto ratio = [&](const Result &r) { return r.median / r.alone / std::min(1.0, basic_over_pthread); };

  std::cout << "\n";
  bench::Table t({"configuration", "makespan s", "runs", "pthread alone s", "/ fastest single", "warm-ups s",
                  "blocks: pthread", "basic", "Oclgrind"});
  std::vector<std::vector<std::string>> rows;
  // pthread alone, as measured beside basic alone.
  if (b.ok) {
    double x = 1 / std::min(1.0, basic_over_pthread);
    t.add({"pthread alone", bench::fixed(b.alone, 4), std::to_string(b.alone_runs), bench::fixed(b.alone, 4),
           bench::fixed(x, 2), "", std::to_string(o.blocks), "0", "0"});
    rows.push_back({"pthread alone", bench::fixed(b.alone, 5), bench::fixed(x, 3), "", std::to_string(o.blocks), "0", "0"});
  }
  std::map<std::string, double> lower;  // stopped configurations: the run in progress took longer than this
  for (auto &name : kConfigs) {
    const Result &r = results[name];
    if (!r.ok) {
      bool timeout = r.why.starts_with("timed out") && r.last_start >= 0;
      // Stopped at the cap: the run in progress had lasted cap - its start
      // (less a margin for the child's own start-up).
      if (timeout) lower[name] = r.cap - r.last_start - 0.1;
      std::string m = timeout ? "> " + bench::fixed(lower[name], 1) : "failed";
      std::string x = timeout && b.ok ? "> " + bench::fixed(lower[name] / std::min(b.alone, b.median), 0) : "";
      t.add({name, m, "0", "", x, timeout ? "(stopped)" : "", "", "", ""});
      if (timeout && b.ok)
        rows.push_back({name, "", "", bench::fixed(lower[name] / std::min(b.alone, b.median), 3), "", "", ""});
      continue;
    }
    t.add({name, bench::fixed(r.median, 4), std::to_string(r.runs), bench::fixed(r.alone, 4), bench::fixed(ratio(r), 2),
           bench::fixed(r.warmup, 3), std::to_string(r.on_pthread), std::to_string(r.on_basic), std::to_string(r.on_grind)});
    rows.push_back({name, bench::fixed(r.median, 5), bench::fixed(ratio(r), 3), "", std::to_string(r.on_pthread),
                    std::to_string(r.on_basic), std::to_string(r.on_grind)});
  }
  t.print();
  for (auto &name : kConfigs)
    if (!results[name].ok && !results[name].why.starts_with("timed out"))
      std::cout << name << ": " << results[name].why << '\n';
  std::cout << "\nfastest single device: " << fastest << " alone\n";

  std::string dir = bench::output_dir(o.out);
  bench::write_csv(dir + "/real_mix.csv",
                   {"configuration", "makespan s", "ratio to fastest single", "stopped: ratio above", "blocks pthread",
                    "blocks basic", "blocks Oclgrind"},
                   rows);
  if (bench::plot(dir + "/real_mix.csv", dir + "/real_mix.png",
                  "Real mix (PoCL pthread+basic+oclgrind): makespan / fastest single device",
                  {"--series", "ratio to fastest single,stopped: ratio above", "--log", "--ylabel", "makespan / " + fastest + " alone",
                   "--hline", "1.1:goal for heft 1.1x"}))
    std::cout << "wrote " << dir << "/real_mix.csv and " << dir << "/real_mix.png\n";
  std::cout << '\n';

  for (auto &name : bench::kPolicies) {
    const Result &r = results[name];
    bool goal = name == "heft";
    std::string target = goal ? "<= " + bench::fixed(kTarget, 2) + "x" : "-";
    if (!r.ok) {
      bool timeout = lower.count(name);
      bench::summary("real-mix", name + " makespan / " + fastest + " alone",
                     timeout ? "> " + bench::fixed(lower[name], 1) + " s (stopped)" : "failed", target,
                     goal ? (timeout ? "MISSED" : "FAILED") : "info");
      continue;
    }
    double x = ratio(r);
    bench::summary("real-mix", name + " makespan / " + fastest + " alone", bench::fixed(x, 2) + "x", target,
                   goal ? (x <= kTarget ? "met" : "MISSED") : "info");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-real-mix", [&] {
    Options o = parse(argc, argv);
    return o.child.empty() ? run(o) : child(o);
  });
}
