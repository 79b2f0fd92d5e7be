// bench-enqueue-overhead: the cost of one tiny kernel launch on an in-order
// queue, UniCL against the same PoCL device used directly, in one process.
// Each sample is N launches followed by one clFinish; the reported cost is
// the median over samples of (time / N). Configurations are interleaved
// sample by sample so that load from elsewhere hits them alike.
//
// Columns: PoCL direct (the baseline), a second PoCL direct context (its
// ratio to the first is the noise floor of the run), UniCL on a context
// holding only that
// device (the common case, target <= 1.2x), UniCL on a context holding both
// PoCL devices (where coherence tracking is active), and StarPU's SOCL as a
// measured reference, run in a child process because it needs its own
// vendor folder and may crash or hang. A second table: the round trip of one
// launch waited for before the next (enqueue + clFinish), PoCL direct
// against UniCL on a one-device context (target <= 1.03x).
#include <args.hpp>
#include <cl_env.hpp>
#include <socl_child.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <cstring>
#include <iostream>
#include <map>

namespace {

const char *kSource = R"(
__kernel void tiny(__global int *counter) {
  if (get_global_id(0) == 0) counter[0] += 1;
}
)";

constexpr double kTarget = 1.2;
constexpr double kLatencyTarget = 1.03;

struct Options {
  int launches = 20000;
  int reps = 11;
  std::string socl_vendors;  // folder with SOCL's .icd and PoCL's; empty: no SOCL column
  bool socl_child = false;
  // Profiling aid: run only this configuration (pocl, unicl, unicl-2dev) on
  // `only_device`, so a profiler sees one code path.
  std::string only;
  std::string only_device = "pthread";
  bool round_trips = false;  // with --only: time round trips instead of queued launches
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-enqueue-overhead",
              "[--launches N] [--reps R] [--socl-vendors DIR]\n"
              "       bench-enqueue-overhead --only pocl|unicl|unicl-2dev [--device pthread|basic] [--round-trips] [--launches N]\n"
              "                              [--reps R]")
      .value("--launches", o.launches)
      .value("--reps", o.reps)
      .value("--socl-vendors", o.socl_vendors)
      .flag("--socl-child", o.socl_child)
      .value("--only", o.only)
      .value("--device", o.only_device)
      .flag("--round-trips", o.round_trips)
      .parse(argc, argv);
  return o;
}

// One queue with a built kernel, and the counter it increments.
struct Launcher {
  cl::Context ctx;
  cl::CommandQueue queue;
  cl::Kernel kernel;
  cl::Buffer counter;
  long launched = 0;

  Launcher(const std::vector<cl::Device> &devices, const cl::Device &on) : ctx(devices), queue(ctx, on) {
    cl::Program program = bench::build(ctx, kSource);
    kernel = cl::Kernel(program, "tiny");
    int zero = 0;
    counter = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof zero);
    queue.enqueueWriteBuffer(counter, CL_TRUE, 0, sizeof zero, &zero);
    kernel.setArg(0, counter);
  }

  // Seconds per launch over n launches and the clFinish that ends them, or
  // with `each_waited`, the clFinish after every launch (a kernel's round
  // trip, as a latency test measures it). The C entry points are called
  // directly so the bindings add nothing per launch.
  double launches(int n, bool each_waited) {
    const size_t global = 1;
    cl_command_queue q = queue();
    cl_kernel k = kernel();
    auto start = bench::Clock::now();
    for (int i = 0; i < n; ++i) {
      cl_int err = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
      if (err != CL_SUCCESS) throw cl::Error(err, "clEnqueueNDRangeKernel");
      if (each_waited && (err = clFinish(q)) != CL_SUCCESS) throw cl::Error(err, "clFinish");
    }
    if (!each_waited) queue.finish();
    launched += n;
    return bench::seconds_since(start) / n;
  }
  double run(int n) { return launches(n, false); }
  double round_trip(int n) { return launches(n, true); }

  // The launches really ran: the counter equals their number.
  bool verified() {
    int value = -1;
    queue.enqueueReadBuffer(counter, CL_TRUE, 0, sizeof value, &value);
    return value == launched;
  }
};

const std::vector<std::string> kDevices = {"pthread", "basic"};

// Child mode: the same measurement on SOCL, printed as "SOCL <device> <us>".
int socl_child(const Options &o) {
  cl::Platform p = bench::platform(bench::kSOCL);
  for (auto &prefix : kDevices) {
    cl::Device d = bench::device(p, prefix);
    Launcher l({d}, d);
    l.run(std::max(1, o.launches / 10));
    std::vector<double> samples;
    for (int r = 0; r < o.reps; ++r) samples.push_back(l.run(o.launches));
    if (!l.verified()) throw std::runtime_error("SOCL: counter does not match the launches");
    std::cout << "SOCL " << prefix << ' ' << bench::median(samples) * 1e6 << std::endl;
  }
  return 0;
}

