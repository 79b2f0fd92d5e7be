// bench-roundtrip: write a buffer, run a kernel over it (add 1 to every
// element), read it back, for sizes 4 KiB .. 256 MiB in powers of 4. UniCL
// against the same PoCL device used directly, in one process, samples of
// the configurations interleaved; the reported time is the median sample.
//
// Columns: PoCL direct (the baseline), a second PoCL direct context with its
// own buffer (its ratio to the first is the noise floor of the run: buffer
// placement and load alone), UniCL on a context holding only that
// device (target <= 1.1x from 1 MiB up, where the data movement dominates),
// and UniCL on a context holding both PoCL devices, where each command also
// goes through coherence tracking (the buffer stays valid on the queue's
// device, so no extra transfer should occur).
#include <args.hpp>
#include <cl_env.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <cstring>
#include <iostream>

namespace {

const char *kSource = R"(
__kernel void add1(__global uint *p) {
  size_t i = get_global_id(0);
  p[i] += 1;
}
)";

constexpr double kTarget = 1.1;
constexpr size_t kTargetFrom = size_t(1) << 20;
constexpr size_t KiB = 1024, MiB = 1024 * KiB;

struct Options {
  std::string device = "pthread";
  size_t min_size = 4 * KiB;
  size_t max_size = 256 * MiB;
  // Samples per size: as many as move this many bytes, within [5, 200].
  size_t bytes_per_size = 2048 * MiB;
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-roundtrip", "[--device pthread|basic] [--min-kib N] [--max-mib N] [--bytes-mib N]")
      .value("--device", o.device)
      .value("--max-mib", o.max_size, MiB)
      .value("--min-kib", o.min_size, KiB)
      .value("--bytes-mib", o.bytes_per_size, MiB)
      .parse(argc, argv);
  return o;
}

// A context and queue on one device with the kernel built.
struct Config {
  cl::Context ctx;
  cl::CommandQueue queue;
  cl::Kernel kernel;

  Config(const std::vector<cl::Device> &devices, const cl::Device &on) : ctx(devices), queue(ctx, on) {
    kernel = cl::Kernel(bench::build(ctx, kSource), "add1");
  }
};

// One buffer of a given size on a Config, and its round trip.
struct Trip {
  Config &c;
  cl::Buffer buffer;
  size_t size;

  Trip(Config &config, size_t bytes) : c(config), buffer(config.ctx, CL_MEM_READ_WRITE, bytes), size(bytes) {
    c.kernel.setArg(0, buffer);
  }

  // Seconds for write + kernel + blocking read, through the C entry points
  // so the bindings add nothing.
  double run(const void *in, void *out) {
    size_t n = size / sizeof(cl_uint);
    cl_command_queue q = c.queue();
    auto start = bench::Clock::now();
    check(clEnqueueWriteBuffer(q, buffer(), CL_FALSE, 0, size, in, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
    check(clEnqueueNDRangeKernel(q, c.kernel(), 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clEnqueueReadBuffer(q, buffer(), CL_TRUE, 0, size, out, 0, nullptr, nullptr), "clEnqueueReadBuffer");
    return bench::seconds_since(start);
  }

  static void check(cl_int err, const char *what) {
    if (err != CL_SUCCESS) throw cl::Error(err, what);
  }
};

bool correct(const std::vector<cl_uint> &in, const std::vector<cl_uint> &out, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (out[i] != in[i] + 1) return false;
  return true;
}

int run(const Options &o) {
  cl::Platform pocl = bench::platform(bench::kPoCL);
  cl::Platform unicl = bench::platform(bench::kUniCL);
  cl::Device pd = bench::device(pocl, o.device);
  cl::Device ud = bench::device(unicl, o.device);
  std::vector<cl::Device> both = {bench::device(unicl, "pthread"), bench::device(unicl, "basic")};
  Config direct({pd}, pd), again({pd}, pd), single({ud}, ud), multi(both, ud);
  std::vector<Config *> configs = {&direct, &again, &single, &multi};

  std::cout << "bench-roundtrip: write + kernel (add 1) + blocking read on PoCL " << o.device
            << ", median round trip in milliseconds\n\n";
  bench::Table t({"size", "samples", "PoCL ms", "PoCL GB/s", "PoCL#2/PoCL", "UniCL ms", "UniCL/PoCL", "target",
                  "UniCL 2-dev ms", "2-dev/PoCL"});
  double worst = 0;
  std::string worst_at;
  for (size_t size = o.min_size; size <= o.max_size; size *= 4) {
    size_t n = size / sizeof(cl_uint);
    std::vector<cl_uint> in(n), out(n);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_uint>(i * 2654435761u);
    std::vector<Trip> trips;
    for (auto *c : configs) trips.emplace_back(*c, size);
    for (auto &trip : trips) trip.run(in.data(), out.data());  // warm-up: replicas, pages, kernel binaries
    size_t samples = std::clamp<size_t>(o.bytes_per_size / size, 5, 200);
    std::vector<std::vector<double>> times(trips.size());
    for (size_t s = 0; s < samples; ++s)
      for (size_t i = 0; i < trips.size(); ++i) times[i].push_back(trips[i].run(in.data(), out.data()));
    for (size_t i = 0; i < trips.size(); ++i) {
      std::fill(out.begin(), out.end(), 0);
      trips[i].run(in.data(), out.data());
      if (!correct(in, out, n))
        throw std::runtime_error("wrong result at " + bench::bytes(size) + " in configuration " + std::to_string(i));
    }
    double d = bench::median(times[0]), d2 = bench::median(times[1]);
    double u = bench::median(times[2]), m = bench::median(times[3]);
    double ratio = u / d;
    bool targeted = size >= kTargetFrom;
    if (targeted && ratio > worst) {
      worst = ratio;
      worst_at = bench::bytes(size);
    }
    // Bytes moved: written and read once each.
    t.add({bench::bytes(size), std::to_string(samples), bench::fixed(d * 1e3, 3), bench::fixed(2.0 * size / d / 1e9, 2),
           bench::fixed(d2 / d, 2), bench::fixed(u * 1e3, 3), bench::fixed(ratio, 2), targeted ? "<= " + bench::fixed(kTarget, 1) : "-",
           bench::fixed(m * 1e3, 3), bench::fixed(m / d, 2)});
  }
  t.print();
  std::cout << '\n';
  if (!worst_at.empty())
    bench::summary("roundtrip", "worst UniCL/PoCL >= 1 MiB (" + worst_at + ")", bench::fixed(worst, 2) + "x",
                   "<= " + bench::fixed(kTarget, 1) + "x", worst <= kTarget ? "met" : "MISSED");
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-roundtrip", [&] {
    return run(parse(argc, argv));
  });
}
