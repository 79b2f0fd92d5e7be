// bench-sched-overhead: what placing each command costs on a device-less
// queue. N tiny independent kernel launches (no data dependencies between
// them) go into an out-of-order device-less queue of a UniCL context holding
// PoCL pthread and PoCL basic, once per policy; the same launches go into
// plain PoCL queues of the same process. Each sample is N launches followed
// by one clFinish; the per-command cost is the median over samples of
// (time / N), configurations interleaved sample by sample so that load from
// elsewhere hits them alike. The added cost is UniCL's per-command time
// minus the cheapest plain PoCL queue's (target: at most 4 us).
//
// Two workloads: a kernel without arguments (the scheduler alone), and a
// kernel reading one small buffer (the scheduler plus coherence checks of a
// buffer that is valid everywhere after the first launches).
//
// StarPU's SOCL, as a measured reference, runs the same launches on its
// device-less queue (a NULL device, scheduled by StarPU's "eager" policy
// through CL_CONTEXT_SCHEDULER_SOCL) in a child process: it needs its own
// vendors folder and may crash or hang.
#include <args.hpp>
#include <socl_child.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <iostream>
#include <map>
#include <memory>

namespace {

const char *kSource = R"(
__kernel void nop() {}
__kernel void peek(__global const int *p) {}  // a read-only buffer: coherence checks, no dependencies
)";

constexpr double kTargetUs = 4.0;
const std::vector<std::string> kWorkloads = {"nop", "peek"};

struct Options {
  int launches = 20000;
  int reps = 3;
  std::string socl_vendors;  // folder with SOCL's .icd and PoCL's; empty: no SOCL column
  bool socl_child = false;
  std::string out;           // CSV + PNG folder; empty: none
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-sched-overhead", "[--launches N] [--reps R] [--socl-vendors DIR] [--out DIR]")
      .value("--launches", o.launches)
      .value("--reps", o.reps)
      .value("--socl-vendors", o.socl_vendors)
      .flag("--socl-child", o.socl_child)
      .value("--out", o.out)
      .parse(argc, argv);
  return o;
}

// A queue, the workload's kernel, and a way to launch it n times.
struct Launcher {
  std::string name;
  cl::Context ctx;
  cl::CommandQueue queue;
  cl::Kernel kernel;
  cl::Buffer buffer;

  Launcher(std::string n, cl::Context c, cl::CommandQueue q, const std::string &workload)
      : name(std::move(n)), ctx(std::move(c)), queue(std::move(q)) {
    cl::Program program = bench::build(ctx, kSource);
    kernel = cl::Kernel(program, workload.c_str());
    if (workload == "peek") {
      std::vector<int> zero(64, 0);
      buffer = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, zero.size() * sizeof(int), zero.data());
      kernel.setArg(0, buffer);
    }
  }

  // Seconds per command over n launches and the clFinish that ends them, and
  // the part spent in the enqueue calls. The C entry point is called
  // directly so the bindings add nothing per launch.
  std::pair<double, double> run(int n) {
    const size_t global = 1;
    cl_command_queue q = queue();
    cl_kernel k = kernel();
    auto start = bench::Clock::now();
    for (int i = 0; i < n; ++i) {
      cl_int err = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
      if (err != CL_SUCCESS) throw cl::Error(err, "clEnqueueNDRangeKernel");
    }
    double enqueued = bench::seconds_since(start);
    queue.finish();
    return {bench::seconds_since(start) / n, enqueued / n};
  }

  // Launches n commands with events and counts where they ran (UniCL only).
  std::map<std::string, int> placement(int n) {
    std::vector<cl::Event> events(n);
    for (auto &e : events) queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &e);
    queue.finish();
    std::map<std::string, int> count;
    for (auto &e : events) {
      if (e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE) throw std::runtime_error(name + ": a command did not complete");
      cl::Device d(bench::ran_on(e), true);
      std::string dn = d.getInfo<CL_DEVICE_NAME>();
      ++count[dn.substr(0, dn.find('-'))];
    }
    return count;
  }
};

