// Hands out the blocks of a data-parallel job to devices of unknown and very
// different speeds: each device takes the next block when it is free, so a
// fast device takes many and a slow one few.
#pragma once
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

class BlockDispenser {
 public:
  BlockDispenser(size_t blocks, size_t devices) : blocks_(blocks), devices_(devices) {}

  // The next block for `device`, or nothing when the job is handed out or
  // when this device is so slow that one more block of its own would end
  // after the fastest device still working could have done all remaining
  // blocks alone: a slow device must not hold up the end of the job. A
  // device told nothing is done for good; the fastest device still working
  // is never turned away, so every block is handed out.
  std::optional<size_t> next(size_t device) {
    std::lock_guard lock(mutex_);
    Device &me = devices_[device];
    if (next_ < blocks_ && me.timed > 0) {
      const double fastest = fastest_working_ms();
      if (me.mean_ms() > static_cast<double>(blocks_ - next_) * fastest) me.retired = true;
    }
    if (next_ >= blocks_ || me.retired) {
      me.retired = true;
      return std::nullopt;
    }
    return next_++;
  }

  // A device's first block is its warm-up (kernel compiled on first launch,
  // first transfers) and says little about its speed: not counted.
  void finished(size_t device, double ms) {
    std::lock_guard lock(mutex_);
    Device &me = devices_[device];
    if (me.warmed_up) {
      me.busy_ms += ms;
      ++me.timed;
    }
    me.warmed_up = true;
  }

 private:
  struct Device {
    bool warmed_up = false;
    bool retired = false;
    size_t timed = 0;  // blocks after the warm-up
    double busy_ms = 0;
    double mean_ms() const { return busy_ms / static_cast<double>(timed); }
  };

  double fastest_working_ms() const {
    double best = 0;
    for (const auto &d : devices_)
      if (!d.retired && d.timed > 0 && (best == 0 || d.mean_ms() < best)) best = d.mean_ms();
    return best;
  }

  std::mutex mutex_;
  size_t blocks_;
  size_t next_ = 0;
  std::vector<Device> devices_;
};
