// History-based performance models, shared by every context of the process
// and kept across runs in models.tsv of UniCL's per-user cache folder
// (Config::cache_dir: $XDG_CACHE_HOME/unicl, else ~/.cache/unicl).
//
// Kernels: mean execution time per (kernel name, device name, global size),
// from the profiling times of the commands UniCL ran. A size never seen on
// a device is predicted from the nearest size seen there, scaled by the
// number of work-items; a kernel never seen on a device is unknown, which
// makes the policies explore it there first.
// Transfers: per device, latency + bytes / bandwidth of its host link,
// guessed at first and refined from every transfer UniCL times.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace unicl {

class PerfModels {
 public:
  // `cache_dir`: the folder of the cache file; empty: the models start
  // empty and are not kept.
  explicit PerfModels(const std::string &cache_dir) : path_(file_in(cache_dir)) {}
  // The cache file of the models kept in `cache_dir` (empty if it is).
  static std::string file_in(const std::string &cache_dir);
  // Predicted seconds, or a negative value when unknown.
  double kernel_time(const std::string &kernel, const std::string &device, size_t items);
  void record_kernel(const std::string &kernel, const std::string &device, size_t items, double seconds);
  double transfer_time(const std::string &device, size_t bytes);
  void record_transfer(const std::string &device, size_t bytes, double seconds);
  // Writes the models to the cache file when they changed.
  void save();
  const std::string &path() const { return path_; }
  // The cache file's lines, for `unicl info --models`.
  static std::string describe(const std::string &path);

 private:
  struct Stat {
    size_t count = 0;
    double mean = 0;
  };
  struct Link {
    double latency = 20e-6;   // seconds; refined from small transfers
    double bandwidth = 4e9;   // bytes per second; refined from large ones
    size_t samples = 0;
  };
  void load_locked();
  const std::string path_;
  std::mutex mutex_;
  bool loaded_ = false, dirty_ = false;
  // kernel -> device -> work-items -> stat; transparent comparators let
  // lookups run on the caller's strings without copying them.
  using BySize = std::map<size_t, Stat>;
  using ByDevice = std::map<std::string, BySize, std::less<>>;
  std::map<std::string, ByDevice, std::less<>> kernels_;
  const BySize *sizes_of(const std::string &kernel, const std::string &device) const;
  std::map<std::string, Link> links_;
};

}  // namespace unicl
