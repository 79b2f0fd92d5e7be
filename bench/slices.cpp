// bench-slices: N devices each updating their own slice of ONE buffer. A
// UniCL context over the devices named by --devices (default PoCL pthread +
// PoCL basic) holds one buffer split in N equal slices, each a whole number
// of the devices' sub-buffer alignment (CL_DEVICE_MEM_BASE_ADDR_ALIGN).
// Every round, each device runs a kernel over its slice (--work steps of a
// linear congruential generator per element) on its own in-order queue, and
// all queues are flushed; after R rounds the whole buffer is read back once
// on device 0 and checked against the host's result.
//
// How the slices reach their devices (--mode):
//   subbuffers  the buffer starts with the host's data (CL_MEM_COPY_HOST_PTR);
//               each device's kernel gets a sub-buffer of its slice
//   offsets     the buffer starts empty; each device first writes its slice
//               with clEnqueueWriteBuffer at the slice's offset, then runs
//               its kernels on a sub-buffer as above
//   split       the buffer starts with the host's data; each device's kernel
//               gets the whole buffer and runs at its slice's global offset,
//               the kernel declaring (clSetKernelSplitUNICL) that index i
//               touches element i only
// Disjoint slices need not wait for each other nor move between devices:
// only the final read gathers the other devices' slices on device 0.
//
// Measured in the same context, each run on a new buffer:
//   N devices    the run above
//   one device   the same total work on device 0 alone: R rounds of one
//                kernel over the whole buffer, then the same read
//   ideal        each device's slice alone on that device (its R rounds,
//                then a read of its slice); the slowest device's time
// The N-device run also reports how much its devices' kernels overlapped
// (profiling times): on a machine too loaded for the makespan to show it,
// this still tells whether slices ran side by side or waited for each other.
// The makespan runs from the first command to the end of the read. Bytes
// moved: the growth of CL_CONTEXT_BYTES_MOVED_UNICL over a run ("n/a" when
// the library does not answer that query). One untimed run of each first,
// then --reps runs each, interleaved; medians. Report only: no target.
// --no-baselines runs only the N-device run (one untimed, then --reps), e.g.
// to count its transfers in a UNICL_TRACE file.
//
// PoCL basic runs a kernel inside the call that enqueues it, so with basic
// among the devices the host's loop, and with it the devices' rounds,
// advance in step with basic's kernels; devices are enqueued in --devices
// order each round, so put basic last. PoCL pthread and basic share the
// host's cores: on a small machine the "ideal" (each slice alone, with all
// cores to itself) is a bound the devices cannot reach together.
#include <args.hpp>
#include <sched.hpp>
#include <stats.hpp>
#include <table.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>

namespace {

const char *kSource = R"(
__kernel void churn(__global uint *a, uint steps) {
  size_t i = get_global_id(0);
  uint v = a[i];
  for (uint s = 0; s < steps; ++s) v = v * 1103515245u + 12345u;
  a[i] = v;
}
)";
constexpr cl_uint kMul = 1103515245u, kAdd = 12345u;

struct Options {
  std::string devices = "pthread,basic";
  std::string mode = "subbuffers";
  size_t slice = 1024 * 1024;  // bytes per device, before rounding up to the alignment
  cl_uint work = 100;          // generator steps per element and round
  int rounds = 10;
  int reps = 3;
  bool baselines = true;
  std::string out = ".";
};

