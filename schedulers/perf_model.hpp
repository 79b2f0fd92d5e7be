// History-based performance models, shared by every context of the process
// and kept across runs in models.tsv of UniCL's per-user cache folder
// (Config::cache_dir: $XDG_CACHE_HOME/unicl, else ~/.cache/unicl).
//
// Kernels: mean execution time per (kernel name, device name, global size),
// from the profiling times of the commands UniCL ran. A size never seen on
// a device is predicted from the nearest size seen there, scaled by the
// number of work-items; a kernel never seen on a device is unknown, which
// makes the policies explore it there first.
// Divided launches: seconds per (launch shape, partitioning factor).
// Transfers: per link (a source and a destination memory, link_name()),
// latency + bytes / bandwidth, guessed at first and refined from every
// transfer UniCL times.
//
// Several processes may share the file (one home folder, many programs):
// save() merges this process's new samples into what the file holds at
// that moment, under a lock, and replaces the file atomically, so no
// process erases what another one learnt.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/exec_prediction.hpp"

namespace unicl {

class PerfModels {
 public:
  // The models kept in `file` (file_in() of the configured cache folder);
  // empty: the models start empty and are not kept.
  explicit PerfModels(std::string file) : file_(std::move(file)) {}
  // The cache file of the models kept in `cache_dir` (empty if it is).
  static std::string file_in(const std::string &cache_dir);
  // Predicted seconds, or a negative value when unknown, and the samples
  // behind them (those of the size it predicts from; 0 when unknown).
  ExecPrediction kernel_prediction(const std::string &kernel, const std::string &device, size_t items);
  double kernel_time(const std::string &kernel, const std::string &device, size_t items) {
    return kernel_prediction(kernel, device, items).seconds;
  }
  // A kernel's model on a device is calibrated once it holds
  // kCalibrationSamples samples (ExecPrediction::calibrated); until then it
  // is the fastest of them.
  static constexpr size_t kCalibrationSamples = ExecPrediction::kCalibrationSamples;
  void record_kernel(const std::string &kernel, const std::string &device, size_t items, double seconds);
  double transfer_time(const std::string &link, size_t bytes);
  // Divided launches (granularity/): per launch shape, the seconds each
  // partitioning factor took (factor 0: the launch undivided).
  struct FactorTime {
    unsigned factor = 0;
    size_t runs = 0;
    double mean = 0;
  };
  std::vector<FactorTime> factor_times(const std::string &shape);
  void record_factor(const std::string &shape, unsigned factor, double seconds);
  void record_transfer(const std::string &link, size_t bytes, double seconds);
  // The key of the link from memory `src` to memory `dst` (device names, or
  // the core's kHostMemory for host memory).
  static std::string link_name(const std::string &src, const std::string &dst) { return src + " -> " + dst; }
  // Merges the samples recorded since the last save into the cache file.
  void save();
  const std::string &path() const { return file_; }
  // The cache file's models, for `unicl info --models`.
  static std::string describe(const std::string &path);

 private:
  // A running mean whose first ten samples weigh equally and later ones
  // 0.1 each, so that a model follows a device whose speed changed.
  struct Stat {
    size_t count = 0;
    double mean = 0;
    // As if `n` samples of value `value` came after those already counted.
    void add(size_t n, double value);
    // From a models line's count and mean fields; false when damaged.
    bool read(std::string_view count_field, std::string_view mean_field);
  };
  // Each measure starts from a guess that its first sample replaces.
  struct Link {
    Stat latency{0, 20e-6};  // seconds; from small transfers (kLatencyAtMost)
    Stat bandwidth{0, 4e9};  // bytes per second; from large ones (kBandwidthFrom)
  };
  // kernel -> device -> work-items -> stat; transparent comparators let
  // lookups run on the caller's strings without copying them.
  using BySize = std::map<size_t, Stat>;
  using ByDevice = std::map<std::string, BySize, std::less<>>;
  using Kernels = std::map<std::string, ByDevice, std::less<>>;
  using Links = std::map<std::string, Link, std::less<>>;
  using Factors = std::map<std::string, std::map<unsigned, Stat>, std::less<>>;
  struct Tables {
    Kernels kernels;
    Links links;
    Factors factors;
    bool empty() const { return kernels.empty() && links.empty() && factors.empty(); }
  };

  // The one reader and the one writer of the file format.
  static Tables parse(std::istream &in);
  static std::string format(const Tables &tables);
  // `fresh` samples (recorded after `tables` was read) added into it.
  static void merge(Tables &tables, const Tables &fresh);

  void load_locked();
  const BySize *sizes_of(const std::string &kernel, const std::string &device) const;
  static const BySize::value_type &nearest_size(const BySize &sizes, size_t items);
  // The calibrated size nearest to `items` by ratio, within kScaledAtMost
  // of it either way; null when there is none.
  static const BySize::value_type *nearest_calibrated_size(const BySize &sizes, size_t items);
  static constexpr double kScaledAtMost = 16;

  // record_transfer's sizes: at most kLatencyAtMost bytes tell a link's
  // latency, from kBandwidthFrom on its bandwidth.
  static constexpr size_t kLatencyAtMost = size_t{64} << 10, kBandwidthFrom = size_t{1} << 20;
  // record_kernel's limit on one sample once calibrated: kLimitOverMean
  // times the mean.
  static constexpr double kLimitOverMean = 2.0;
  const std::string file_;  // empty: not kept
  std::mutex mutex_;
  bool loaded_ = false;
  // What predictions use: the file as read, plus every sample since.
  Tables models_;
  // The samples since the last successful save, which save() adds to the
  // file's current content (another process may have changed it).
  Tables fresh_;
};

}  // namespace unicl
