// The order in which rank 0 learns of a node's commands' ends.
//
// OpenCL orders a command's end after those of the commands it follows
// (its wait list and, on its queue, queue_order.hpp's), and rank 0
// relies on it as any application does: a marker after a read has ended,
// so the read's bytes are in place. The vendor's callbacks, which record
// the ends, do not keep that order: one still running when a command
// waiting for its event ends (its other callbacks set a stand-in's gate
// first, or the serving thread that ran it was preempted) lets the later
// end be recorded first. Measured: the tiled Cholesky through two nodes,
// with random delays in the nodes' callbacks and rank 0's threads, read a
// tile's host copy before the bytes a node's read brought back had landed
// in 4 runs of 600; with the ends in order, in none of 600.
//
// So an end is reported only once the ends it follows have been: an end
// that comes first is held until theirs come (they will: its predecessors
// have ended on the device, their callbacks are on their way).
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace unicl::cluster {

class EndOrder {
 public:
  // Command `id` will end (its end is to be reported); after those of
  // `follows` that are still awaited.
  void await(uint64_t id, const std::vector<uint64_t> &follows);
  // Command `id` ended: the ends that may be reported now, in order: none
  // while it follows one not reported yet, else its own, then those it
  // held back.
  std::vector<uint64_t> ended(uint64_t id);
  bool awaited(uint64_t id) const { return follows_.count(id) > 0; }
  std::size_t held() const { return held_.size(); }

 private:
  bool follows_unreported(uint64_t id) const;
  std::unordered_map<uint64_t, std::vector<uint64_t>> follows_;  // awaited: what each follows
  std::unordered_set<uint64_t> held_;                            // ended before a predecessor
};

}  // namespace unicl::cluster