Options parse(int argc, char **argv) {
  Options o;
  bool no_baselines = false;
  bench::Args("bench-slices",
              "[--devices NAME,NAME...] [--mode subbuffers|offsets|split] [--slice-kib K] [--work STEPS] [--rounds R] "
              "[--reps N] [--no-baselines] [--out DIR]")
      .value("--devices", o.devices)
      .value("--mode", o.mode)
      .value("--slice-kib", o.slice, size_t(1024))
      .value("--work", o.work)
      .value("--rounds", o.rounds)
      .value("--reps", o.reps)
      .flag("--no-baselines", no_baselines)
      .value("--out", o.out)
      .parse(argc, argv);
  if (o.mode != "subbuffers" && o.mode != "offsets" && o.mode != "split")
    throw std::runtime_error("--mode: subbuffers, offsets or split");
  if (o.rounds < 1 || o.reps < 1 || o.slice == 0) throw std::runtime_error("--rounds, --reps and --slice-kib: >= 1");
  o.baselines = !no_baselines;
  return o;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// UniCL's devices whose names contain the comma-separated parts of `list`
// (any case), in the order of the list.
std::vector<cl::Device> pick_devices(const std::string &list) {
  std::vector<cl::Device> all, chosen;
  bench::platform(bench::kUniCL).getDevices(CL_DEVICE_TYPE_ALL, &all);
  std::stringstream parts(list);
  for (std::string part; std::getline(parts, part, ',');) {
    auto it = std::find_if(all.begin(), all.end(), [&](const cl::Device &d) {
      return lower(d.getInfo<CL_DEVICE_NAME>()).find(lower(part)) != std::string::npos &&
             std::find(chosen.begin(), chosen.end(), d) == chosen.end();
    });
    if (it == all.end()) throw std::runtime_error("no UniCL device (left) whose name contains '" + part + "'");
    chosen.push_back(*it);
  }
  if (chosen.empty()) throw std::runtime_error("--devices names no device");
  return chosen;
}

std::string load_average() {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) return "n/a";
  return bench::fixed(load[0], 2) + " " + bench::fixed(load[1], 2) + " " + bench::fixed(load[2], 2);
}

// What one run of a configuration took and moved.
struct Sample {
  double seconds = 0;
  std::optional<cl_ulong> moved;  // none: the library does not answer CL_CONTEXT_BYTES_MOVED_UNICL
  double overlap = 0;             // N-device run: share of the kernels' busy time with two or more running
};

// Of the time during which at least one of `runs` ([start, end] in ns) was
// going on, the share during which two or more were.
double overlap_share(const std::vector<std::pair<cl_ulong, cl_ulong>> &runs) {
  std::vector<std::pair<cl_ulong, int>> edges;
  for (auto &[start, end] : runs) {
    edges.emplace_back(start, +1);
    edges.emplace_back(end, -1);
  }
  std::sort(edges.begin(), edges.end());  // at equal times ends (-1) come first
  double busy = 0, shared = 0;
  int running = 0;
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    running += edges[i].second;
    double span = double(edges[i + 1].first - edges[i].first);
    if (running >= 1) busy += span;
    if (running >= 2) shared += span;
  }
  return busy > 0 ? shared / busy : 0;
}

std::optional<cl_ulong> bytes_moved(const cl::Context &ctx) {
  cl_ulong moved = 0;
  if (clGetContextInfo(ctx(), CL_CONTEXT_BYTES_MOVED_UNICL, sizeof moved, &moved, nullptr) != CL_SUCCESS)
    return std::nullopt;
  return moved;
}

class Bench {
 public:
  Bench(const Options &o, std::vector<cl::Device> devices)
      : o_(o), devices_(std::move(devices)), ctx_(bench::unicl_context(devices_, "")),
        program_(bench::build(ctx_, kSource)) {
    // Profiling: the N-device run reports how much its devices' kernels overlapped.
    for (auto &d : devices_) queues_.emplace_back(ctx_, d, CL_QUEUE_PROFILING_ENABLE);
    size_t align = sizeof(cl_uint);
    for (auto &d : devices_) align = std::max<size_t>(align, d.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8);
    slice_bytes_ = (o.slice + align - 1) / align * align;
    align_ = align;
    initial_.resize(devices_.size() * slice_items());
    for (size_t i = 0; i < initial_.size(); ++i) initial_[i] = static_cast<cl_uint>(i * 2654435761u);
    // Every element goes through the same affine map v -> mul * v + add,
    // R x work steps of the generator composed once.
    cl_uint mul = 1, add = 0;
    for (cl_ulong s = 0; s < cl_ulong(o.rounds) * o.work; ++s) {
      mul *= kMul;
      add = add * kMul + kAdd;
    }
    expected_.resize(initial_.size());
    for (size_t i = 0; i < initial_.size(); ++i) expected_[i] = mul * initial_[i] + add;
  }

