#include "perf_model.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace unicl {

std::string PerfModels::file_in(const std::string &cache_dir) {
  return cache_dir.empty() ? std::string() : (std::filesystem::path(cache_dir) / "models.tsv").string();
}

// File lines: "kernel<TAB>name<TAB>device<TAB>items<TAB>count<TAB>mean"
//             "link<TAB>device<TAB>latency<TAB>bandwidth<TAB>samples"
void PerfModels::load_locked() {
  if (loaded_) return;
  loaded_ = true;
  if (path_.empty()) return;
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string kind;
    std::getline(fields, kind, '\t');
    std::string a, b, c, d, e;
    std::getline(fields, a, '\t');
    std::getline(fields, b, '\t');
    std::getline(fields, c, '\t');
    std::getline(fields, d, '\t');
    std::getline(fields, e, '\t');
    try {
      if (kind == "kernel") kernels_[a][b][std::stoull(c)] = {std::stoull(d), std::stod(e)};
      else if (kind == "link") links_[a] = {std::stod(b), std::stod(c), std::stoull(d)};
    } catch (...) {
      // A damaged line is skipped: models are only hints.
    }
  }
}

const PerfModels::BySize *PerfModels::sizes_of(const std::string &kernel, const std::string &device) const {
  auto k = kernels_.find(kernel);
  if (k == kernels_.end()) return nullptr;
  auto d = k->second.find(device);
  return d == k->second.end() || d->second.empty() ? nullptr : &d->second;
}

double PerfModels::kernel_time(const std::string &kernel, const std::string &device, size_t items) {
  std::lock_guard lock(mutex_);
  load_locked();
  const BySize *sizes = sizes_of(kernel, device);
  if (!sizes) return -1;
  if (auto exact = sizes->find(items); exact != sizes->end()) return exact->second.mean;
  // Nearest size seen, scaled by the work-item ratio.
  auto above = sizes->lower_bound(items);
  auto best = above == sizes->end() ? std::prev(above) : above;
  if (above != sizes->begin() && above != sizes->end() && items - std::prev(above)->first < above->first - items)
    best = std::prev(above);
  size_t seen = std::max<size_t>(best->first, 1);
  return best->second.mean * static_cast<double>(std::max<size_t>(items, 1)) / static_cast<double>(seen);
}

void PerfModels::record_kernel(const std::string &kernel, const std::string &device, size_t items, double seconds) {
  if (!(seconds >= 0)) return;
  std::lock_guard lock(mutex_);
  load_locked();
  Stat &s = kernels_[kernel][device][items];
  // Running mean, weighting recent runs more once there is a history, so
  // that a model follows a device whose speed changed.
  s.count += 1;
  double weight = s.count < 10 ? 1.0 / static_cast<double>(s.count) : 0.1;
  s.mean += weight * (seconds - s.mean);
  dirty_ = true;
}

double PerfModels::transfer_time(const std::string &device, size_t bytes) {
  if (bytes == 0) return 0;
  std::lock_guard lock(mutex_);
  load_locked();
  const Link &l = links_[device];
  return l.latency + static_cast<double>(bytes) / l.bandwidth;
}

void PerfModels::record_transfer(const std::string &device, size_t bytes, double seconds) {
  if (!(seconds > 0)) return;
  std::lock_guard lock(mutex_);
  load_locked();
  Link &l = links_[device];
  l.samples += 1;
  double weight = l.samples < 10 ? 1.0 / static_cast<double>(l.samples) : 0.1;
  // Small transfers tell the latency, large ones the bandwidth.
  if (bytes <= 64 * 1024) l.latency += weight * (seconds - l.latency);
  else l.bandwidth += weight * (static_cast<double>(bytes) / std::max(seconds - l.latency, 1e-9) - l.bandwidth);
  dirty_ = true;
}

void PerfModels::save() {
  std::lock_guard lock(mutex_);
  if (!dirty_) return;
  if (path_.empty()) return;
  const std::string &file = path_;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  // Written aside and renamed: another process may be reading it.
  std::string tmp = file + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    for (auto &[kernel, devices] : kernels_)
      for (auto &[device, sizes] : devices)
        for (auto &[items, s] : sizes)
          out << "kernel\t" << kernel << '\t' << device << '\t' << items << '\t' << s.count << '\t' << s.mean << '\n';
    for (auto &[dev, l] : links_)
      out << "link\t" << dev << '\t' << l.latency << '\t' << l.bandwidth << '\t' << l.samples << '\n';
    if (!out) return;
  }
  std::filesystem::rename(tmp, file, ec);
  if (!ec) dirty_ = false;
}

std::string PerfModels::describe(const std::string &file) {
  std::ifstream in(file);
  if (!in) return "no performance models yet (" + file + ")\n";
  std::ostringstream out;
  out << "performance models in " << file << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-24s %-40s %12s %6s %14s\n", "kernel", "device", "work-items", "runs", "mean");
  out << line;
  for (std::string text; std::getline(in, text);) {
    std::istringstream f(text);
    std::string kind, a, b, c, d, e;
    std::getline(f, kind, '\t');
    std::getline(f, a, '\t');
    std::getline(f, b, '\t');
    std::getline(f, c, '\t');
    std::getline(f, d, '\t');
    std::getline(f, e, '\t');
    if (kind == "kernel") {
      std::snprintf(line, sizeof line, "  %-24s %-40s %12s %6s %11.3f ms\n", a.c_str(), b.substr(0, 40).c_str(),
                    c.c_str(), d.c_str(), std::atof(e.c_str()) * 1e3);
      out << line;
    } else if (kind == "link") {
      std::snprintf(line, sizeof line, "  link %-40s latency %.1f us, bandwidth %.2f GB/s (%s samples)\n",
                    a.substr(0, 40).c_str(), std::atof(b.c_str()) * 1e6, std::atof(c.c_str()) / 1e9, d.c_str());
      out << line;
    }
  }
  return out.str();
}

}  // namespace unicl
