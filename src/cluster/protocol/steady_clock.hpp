// The clock the times of commands travel on between rank 0 and a node.
//
// A vendor's profiling counters start where that vendor pleases, so a node
// sends a command's times on its machine's steady clock (in its report of
// the command's end), and answers a ping with that clock's reading; rank 0
// measures the offset of each node's clock to its own from a few pings at
// the start (Session::measure_clock) and moves every reported time onto its
// own steady clock. Its trace then places a node's commands beside the
// moment it learnt of their ends (core/trace.hpp).
#pragma once
#include <chrono>
#include <cstdint>

namespace unicl::cluster {

inline uint64_t steady_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

}  // namespace unicl::cluster