  size_t count() const { return devices_.size(); }
  size_t slice_items() const { return slice_bytes_ / sizeof(cl_uint); }
  size_t slice_bytes() const { return slice_bytes_; }
  size_t buffer_bytes() const { return slice_bytes_ * count(); }
  size_t align() const { return align_; }
  std::string name(size_t d) const { return devices_[d].getInfo<CL_DEVICE_NAME>(); }
  // The name up to its first '-' or ' ': "pthread", "basic", "Oclgrind".
  std::string short_name(size_t d) const {
    std::string n = name(d);
    return n.substr(0, n.find_first_of("- "));
  }

  // Every device on its slice, at once.
  Sample all_devices() {
    cl::Buffer whole = new_buffer(buffer_bytes());
    std::vector<cl::Buffer> parts;
    std::vector<cl::Kernel> kernels;
    for (size_t d = 0; d < count(); ++d) {
      parts.push_back(slice_of(whole, d));
      kernels.push_back(churn(parts.back()));
    }
    std::vector<cl_uint> out(initial_.size());
    std::optional<cl_ulong> before = bytes_moved(ctx_);
    auto start = bench::Clock::now();
    if (o_.mode == "offsets")
      for (size_t d = 0; d < count(); ++d)
        queues_[d].enqueueWriteBuffer(whole, CL_FALSE, d * slice_bytes_, slice_bytes_, &initial_[d * slice_items()]);
    std::vector<cl::Event> last(count()), ran;
    for (int r = 0; r < o_.rounds; ++r) {
      for (size_t d = 0; d < count(); ++d) {
        queues_[d].enqueueNDRangeKernel(kernels[d], offset_of(d), cl::NDRange(slice_items()), cl::NullRange, nullptr,
                                        &last[d]);
        ran.push_back(last[d]);
      }
      for (auto &q : queues_) q.flush();
    }
    // The other devices' last kernels are on other queues: wait for them by event.
    queues_[0].enqueueReadBuffer(whole, CL_TRUE, 0, buffer_bytes(), out.data(), &last);
    Sample s{bench::seconds_since(start), moved_since(before)};
    check(out, 0, "N devices");
    // Devices of one vendor share its clock (PoCL's pthread and basic do);
    // across vendors the overlap is only as good as their clocks agree.
    std::vector<std::pair<cl_ulong, cl_ulong>> runs;
    for (auto &e : ran)
      runs.emplace_back(e.getProfilingInfo<CL_PROFILING_COMMAND_START>(), e.getProfilingInfo<CL_PROFILING_COMMAND_END>());
    s.overlap = overlap_share(runs);
    return s;
  }

