// The built-in divider, for kernels that declared how they split
// (clSetKernelSplitUNICL): each device the kernel runs on gets a share of
// the range along the declared dimension in proportion to its rate for the
// kernel (1/T_d over the sum of 1/T, T_d the time the performance models
// predict for the whole launch on d), so that every device finishes at about
// the same time; devices with no model yet get equal shares, which measures
// each of them. Each share is cut into `per_device` consecutive pieces, so
// that a device's copy engine moves the next piece's bytes while it
// computes the current one (the factor the granularity layer learns).
//
// A launch of the same shape keeps the previous partition while that one's
// predicted makespan stays within kKeepWithin of the new one's: the pieces,
// and the bytes each device holds, then stay where they are from one
// launch to the next instead of moving with every wobble of the models.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/division.hpp"

struct _cl_mem;

namespace unicl {

class PerfModels;

class ProportionalDivider {
 public:
  explicit ProportionalDivider(std::shared_ptr<PerfModels> models) : models_(std::move(models)) {}

  struct Piece {
    size_t slot;          // the context slot it runs on
    size_t first, count;  // its indices along the split dimension, from the launch's offset
    bool operator==(const Piece &) const = default;
  };
  // The pieces of `launch` (shape: FactorChoice::shape_of); one piece when it
  // cannot be cut (one device, or a range of one work-group). With
  // `in_place` (below) and the previous partition kept, one piece per device.
  // `informed`: every device's share came from its model (else equal shares).
  std::vector<Piece> cut(const DividedLaunch &launch, const std::string &shape, size_t per_device, bool in_place,
                         bool &informed);

  // Whether every buffer argument of `launch` is one the previous launch of
  // `shape` had, with no command enqueued on it since that launch's pieces:
  // those left their bytes on the devices that ran them, so the same
  // partition moves nothing and needs no pieces to overlap copies with.
  // (A freed buffer's address reused with the same count is taken for it:
  // only the overlap of copies is lost.)
  bool in_place(const DividedLaunch &launch, const std::string &shape);
  // Notes the buffers' counts once `launch`'s pieces are enqueued.
  void enqueued(const DividedLaunch &launch, const std::string &shape);

  static constexpr double kKeepWithin = 1.1;

 private:
  std::shared_ptr<PerfModels> models_;
  std::mutex mutex_;
  std::map<std::string, std::vector<Piece>> last_;  // per shape, guarded by mutex_
  // Per shape: the buffer arguments (roots) and their command counts after
  // the last launch's pieces were enqueued; guarded by mutex_.
  std::map<std::string, std::vector<std::pair<const _cl_mem *, uint64_t>>> buffers_;
  static std::vector<std::pair<const _cl_mem *, uint64_t>> buffer_counts(const DividedLaunch &launch);
};

}  // namespace unicl
