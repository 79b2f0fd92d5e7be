#include "perf_model.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace unicl {
namespace {

class UniqueFd {
 public:
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  UniqueFd(const UniqueFd &) = delete;
  UniqueFd &operator=(const UniqueFd &) = delete;
  int get() const { return fd_; }
  // Closes now: on some file systems a failed write only shows here.
  bool close() {
    int fd = std::exchange(fd_, -1);
    return fd >= 0 && ::close(fd) == 0;
  }

 private:
  int fd_;
};

// An advisory lock on a file beside the models, held by a process while it
// reads, merges and replaces them. Without it (a folder where the lock file
// cannot be made) saving still works, only concurrent saves may lose samples.
class FileLock {
 public:
  explicit FileLock(const std::string &file) : fd_(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    if (fd_.get() < 0) return;
    while (::flock(fd_.get(), LOCK_EX) != 0 && errno == EINTR) {
    }
  }  // the lock goes with the descriptor

 private:
  UniqueFd fd_;
};

// Writes `text` to a new file in `file`'s folder and renames it over
// `file`: a reader sees the old models or the new ones, never part of them.
bool replace_file(const std::string &file, const std::string &text) {
  std::string temporary = file + ".XXXXXX";
  UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (fd.get() < 0) return false;
  bool ok = true;
  for (size_t done = 0; ok && done < text.size();) {
    ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  // On disk before the rename, so that a crash cannot leave an empty file
  // in place of the models.
  ok = ok && ::fsync(fd.get()) == 0;
  ok = fd.close() && ok;
  if (ok && ::rename(temporary.c_str(), file.c_str()) == 0) return true;
  ::unlink(temporary.c_str());
  return false;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

// The whole field as a number, or false.
template <class Number>
bool read_number(std::string_view field, Number &out) {
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), out);
  return ec == std::errc() && end == field.data() + field.size();
}

// The shortest text that reads back as the same number.
template <class Number>
std::string text_of(Number value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("0");
}

// A name holding the file's separators cannot be written as one line.
bool fits_a_field(const std::string &name) { return name.find_first_of("\t\n") == std::string::npos; }

}  // namespace

// Sample k (counting from 1) weighs 1/k up to the tenth, 0.1 after.
void PerfModels::Stat::add(size_t n, double value) {
  double kept = 1;  // the old mean's share of the result
  size_t k = count + 1, last = count + n;
  for (; k <= last && k < 10; ++k) kept *= 1.0 - 1.0 / static_cast<double>(k);
  if (k <= last) kept *= std::pow(0.9, static_cast<double>(last - k + 1));
  mean = value + kept * (mean - value);
  count = last;
}

bool PerfModels::Stat::read(std::string_view count_field, std::string_view mean_field) {
  return read_number(count_field, count) && read_number(mean_field, mean) && count > 0 && std::isfinite(mean) &&
         mean >= 0;
}

std::string PerfModels::file_in(const std::string &cache_dir) {
  return cache_dir.empty() ? std::string() : (std::filesystem::path(cache_dir) / "models.tsv").string();
}

// File lines: "kernel<TAB>name<TAB>device<TAB>items<TAB>count<TAB>mean"
//             "link<TAB>device<TAB>latency<TAB>bandwidth<TAB>latency samples<TAB>bandwidth samples"
//             "factor<TAB>shape<TAB>factor<TAB>count<TAB>mean"
// (files of earlier versions have one count of samples for both measures).
// A damaged line is skipped: models are only hints.
PerfModels::Tables PerfModels::parse(std::istream &in) {
  Tables tables;
  for (std::string line; std::getline(in, line);) {
    auto f = split_tabs(line);
    if (f[0] == "kernel" && f.size() == 6) {
      size_t items = 0;
      Stat s;
      if (read_number(f[3], items) && s.read(f[4], f[5])) tables.kernels[std::string(f[1])][std::string(f[2])][items] = s;
    } else if (f[0] == "factor" && f.size() == 5) {
      unsigned factor = 0;
      Stat s;
      if (read_number(f[2], factor) && s.read(f[3], f[4])) tables.factors[std::string(f[1])][factor] = s;
    } else if (f[0] == "link" && (f.size() == 5 || f.size() == 6)) {
      Link l;
      if (read_number(f[2], l.latency.mean) && read_number(f[3], l.bandwidth.mean) &&
          read_number(f[4], l.latency.count) && read_number(f.back(), l.bandwidth.count) &&
          std::isfinite(l.latency.mean) && l.latency.mean >= 0 && std::isfinite(l.bandwidth.mean) &&
          l.bandwidth.mean > 0)
        tables.links[std::string(f[1])] = l;
    }
  }
  return tables;
}