  // The same total work on device 0 alone.
  Sample one_device() {
    cl::Buffer whole = new_buffer(buffer_bytes());
    cl::Kernel kernel = churn(whole);
    std::vector<cl_uint> out(initial_.size());
    std::optional<cl_ulong> before = bytes_moved(ctx_);
    auto start = bench::Clock::now();
    if (o_.mode == "offsets") queues_[0].enqueueWriteBuffer(whole, CL_FALSE, 0, buffer_bytes(), initial_.data());
    for (int r = 0; r < o_.rounds; ++r) {
      queues_[0].enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(initial_.size()), cl::NullRange);
      queues_[0].flush();
    }
    queues_[0].enqueueReadBuffer(whole, CL_TRUE, 0, buffer_bytes(), out.data());
    Sample s{bench::seconds_since(start), moved_since(before)};
    check(out, 0, "one device");
    return s;
  }

  // Device d's slice alone on device d.
  Sample alone(size_t d) {
    cl::Buffer whole = new_buffer(buffer_bytes());
    cl::Buffer part = slice_of(whole, d);
    cl::Kernel kernel = churn(part);
    std::vector<cl_uint> out(slice_items());
    std::optional<cl_ulong> before = bytes_moved(ctx_);
    auto start = bench::Clock::now();
    if (o_.mode == "offsets")
      queues_[d].enqueueWriteBuffer(whole, CL_FALSE, d * slice_bytes_, slice_bytes_, &initial_[d * slice_items()]);
    for (int r = 0; r < o_.rounds; ++r) {
      queues_[d].enqueueNDRangeKernel(kernel, offset_of(d), cl::NDRange(slice_items()), cl::NullRange);
      queues_[d].flush();
    }
    queues_[d].enqueueReadBuffer(whole, CL_TRUE, d * slice_bytes_, slice_bytes_, out.data());
    Sample s{bench::seconds_since(start), moved_since(before)};
    check(out, d * slice_items(), short_name(d) + " alone");
    return s;
  }

 private:
  cl::Buffer new_buffer(size_t bytes) {
    if (o_.mode == "offsets") return cl::Buffer(ctx_, CL_MEM_READ_WRITE, bytes);
    return cl::Buffer(ctx_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, initial_.data());
  }
  // What device d's kernel gets: its slice as a sub-buffer, or (split)
  // the whole buffer, at its slice's global offset.
  cl::Buffer slice_of(cl::Buffer &whole, size_t d) {
    if (o_.mode == "split") return whole;
    cl_buffer_region region{d * slice_bytes_, slice_bytes_};
    return whole.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  }
  cl::NDRange offset_of(size_t d) const { return o_.mode == "split" ? cl::NDRange(d * slice_items()) : cl::NullRange; }
  cl::Kernel churn(const cl::Buffer &target) {
    cl::Kernel k(program_, "churn");
    k.setArg(0, target);
    k.setArg(1, o_.work);
    if (o_.mode == "split") {
      auto set_split = reinterpret_cast<clSetKernelSplitUNICL_fn>(
          clGetExtensionFunctionAddressForPlatform(ctx_.getInfo<CL_CONTEXT_DEVICES>()[0].getInfo<CL_DEVICE_PLATFORM>(),
                                                   "clSetKernelSplitUNICL"));
      if (!set_split) throw std::runtime_error("--mode split needs UniCL's clSetKernelSplitUNICL");
      const cl_kernel_split_arg_unicl element{0, 0, sizeof(cl_uint), sizeof(cl_uint)};
      if (set_split(k(), 0, 1, &element) != CL_SUCCESS) throw std::runtime_error("clSetKernelSplitUNICL failed");
    }
    return k;
  }
  std::optional<cl_ulong> moved_since(std::optional<cl_ulong> before) {
    std::optional<cl_ulong> now = bytes_moved(ctx_);
    if (!before || !now) return std::nullopt;
    return *now - *before;
  }
  // `got` holds the elements from `first` on.
  void check(const std::vector<cl_uint> &got, size_t first, const std::string &what) const {
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != expected_[first + i])
        throw std::runtime_error(what + ": element " + std::to_string(first + i) + " is " + std::to_string(got[i]) +
                                 ", expected " + std::to_string(expected_[first + i]));
  }

  const Options &o_;
  std::vector<cl::Device> devices_;
  cl::Context ctx_;
  cl::Program program_;
  std::vector<cl::CommandQueue> queues_;
  size_t slice_bytes_ = 0, align_ = 0;
  std::vector<cl_uint> initial_, expected_;
};

// Median seconds, bytes moved and overlap of some samples.
struct Result {
  double seconds;
  std::optional<double> moved;
  double overlap;
};

Result summarize(const std::vector<Sample> &samples) {
  std::vector<double> t, m, o;
  for (auto &s : samples) {
    t.push_back(s.seconds);
    o.push_back(s.overlap);
    if (s.moved) m.push_back(double(*s.moved));
  }
  Result r{bench::median(t), std::nullopt, bench::median(o)};
  if (m.size() == samples.size()) r.moved = bench::median(m);
  return r;
}

std::string bytes_text(std::optional<double> moved) {
  if (!moved) return "n/a";
  std::ostringstream s;
  s << static_cast<cl_ulong>(*moved);
  return s.str();
}