cl::CommandQueue plain_queue(const cl::Context &ctx, const cl::Device &d, cl_command_queue_properties props) {
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(ctx(), d(), props, &err);
  if (err != CL_SUCCESS) throw cl::Error(err, "clCreateCommandQueue");
  return cl::CommandQueue(q);
}

// Child mode: the launches on SOCL's device-less queue, printed as
// "SOCL <workload> <us per command>".
int socl_child(const Options &o) {
  cl::Platform p = bench::platform(bench::kSOCL);
  std::vector<cl::Device> devices = {bench::device(p, "pthread"), bench::device(p, "basic")};
  const char *policy = "eager";
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(p()),
                                   CL_CONTEXT_SCHEDULER_SOCL, reinterpret_cast<cl_context_properties>(policy), 0};
  cl::Context ctx(devices, props);
  for (auto &w : kWorkloads) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(ctx(), nullptr, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS) throw cl::Error(err, "SOCL clCreateCommandQueue(device NULL)");
    Launcher l("SOCL", ctx, cl::CommandQueue(q), w);
    l.run(std::max(1, o.launches / 10));
    std::vector<double> samples;
    for (int r = 0; r < o.reps; ++r) samples.push_back(l.run(o.launches).first);
    std::cout << "SOCL " << w << ' ' << bench::median(samples) * 1e6 << std::endl;
  }
  return 0;
}

struct Result {
  std::string config;
  double us = 0, enqueue_us = 0;
  std::string placement;
};

std::vector<Result> measure(const Options &o, const std::string &workload) {
  cl::Platform pocl = bench::platform(bench::kPoCL);
  cl::Platform unicl = bench::platform(bench::kUniCL);
  cl::Device pt = bench::device(pocl, "pthread");
  std::vector<cl::Device> both = {bench::device(unicl, "pthread"), bench::device(unicl, "basic")};

  std::vector<std::unique_ptr<Launcher>> all;
  {
    cl::Context c({pt});
    all.push_back(std::make_unique<Launcher>("PoCL pthread in-order", c, plain_queue(c, pt, 0), workload));
  }
  try {
    cl::Context c({pt});
    all.push_back(std::make_unique<Launcher>("PoCL pthread out-of-order", c,
                                             plain_queue(c, pt, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), workload));
  } catch (const cl::Error &e) {
    std::cout << "(PoCL pthread out-of-order queue: error " << e.err() << ", left out)\n";
  }
  size_t first_unicl = all.size();
  for (auto &p : bench::kPolicies) {
    cl::Context c = bench::unicl_context(both, p);
    all.push_back(std::make_unique<Launcher>("UniCL " + p, c,
                                             bench::device_less_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), workload));
  }
  // Warm-up: code paths, allocations, and the models (heft explores each
  // device before it trusts them).
  for (auto &l : all) l->run(std::max(1, o.launches / 10));
  std::vector<std::vector<double>> total(all.size()), enq(all.size());
  for (int r = 0; r < o.reps; ++r)
    for (size_t i = 0; i < all.size(); ++i) {
      auto [t, e] = all[i]->run(o.launches);
      total[i].push_back(t);
      enq[i].push_back(e);
    }
  std::vector<Result> out;
  for (size_t i = 0; i < all.size(); ++i) {
    Result res{all[i]->name, bench::median(total[i]) * 1e6, bench::median(enq[i]) * 1e6, ""};
    if (i >= first_unicl) {
      for (auto &[dev, n] : all[i]->placement(1000)) res.placement += (res.placement.empty() ? "" : " ") + dev + ":" + std::to_string(n / 10) + "%";
    }
    out.push_back(res);
  }
  return out;
}