std::string PerfModels::format(const Tables &tables) {
  std::string out;
  for (auto &[kernel, devices] : tables.kernels)
    for (auto &[device, sizes] : devices)
      for (auto &[items, s] : sizes)
        if (fits_a_field(kernel) && fits_a_field(device))
          out += "kernel\t" + kernel + '\t' + device + '\t' + text_of(items) + '\t' + text_of(s.count) + '\t' +
                 text_of(s.mean) + '\n';
  for (auto &[device, l] : tables.links)
    if (fits_a_field(device))
      out += "link\t" + device + '\t' + text_of(l.latency.mean) + '\t' + text_of(l.bandwidth.mean) + '\t' +
             text_of(l.latency.count) + '\t' + text_of(l.bandwidth.count) + '\n';
  for (auto &[shape, factors] : tables.factors)
    for (auto &[factor, s] : factors)
      if (fits_a_field(shape))
        out += "factor\t" + shape + '\t' + text_of(factor) + '\t' + text_of(s.count) + '\t' + text_of(s.mean) + '\n';
  return out;
}

// A key only one side has is kept as it is; for a key both have, the fresh
// samples continue the file's history as if they had come after it.
void PerfModels::merge(Tables &tables, const Tables &fresh) {
  for (auto &[kernel, devices] : fresh.kernels)
    for (auto &[device, sizes] : devices)
      for (auto &[items, s] : sizes) tables.kernels[kernel][device][items].add(s.count, s.mean);
  for (auto &[shape, factors] : fresh.factors)
    for (auto &[factor, s] : factors) tables.factors[shape][factor].add(s.count, s.mean);
  for (auto &[device, f] : fresh.links) {
    Link &l = tables.links[device];
    l.latency.add(f.latency.count, f.latency.mean);
    l.bandwidth.add(f.bandwidth.count, f.bandwidth.mean);
  }
}

void PerfModels::load_locked() {
  if (loaded_) return;
  loaded_ = true;
  if (file_.empty()) return;
  std::ifstream in(file_);
  models_ = parse(in);
}

const PerfModels::BySize *PerfModels::sizes_of(const std::string &kernel, const std::string &device) const {
  auto k = models_.kernels.find(kernel);
  if (k == models_.kernels.end()) return nullptr;
  auto d = k->second.find(device);
  return d == k->second.end() || d->second.empty() ? nullptr : &d->second;
}

// The size whose model predicts `items`: the same, else the nearest seen.
const PerfModels::BySize::value_type &PerfModels::nearest_size(const BySize &sizes, size_t items) {
  if (auto exact = sizes.find(items); exact != sizes.end()) return *exact;
  auto above = sizes.lower_bound(items);
  auto best = above == sizes.end() ? std::prev(above) : above;
  if (above != sizes.begin() && above != sizes.end() && items - std::prev(above)->first < above->first - items)
    best = std::prev(above);
  return *best;
}

const PerfModels::BySize::value_type *PerfModels::nearest_calibrated_size(const BySize &sizes, size_t items) {
  const BySize::value_type *best = nullptr;
  double best_ratio = kScaledAtMost;
  for (auto &entry : sizes) {
    if (entry.second.count < kCalibrationSamples) continue;
    const double a = static_cast<double>(std::max<size_t>(entry.first, 1)), b = static_cast<double>(std::max<size_t>(items, 1));
    const double ratio = std::max(a, b) / std::min(a, b);
    if (ratio <= best_ratio) best = &entry, best_ratio = ratio;
  }
  return best;
}

ExecPrediction PerfModels::kernel_prediction(const std::string &kernel, const std::string &device, size_t items) {
  std::lock_guard lock(mutex_);
  load_locked();
  const BySize *sizes = sizes_of(kernel, device);
  if (!sizes) return {-1, 0};
  // A size not seen is scaled from the nearest one by the work-item ratio.
  // A size seen too few times to trust is predicted from a calibrated one
  // near it instead, and so counts as calibrated: a device that ran a
  // launch's pieces (a divided launch) many times knows its speed for the
  // whole launch well enough; measuring it again at the whole size, as a
  // device never measured is, would hand a slow device whole launches
  // (on the simulated 1 CPU + 3 GPUs, a 54 ms block where a GPU takes 5).
  const BySize::value_type *near = &nearest_size(*sizes, items);
  if (near->second.count < kCalibrationSamples)
    if (const BySize::value_type *calibrated = nearest_calibrated_size(*sizes, items)) near = calibrated;
  const auto &[seen, stat] = *near;
  return {stat.mean * static_cast<double>(std::max<size_t>(items, 1)) / static_cast<double>(std::max<size_t>(seen, 1)),
          stat.count};
}

