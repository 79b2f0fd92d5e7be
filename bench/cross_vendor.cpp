// bench-cross-vendor: one UniCL context holding a PoCL device and the
// oclgrind device. A buffer written on one is then read by a kernel on the
// other, so UniCL must move it across vendors through its host copy.
//
// Only the transfer is timed: the consumer runs a kernel of one work-item
// that reads one element, twice in a row. The first run includes the
// transfer, the second finds the data already valid; their difference is the
// transfer time. The physical bound is a plain host memcpy of the same size,
// measured in the same run. Going through the host copy takes two copies
// (device -> host copy -> device), so 0.5x memcpy bandwidth is the best a
// transfer can reach here.
#include <args.hpp>
#include <cl_env.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <cstring>
#include <iostream>

namespace {

const char *kSource = R"(
__kernel void touch(__global const uint *p, __global uint *out) {
  out[0] = p[0];
}
)";

constexpr size_t MiB = 1024 * 1024;

struct Options {
  std::string pocl_device = "pthread";
  size_t min_size = 1 * MiB;
  size_t max_size = 64 * MiB;  // oclgrind's whole global memory is 128 MiB
  int reps = 11;
};

Options parse(int argc, char **argv) {
  Options o;
  bench::Args("bench-cross-vendor", "[--device pthread|basic] [--min-mib N] [--max-mib N] [--reps R]")
      .value("--device", o.pocl_device)
      .value("--min-mib", o.min_size, MiB)
      .value("--max-mib", o.max_size, MiB)
      .value("--reps", o.reps)
      .parse(argc, argv);
  return o;
}

// Seconds from launch to clFinish of the one-work-item kernel on `q`.
double touch(cl::CommandQueue &q, cl::Kernel &k) {
  auto start = bench::Clock::now();
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  q.finish();
  return bench::seconds_since(start);
}

// Two pre-touched host buffers; one timed memcpy between them per call. It
// is timed inside the transfer loop so that both see the same load.
struct HostCopy {
  std::vector<char> src, dst;
  explicit HostCopy(size_t size) : src(size, 1), dst(size, 0) { std::memcpy(dst.data(), src.data(), size); }
  double seconds(int round) {
    src[round % src.size()] = static_cast<char>(round);
    auto start = bench::Clock::now();
    std::memcpy(dst.data(), src.data(), src.size());
    double t = bench::seconds_since(start);
    if (dst[round % dst.size()] != src[round % src.size()]) throw std::runtime_error("memcpy went missing");
    return t;
  }
};

struct Side {
  std::string name;
  cl::CommandQueue queue;
  cl::Kernel kernel;  // touch(data, this side's own out buffer)
  cl::Buffer out;
};

struct Result {
  double transfer, kernel_only, memcpy;
};

// Producer writes the whole buffer, consumer touches it twice; median over reps.
Result measure(Side &producer, Side &consumer, cl::Buffer &data, size_t size, int reps, HostCopy &baseline) {
  std::vector<cl_uint> host(size / sizeof(cl_uint), 0);
  std::vector<double> transfer, kernel_only, copy;
  for (int r = 0; r < reps + 1; ++r) {  // round 0 is a warm-up
    cl_uint marker = 0x1000u + static_cast<cl_uint>(r);
    host[0] = marker;
    producer.queue.enqueueWriteBuffer(data, CL_TRUE, 0, size, host.data());
    producer.queue.finish();
    double first = touch(consumer.queue, consumer.kernel);
    double second = touch(consumer.queue, consumer.kernel);
    double plain = baseline.seconds(r);
    cl_uint seen = 0;
    consumer.queue.enqueueReadBuffer(consumer.out, CL_TRUE, 0, sizeof seen, &seen);
    if (seen != marker)
      throw std::runtime_error(producer.name + " -> " + consumer.name + ": consumer saw stale data");
    if (r == 0) continue;
    transfer.push_back(first - second);
    kernel_only.push_back(second);
    copy.push_back(plain);
  }
  return {bench::median(transfer), bench::median(kernel_only), bench::median(copy)};
}

int run(const Options &o) {
  cl::Platform unicl = bench::platform(bench::kUniCL);
  cl::Device pd = bench::device(unicl, o.pocl_device);
  cl::Device gd = bench::device(unicl, "Oclgrind");
  cl::Context ctx(std::vector<cl::Device>{pd, gd});
  cl::Program program = bench::build(ctx, kSource);
  Side pocl{"PoCL " + o.pocl_device, cl::CommandQueue(ctx, pd), cl::Kernel(program, "touch"),
            cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint))};
  Side grind{"oclgrind", cl::CommandQueue(ctx, gd), cl::Kernel(program, "touch"),
             cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint))};

  std::cout << "bench-cross-vendor: one UniCL context {PoCL " << o.pocl_device
            << ", oclgrind}; a buffer written on one device, first read by a kernel on the other.\n"
            << "transfer = (first kernel incl. transfer) - (second kernel, data already valid); median of " << o.reps
            << "\n\n";
  bench::Table t({"size", "direction", "transfer ms", "GB/s", "memcpy GB/s", "transfer/memcpy", "bound",
                  "kernel-only ms"});
  double worst = 1e9;
  std::string worst_at;
  for (size_t size = o.min_size; size <= o.max_size; size *= 4) {
    cl::Buffer data(ctx, CL_MEM_READ_WRITE, size);
    pocl.kernel.setArg(0, data);
    pocl.kernel.setArg(1, pocl.out);
    grind.kernel.setArg(0, data);
    grind.kernel.setArg(1, grind.out);
    HostCopy baseline(size);
    for (auto [from, to] : {std::pair{&pocl, &grind}, std::pair{&grind, &pocl}}) {
      Result r = measure(*from, *to, data, size, o.reps, baseline);
      double gbs = size / r.transfer / 1e9, mgbs = size / r.memcpy / 1e9;
      double ratio = gbs / mgbs;
      if (ratio < worst) {
        worst = ratio;
        worst_at = bench::bytes(size) + " " + from->name + " -> " + to->name;
      }
      t.add({bench::bytes(size), from->name + " -> " + to->name, bench::fixed(r.transfer * 1e3, 3),
             bench::fixed(gbs, 2), bench::fixed(mgbs, 2), bench::fixed(ratio, 2), "<= 0.5",
             bench::fixed(r.kernel_only * 1e3, 3)});
    }
  }
  t.print();
  std::cout << '\n';
  bench::summary("cross-vendor", "lowest transfer/memcpy (" + worst_at + ")", bench::fixed(worst, 2) + "x",
                 "bound 0.5x (two copies)", "info");
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-cross-vendor", [&] {
    return run(parse(argc, argv));
  });
}