int run(const Options &o) {
  bench::ModelCache cache;  // models start empty; the warm-up calibrates them
  std::cout << "bench-sched-overhead: " << o.launches << " independent launches of a 1-work-item kernel + clFinish, "
            << "median of " << o.reps << " samples, microseconds per command.\n"
            << "UniCL: out-of-order device-less queue, context of PoCL pthread + basic, models calibrated by an "
               "untimed warm-up (fresh XDG_CACHE_HOME).\n\n";
  std::string socl_why;
  std::vector<std::vector<std::string>> csv;
  std::map<std::string, std::map<std::string, double>> added;  // workload -> policy -> us
  std::vector<std::vector<Result>> per_workload;
  std::vector<double> bases;  // per workload: the cheapest plain PoCL queue's us/command
  for (auto &w : kWorkloads) per_workload.push_back(measure(o, w));
  auto socl = bench::measure_socl_child(o.socl_vendors, o.launches, socl_why);

  for (size_t wi = 0; wi < kWorkloads.size(); ++wi) {
    auto &w = kWorkloads[wi];
    auto &res = per_workload[wi];
    double base = res[0].us;
    std::string base_name = res[0].config;
    for (auto &r : res)
      if (r.config.starts_with("PoCL") && r.us < base) base = r.us, base_name = r.config;
    bases.push_back(base);
    std::cout << "workload " << w << (w == "nop" ? " (no arguments)" : " (reads one 256-byte buffer)")
              << "; baseline: " << base_name << "\n";
    bench::Table t({"queue", "us/command", "enqueue call us", "added us", "placement (1000 commands)"});
    for (auto &r : res) {
      bool u = r.config.starts_with("UniCL");
      t.add({r.config, bench::fixed(r.us, 2), bench::fixed(r.enqueue_us, 2), u ? bench::fixed(r.us - base, 2) : "",
             r.placement});
      if (u) added[w][r.config.substr(6)] = r.us - base;
      csv.push_back({w + " " + r.config, bench::fixed(r.us, 3)});
    }
    auto s = socl.find(w);
    t.add({"SOCL eager (device-less)", s == socl.end() ? "n/a" : bench::fixed(s->second, 2), "",
           s == socl.end() ? "n/a" : bench::fixed(s->second - base, 2), ""});
    if (s != socl.end()) csv.push_back({w + " SOCL eager", bench::fixed(s->second, 3)});
    t.print();
    std::cout << '\n';
  }
  if (!socl_why.empty()) std::cout << "SOCL: n/a (" << socl_why << ")\n\n";

  if (!o.out.empty()) {
    std::string dir = bench::output_dir(o.out);
    std::vector<std::vector<std::string>> rows;
    for (auto &p : bench::kPolicies) {
      std::vector<std::string> row = {p};
      for (auto &w : kWorkloads) row.push_back(bench::fixed(added[w][p], 3));
      rows.push_back(row);
    }
    if (!socl.empty()) {
      std::vector<std::string> row = {"SOCL eager"};
      for (size_t wi = 0; wi < kWorkloads.size(); ++wi) {
        auto s = socl.find(kWorkloads[wi]);
        row.push_back(s == socl.end() ? "" : bench::fixed(s->second - bases[wi], 3));
      }
      rows.push_back(row);
    }
    bench::write_csv(dir + "/sched_overhead.csv", {"queue", "nop added us", "peek added us"}, rows);
    if (bench::plot(dir + "/sched_overhead.csv", dir + "/sched_overhead.png",
                    "Per-command cost added to PoCL (us), device-less queue", {"--ylabel", "us per command", "--hline", "4:target"}))
      std::cout << "wrote " << dir << "/sched_overhead.csv and .png\n\n";
  }

  // The target is heft's (the default policy); the others and SOCL for the record.
  for (size_t wi = 0; wi < kWorkloads.size(); ++wi) {
    auto &w = kWorkloads[wi];
    double a = added[w]["heft"];
    bench::summary("sched-overhead", w + ": heft added per command", bench::fixed(a, 2) + " us",
                   "<= " + bench::fixed(kTargetUs, 0) + " us", a <= kTargetUs ? "met" : "MISSED");
    std::string others;
    for (auto &p : bench::kPolicies)
      if (p != "heft") others += (others.empty() ? "" : " ") + p + " " + bench::fixed(added[w][p], 1);
    auto s = socl.find(w);
    if (s != socl.end()) others += " SOCL " + bench::fixed(s->second - bases[wi], 1);
    bench::summary("sched-overhead", w + ": other policies added (us)", others, "-", "info");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-sched-overhead", [&] {
    Options o = parse(argc, argv);
    if (o.socl_child) return socl_child(o);
    return run(o);
  });
}