int run(const Options &o) {
  Bench b(o, pick_devices(o.devices));
  const size_t n = b.count();
  std::string names;
  for (size_t d = 0; d < n; ++d) names += (d ? " + " : "") + b.name(d);
  std::cout << "bench-slices: " << names << ", one buffer of " << bench::bytes(b.buffer_bytes()) << " in " << n
            << " slices of " << bench::bytes(b.slice_bytes()) << " (origins aligned to " << b.align() << " bytes), mode " << o.mode
            << ";\n"
            << o.rounds << " rounds of " << o.work << " generator steps per element, one in-order queue per device; "
            << "one untimed run, then median of " << o.reps << ".\n"
            << "load average at start: " << load_average() << "\n\n";

  std::vector<Sample> all, one;
  std::vector<std::vector<Sample>> alone(n);
  auto round = [&](bool keep) {
    Sample s = b.all_devices();
    if (keep) all.push_back(s);
    if (!o.baselines) return;
    s = b.one_device();
    if (keep) one.push_back(s);
    for (size_t d = 0; d < n; ++d) {
      s = b.alone(d);
      if (keep) alone[d].push_back(s);
    }
  };
  round(false);
  for (int r = 0; r < o.reps; ++r) round(true);

  Result multi = summarize(all);
  const double buffer = double(b.buffer_bytes());
  auto moved_ratio = [&](const Result &r) { return r.moved ? bench::fixed(*r.moved / buffer, 2) : "n/a"; };
  const std::string overlap = bench::fixed(multi.overlap * 100, 0) + "%";
  auto print_overlap = [&] {
    std::cout << n << " devices: their kernels overlapped during " << overlap
              << " of the time any of them ran (0% when they wait for each other)\n";
  };
  bench::Table t({"configuration", "makespan ms", "/ one device", "/ ideal", "bytes moved", "/ buffer"});
  std::vector<std::vector<std::string>> rows;
  if (!o.baselines) {
    t.add({std::to_string(n) + " devices", bench::fixed(multi.seconds * 1e3, 1), "", "", bytes_text(multi.moved),
           moved_ratio(multi)});
    t.print();
    print_overlap();
    std::cout << "load average at end: " << load_average() << "\n\n";
    return 0;
  }
  Result single = summarize(one);
  std::vector<Result> each;
  double ideal = 0;
  for (auto &a : alone) {
    each.push_back(summarize(a));
    ideal = std::max(ideal, each.back().seconds);
  }
  auto add = [&](const std::string &what, const Result &r, bool ratios) {
    t.add({what, bench::fixed(r.seconds * 1e3, 1), ratios ? bench::fixed(r.seconds / single.seconds, 2) : "",
           ratios ? bench::fixed(r.seconds / ideal, 2) : "", bytes_text(r.moved), moved_ratio(r)});
    rows.push_back({what, bench::fixed(r.seconds * 1e3, 3)});
  };
  add(std::to_string(n) + " devices", multi, true);
  add(b.short_name(0) + " alone", single, true);
  for (size_t d = 0; d < n; ++d) add(b.short_name(d) + ": slice " + std::to_string(d + 1) + " only", each[d], false);
  t.print();
  print_overlap();
  std::cout << "(" << n << " devices: one slice each; " << b.short_name(0)
            << " alone: all the work, whole buffer; slice d only: that device alone on its slice.\n"
            << " ideal: the slowest device alone on its slice, " << bench::fixed(ideal * 1e3, 1) << " ms)\n"
            << "load average at end: " << load_average() << "\n";

  std::string dir = bench::output_dir(o.out);
  // One file per mode, so that run.sh's runs of several modes all stay.
  std::string stem = o.mode == "subbuffers" ? "slices" : "slices-" + o.mode;
  bench::write_csv(dir + "/" + stem + ".csv", {"configuration", "makespan ms"}, rows);
  if (bench::plot(dir + "/" + stem + ".csv", dir + "/" + stem + ".png",
                  "Slices of one buffer: " + std::to_string(n) + " devices, " + std::to_string(o.rounds) +
                      " rounds (" + o.mode + "), makespan ms",
                  {"--ylabel", "ms", "--hline", bench::fixed(ideal * 1e3, 3) + ":ideal"}))
    std::cout << "wrote " << dir << "/" << stem << ".csv and " << dir << "/" << stem << ".png\n";
  std::cout << '\n';

  std::string what = std::to_string(n) + " slices, " + std::to_string(o.rounds) + " rounds, " + o.mode;
  bench::summary("slices", "makespan / one device (" + what + ")", bench::fixed(multi.seconds / single.seconds, 2) + "x",
                 "-", "info");
  bench::summary("slices", "makespan / ideal", bench::fixed(multi.seconds / ideal, 2) + "x", "-", "info");
  bench::summary("slices", "kernels overlapping", overlap, "-", "info");
  bench::summary("slices", "bytes moved / buffer (" + bench::bytes(b.buffer_bytes()) + ")",
                 multi.moved ? moved_ratio(multi) + "x" : "n/a", "-", "info");
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  return bench::guarded_main("bench-slices", [&] {
    return run(parse(argc, argv));
  });
}