void PerfModels::record_kernel(const std::string &kernel, const std::string &device, size_t items, double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return;
  std::lock_guard lock(mutex_);
  load_locked();
  Stat &model = models_.kernels[kernel][device][items];
  if (model.count >= kCalibrationSamples) {
    // Calibrated: a sample far above the mean counts as at most twice the
    // mean. A run slowed once by another process on the machine would
    // otherwise move the mean for many runs, and hand the device's work to
    // a slower device meanwhile, where heft then keeps it (a device is not
    // run, so its model not corrected, while it looks slower). A lasting
    // slowdown still shows, a tenth of the way each run.
    seconds = std::min(seconds, kLimitOverMean * model.mean);
    model.add(1, seconds);
  } else {
    // Calibrating: the model holds its fastest sample. First runs pay for
    // what later ones do not (PoCL compiles a kernel's work-group function
    // at its first launch, vendors allocate and touch pages, threads wake),
    // and a model too slow is never corrected (a policy does not pick the
    // device), while one too fast is, by the runs it then gets.
    seconds = model.count > 0 ? std::min(seconds, model.mean) : seconds;
    model.mean = seconds;
    model.count += 1;
  }
  fresh_.kernels[kernel][device][items].add(1, seconds);
}

double PerfModels::transfer_time(const std::string &link, size_t bytes) {
  if (bytes == 0) return 0;
  std::lock_guard lock(mutex_);
  load_locked();
  auto found = models_.links.find(link);
  const Link &l = found == models_.links.end() ? Link{} : found->second;
  return l.latency.mean + static_cast<double>(bytes) / l.bandwidth.mean;
}

void PerfModels::record_transfer(const std::string &link, size_t bytes, double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds)) return;
  std::lock_guard lock(mutex_);
  load_locked();
  Link &l = models_.links[link];
  Link &fresh = fresh_.links[link];
  // Small transfers tell the latency, large ones the bandwidth; those in
  // between, neither. A node device's writes of 256 KiB took 0.3-0.4 ms,
  // its network round trip mostly: taken for bandwidth (0.7 GB/s), they
  // predicted 25 ms for a 16 MiB input that takes 5, heft left that GPU
  // idle for whole runs, and with no transfer to it nothing corrected the
  // model (bench-cluster-scaling's matmul, one GPU of twelve).
  if (bytes > kLatencyAtMost && bytes < kBandwidthFrom) return;
  if (bytes <= kLatencyAtMost) {
    l.latency.add(1, seconds);
    fresh.latency.add(1, seconds);
  } else {
    double bandwidth = static_cast<double>(bytes) / std::max(seconds - l.latency.mean, 1e-9);
    l.bandwidth.add(1, bandwidth);
    fresh.bandwidth.add(1, bandwidth);
  }
}

std::vector<PerfModels::FactorTime> PerfModels::factor_times(const std::string &shape) {
  std::lock_guard lock(mutex_);
  load_locked();
  std::vector<FactorTime> out;
  auto found = models_.factors.find(shape);
  if (found != models_.factors.end())
    for (auto &[factor, s] : found->second) out.push_back({factor, s.count, s.mean});
  return out;
}

void PerfModels::record_factor(const std::string &shape, unsigned factor, double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return;
  std::lock_guard lock(mutex_);
  load_locked();
  models_.factors[shape][factor].add(1, seconds);
  fresh_.factors[shape][factor].add(1, seconds);
}

void PerfModels::save() {
  std::lock_guard lock(mutex_);
  if (fresh_.empty()) return;
  const std::string &file = file_;
  if (file.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  FileLock other_savers_wait(file + ".lock");
  // What the file holds now, which other processes may have saved into
  // since this one read it.
  std::ifstream in(file);
  Tables current = parse(in);
  merge(current, fresh_);
  if (!replace_file(file, format(current))) return;  // the samples stay fresh: the next save retries
  models_ = std::move(current);
  loaded_ = true;
  fresh_ = {};
}

std::string PerfModels::describe(const std::string &file) {
  std::ifstream in(file);
  if (!in) return "no performance models yet (" + file + ")\n";
  Tables tables = parse(in);
  std::ostringstream out;
  out << "performance models in " << file << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-24s %-40s %12s %6s %14s\n", "kernel", "device", "work-items", "runs", "mean");
  out << line;
  for (auto &[kernel, devices] : tables.kernels)
    for (auto &[device, sizes] : devices)
      for (auto &[items, s] : sizes) {
        std::snprintf(line, sizeof line, "  %-24s %-40s %12zu %6zu %11.3f ms\n", kernel.c_str(),
                      device.substr(0, 40).c_str(), items, s.count, s.mean * 1e3);
        out << line;
      }
  for (auto &[shape, factors] : tables.factors)
    for (auto &[factor, s] : factors) {
      std::string which = factor == 0 ? std::string("undivided") : "factor " + std::to_string(factor);
      std::snprintf(line, sizeof line, "  divided %-58s %-12s %6zu %11.3f ms\n", shape.substr(0, 58).c_str(),
                    which.c_str(), s.count, s.mean * 1e3);
      out << line;
    }
  for (auto &[device, l] : tables.links) {
    std::snprintf(line, sizeof line,
                  "  link %-40s latency %.1f us, bandwidth %.2f GB/s (%zu small, %zu large transfers)\n",
                  device.substr(0, 40).c_str(), l.latency.mean * 1e6, l.bandwidth.mean / 1e9, l.latency.count,
                  l.bandwidth.count);
    out << line;
  }
  return out.str();
}

}  // namespace unicl
