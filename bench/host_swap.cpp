// bench-host-swap: what host swap costs. A UniCL context of PoCL pthread +
// PoCL basic (memory limits apply to multi-device contexts) runs, on an
// in-order queue of the pthread device, P passes over K buffers of S bytes:
// one kernel per buffer and pass, adding 1 to every word. The same workload
// runs with three per-device limits (CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL):
//   no eviction  limit = 2 x the buffers' total: every replica stays
//   total = 2x   limit = total / 2
//   total = 4x   limit = total / 4
// With a cyclic pass over more buffers than fit, least-recently-used
// eviction would miss on every launch (the buffer evicted is the one needed
// next); UniCL notices the pattern and keeps most of the cycle resident.
// Each miss writes the evicted buffer's only valid copy back to host memory
// and uploads the launch's own buffer. The bytes UniCL moved (as the context
// counts them) over the extra time against the no-eviction run give the swap
// throughput, compared with a plain host memcpy of S bytes measured in the
// same run. Report only: there is no target.
//
// Each configuration has its own context; one untimed pass first (uploads,
// kernel compilation, and the steady state of the replicas), then timed
// samples of P passes each, configurations interleaved sample by sample,
// medians. The buffers' final contents are checked.
#include <args.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <cstring>
#include <iostream>

namespace {

const char *kSource = R"(
__kernel void bump(__global uint *x) { x[get_global_id(0)] += 1u; }
)";

constexpr size_t MiB = 1024 * 1024;

struct Options {
  size_t buffer = 8 * MiB;  // S
  int buffers = 32;         // K: 256 MiB in all
  int passes = 2;           // P per sample
  int reps = 3;
  std::string out = ".";
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-host-swap", "[--buffer-mib S] [--buffers K] [--passes P] [--reps R] [--out DIR]")
      .value("--buffer-mib", o.buffer, MiB)
      .value("--buffers", o.buffers)
      .value("--passes", o.passes)
      .value("--reps", o.reps)
      .value("--out", o.out)
      .parse(argc, argv);
  return o;
}

struct Config {
  std::string name;
  double factor;  // buffers' total / limit
  cl::Context ctx;
  cl::CommandQueue queue;
  cl::Kernel kernel;
  std::vector<cl::Buffer> buffers;
  int passes_done = 0;
  std::vector<double> samples;
  std::vector<double> moved;  // bytes UniCL moved per sample (CL_CONTEXT_BYTES_MOVED_UNICL)

  Config(std::string n, double f, const std::vector<cl::Device> &devices, const cl::Device &on, const Options &o)
      : name(std::move(n)), factor(f),
        ctx(bench::unicl_context(devices, "", static_cast<cl_ulong>(double(o.buffer) * o.buffers / f))),
        queue(ctx, on) {
    kernel = cl::Kernel(bench::build(ctx, kSource), "bump");
    std::vector<cl_uint> init(o.buffer / sizeof(cl_uint));
    for (int b = 0; b < o.buffers; ++b) {
      for (size_t i = 0; i < init.size(); ++i) init[i] = static_cast<cl_uint>(b * 7 + i);
      buffers.emplace_back(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, o.buffer, init.data());
    }
  }

  // Seconds for `passes` passes over every buffer.
  double run(int passes) {
    size_t items = 0;
    buffers[0].getInfo(CL_MEM_SIZE, &items);
    items /= sizeof(cl_uint);
    cl_ulong before = bytes_moved();
    auto start = bench::Clock::now();
    for (int p = 0; p < passes; ++p)
      for (auto &b : buffers) {
        kernel.setArg(0, b);
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NullRange);
      }
    queue.finish();
    double seconds = bench::seconds_since(start);
    moved.push_back(static_cast<double>(bytes_moved() - before));
    passes_done += passes;
    return seconds;
  }

  // Bytes UniCL moved so far; 0 from a library that does not count them
  // (the benchmark then assumes every launch missed, see run()).
  cl_ulong bytes_moved() const {
    cl_ulong n = 0;
    if (clGetContextInfo(ctx(), CL_CONTEXT_BYTES_MOVED_UNICL, sizeof n, &n, nullptr) != CL_SUCCESS) return 0;
    return n;
  }

  void check() {
    size_t bytes = 0;
    buffers[0].getInfo(CL_MEM_SIZE, &bytes);
    std::vector<cl_uint> got(bytes / sizeof(cl_uint));
    for (size_t b = 0; b < buffers.size(); ++b) {
      queue.enqueueReadBuffer(buffers[b], CL_TRUE, 0, bytes, got.data());
      for (size_t i = 0; i < got.size(); i += 997)
        if (got[i] != static_cast<cl_uint>(b * 7 + i + passes_done))
          throw std::runtime_error(name + ": buffer " + std::to_string(b) + " word " + std::to_string(i) + " is " +
                                   std::to_string(got[i]) + ", expected " + std::to_string(b * 7 + i + passes_done));
    }
  }
};