// Profiling mode: one configuration alone.
int only_one(const Options &o) {
  cl::Platform p = bench::platform(o.only == "pocl" ? bench::kPoCL : bench::kUniCL);
  cl::Device d = bench::device(p, o.only_device);
  std::vector<cl::Device> devices = {d};
  if (o.only == "unicl-2dev") devices = {bench::device(p, "pthread"), bench::device(p, "basic")};
  else if (o.only != "pocl" && o.only != "unicl") throw std::runtime_error("--only takes pocl, unicl or unicl-2dev");
  Launcher l(devices, d);
  auto once = [&](int n) { return o.round_trips ? l.round_trip(n) : l.run(n); };
  once(std::max(1, o.launches / 10));
  std::vector<double> samples;
  for (int r = 0; r < o.reps; ++r) samples.push_back(once(o.launches));
  if (!l.verified()) throw std::runtime_error("the counter does not match the launches");
  std::cout << o.only << ' ' << o.only_device << ": " << bench::fixed(bench::median(samples) * 1e6, 3)
            << (o.round_trips ? " us per round trip\n" : " us per launch\n");
  return 0;
}

int run(const Options &o) {
  cl::Platform pocl = bench::platform(bench::kPoCL);
  cl::Platform unicl = bench::platform(bench::kUniCL);
  std::cout << "bench-enqueue-overhead: " << o.launches << " launches of a 1-work-item kernel + clFinish, median of "
            << o.reps << " samples, per-launch cost in microseconds\n\n";

  struct Row {
    std::string device;
    double direct, again, unicl, unicl_multi;
    double latency_direct, latency_unicl;  // round trip of one launch
  };
  std::vector<Row> rows;
  for (auto &prefix : kDevices) {
    cl::Device pd = bench::device(pocl, prefix);
    cl::Device ud = bench::device(unicl, prefix);
    std::vector<cl::Device> both = {bench::device(unicl, "pthread"), bench::device(unicl, "basic")};
    Launcher direct({pd}, pd), again({pd}, pd), single({ud}, ud), multi(both, ud);
    std::vector<Launcher *> all = {&direct, &again, &single, &multi};
    for (auto *l : all) l->run(std::max(1, o.launches / 10));  // warm-up: code paths, allocations, caches
    std::vector<std::vector<double>> samples(all.size());
    for (int r = 0; r < o.reps; ++r)
      for (size_t i = 0; i < all.size(); ++i) samples[i].push_back(all[i]->run(o.launches));
    // Round trips are ~100x slower than queued launches: fewer of them.
    int trips = std::max(100, o.launches / 20);
    std::vector<double> trip_direct, trip_unicl;
    direct.round_trip(trips / 10);
    single.round_trip(trips / 10);
    for (int r = 0; r < o.reps; ++r) {
      trip_direct.push_back(direct.round_trip(trips));
      trip_unicl.push_back(single.round_trip(trips));
    }
    for (auto *l : all)
      if (!l->verified()) throw std::runtime_error(prefix + ": a counter does not match its launches");
    rows.push_back({prefix, bench::median(samples[0]) * 1e6, bench::median(samples[1]) * 1e6,
                    bench::median(samples[2]) * 1e6, bench::median(samples[3]) * 1e6,
                    bench::median(trip_direct) * 1e6, bench::median(trip_unicl) * 1e6});
  }

  std::string socl_why;
  auto socl = bench::measure_socl_child(o.socl_vendors, o.launches, socl_why);

  bench::Table t({"device", "PoCL us", "PoCL#2/PoCL", "UniCL us", "UniCL/PoCL", "target", "UniCL 2-dev ctx us", "2-dev/PoCL",
                  "SOCL us", "SOCL/PoCL"});
  for (auto &r : rows) {
    double ratio = r.unicl / r.direct;
    auto s = socl.find(r.device);
    t.add({r.device, bench::fixed(r.direct, 3), bench::fixed(r.again / r.direct, 2), bench::fixed(r.unicl, 3), bench::fixed(ratio, 2),
           "<= " + bench::fixed(kTarget, 1), bench::fixed(r.unicl_multi, 3), bench::fixed(r.unicl_multi / r.direct, 2),
           s == socl.end() ? "n/a" : bench::fixed(s->second, 2),
           s == socl.end() ? "n/a" : bench::fixed(s->second / r.direct, 1)});
  }
  t.print();
  std::cout << "\nround trip of one launch (enqueue + clFinish), one-device context:\n";
  bench::Table lt({"device", "PoCL us", "UniCL us", "UniCL/PoCL", "target"});
  for (auto &r : rows)
    lt.add({r.device, bench::fixed(r.latency_direct, 2), bench::fixed(r.latency_unicl, 2),
            bench::fixed(r.latency_unicl / r.latency_direct, 3), "<= " + bench::fixed(kLatencyTarget, 2)});
  lt.print();
  if (!socl_why.empty()) std::cout << "SOCL: n/a (" << socl_why << ")\n";
  std::cout << '\n';
  for (auto &r : rows) {
    double ratio = r.unicl / r.direct;
    bench::summary("enqueue-overhead", "launch " + r.device + " UniCL/PoCL", bench::fixed(ratio, 2) + "x",
                   "<= " + bench::fixed(kTarget, 1) + "x", ratio <= kTarget ? "met" : "MISSED");
    double trip = r.latency_unicl / r.latency_direct;
    bench::summary("enqueue-overhead", "round trip " + r.device + " UniCL/PoCL", bench::fixed(trip, 3) + "x",
                   "<= " + bench::fixed(kLatencyTarget, 2) + "x", trip <= kLatencyTarget ? "met" : "MISSED");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-enqueue-overhead", [&] {
    Options o = parse(argc, argv);
    if (o.socl_child) return socl_child(o);
    return o.only.empty() ? run(o) : only_one(o);
  });
}