// Seconds for one host memcpy of `size` bytes (pre-touched buffers), median of 5.
double memcpy_seconds(size_t size) {
  std::vector<char> src(size, 1), dst(size, 0);
  std::vector<double> t;
  for (int r = 0; r < 5; ++r) {
    src[r] = static_cast<char>(r);
    auto start = bench::Clock::now();
    std::memcpy(dst.data(), src.data(), size);
    t.push_back(bench::seconds_since(start));
    if (dst[r] != src[r]) throw std::runtime_error("memcpy went missing");
  }
  return bench::median(t);
}

int run(const Options &o) {
  bench::ModelCache cache;  // models are not used here; keep the user's alone anyway
  cl::Platform unicl = bench::platform(bench::kUniCL);
  cl::Device pthread = bench::device(unicl, "pthread"), basic = bench::device(unicl, "basic");
  size_t total = o.buffer * o.buffers;
  std::cout << "bench-host-swap: " << o.buffers << " buffers of " << bench::bytes(o.buffer) << " (" << bench::bytes(total)
            << " in all), " << o.passes << " passes of one kernel per buffer (+1 on every word) per sample,\n"
            << "in-order queue on PoCL pthread in a context of PoCL pthread + basic; one untimed pass, then median of "
            << o.reps << " samples.\n\n";

  std::vector<std::unique_ptr<Config>> configs;
  configs.push_back(std::make_unique<Config>("no eviction", 0.5, std::vector<cl::Device>{pthread, basic}, pthread, o));
  configs.push_back(std::make_unique<Config>("total = 2x limit", 2, std::vector<cl::Device>{pthread, basic}, pthread, o));
  configs.push_back(std::make_unique<Config>("total = 4x limit", 4, std::vector<cl::Device>{pthread, basic}, pthread, o));
  for (auto &c : configs) c->run(1);
  std::vector<double> copies;
  for (int r = 0; r < o.reps; ++r) {
    for (auto &c : configs) c->samples.push_back(c->run(o.passes));
    copies.push_back(memcpy_seconds(o.buffer));
  }
  for (auto &c : configs) c->check();

  double base = bench::median(configs[0]->samples);
  double copy_gbs = double(o.buffer) / bench::median(copies) / 1e9;
  bench::Table t({"configuration", "limit", "time s", "/ no eviction", "swap traffic", "swap GB/s", "memcpy GB/s"});
  std::vector<std::vector<std::string>> rows;
  for (auto &c : configs) {
    double m = bench::median(c->samples);
    bool swaps = c->factor > 1;
    double swapped = bench::median(c->moved);
    // A library that does not count: every launch missed, writing the
    // evicted buffer back and uploading its own (as LRU does on a cycle).
    if (swaps && swapped == 0) swapped = 2.0 * double(o.buffer) * o.buffers * o.passes;
    double gbs = swaps && m > base ? swapped / (m - base) / 1e9 : 0;
    t.add({c->name, bench::bytes(static_cast<size_t>(double(total) / c->factor)), bench::fixed(m, 3),
           bench::fixed(m / base, 2), swaps ? bench::bytes(static_cast<size_t>(swapped)) : "0",
           swaps ? bench::fixed(gbs, 2) : "", bench::fixed(copy_gbs, 2)});
    rows.push_back({c->name, bench::fixed(m, 4), bench::fixed(m / base, 3), swaps ? bench::fixed(gbs, 3) : ""});
  }
  t.print();
  std::cout << "(swap traffic: bytes UniCL moved per sample, CL_CONTEXT_BYTES_MOVED_UNICL; swap GB/s: that / the time it added over \"no eviction\")\n";

  std::string dir = bench::output_dir(o.out);
  bench::write_csv(dir + "/host_swap.csv", {"configuration", "time s", "ratio to no eviction", "swap GB/s"}, rows);
  if (bench::plot(dir + "/host_swap.csv", dir + "/host_swap.png",
                  "Host swap: " + std::to_string(o.passes) + " passes over " + bench::bytes(total) + " (" +
                      std::to_string(o.buffers) + " buffers), time s",
                  {"--series", "time s", "--ylabel", "seconds"}))
    std::cout << "wrote " << dir << "/host_swap.csv and " << dir << "/host_swap.png\n";
  std::cout << '\n';

  double four = bench::median(configs[2]->samples), four_swapped = bench::median(configs[2]->moved);
  if (four_swapped == 0) four_swapped = 2.0 * double(o.buffer) * o.buffers * o.passes;
  bench::summary("host-swap", "4x limit / no eviction (" + bench::bytes(total) + ")", bench::fixed(four / base, 2) + "x",
                 "-", "info");
  bench::summary("host-swap", "swap throughput at 4x", bench::fixed(four_swapped / (four - base) / 1e9, 2) + " GB/s",
                 "- (memcpy " + bench::fixed(copy_gbs, 1) + " GB/s)", "info");
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-host-swap", [&] {
    return run(parse(argc, argv));
  });
}
