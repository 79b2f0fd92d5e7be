// Doorbells: a UDP port on which rank 0 wakes a node's serving loop when it
// sends a request after a quiet while, and a node wakes rank 0's
// communication thread when it sends an end after one.
//
// Why: MPI tells of a message only when asked, and a loop that asks without
// pause holds a core, so a quiet loop sleeps between polls, longer the
// longer nothing came (idle_backoff.hpp: up to 1 ms on a node, 200 us on
// rank 0). A request to an idle node then waited for its next poll: a copy
// between two nodes (bench-cluster, 16 MiB) reached the receiving node
// 700-800 us after rank 0 posted it, for a copy of 2 ms, and its end reached
// rank 0 270-300 us after it. A thread blocks on the doorbell (no CPU while
// idle) and wakes the loop as a vendor callback does. A ring is only a
// hint: a datagram lost, or a process that cannot be reached by UDP, leaves
// the polling as it was.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "cluster/protocol/messages.hpp"

namespace unicl::cluster {

// Rank 0's thread and a node's loop yield for 200-300 us after their last
// message, then sleep between polls: a message after a shorter quiet finds
// the other end awake, and a ring would wake it for nothing.
inline constexpr std::chrono::microseconds kRingAfterQuiet{150};

// When a message last crossed between this process and one other, both
// ways: a message sent after kRingAfterQuiet of nothing may find the other
// end asleep, and rings its doorbell. One rule for rank 0's thread (a
// contact per node) and a node's loop (rank 0's).
class Contact {
 public:
  using Clock = std::chrono::steady_clock;
  // A message came from the other end.
  void heard(Clock::time_point now = Clock::now()) { last_ = now; }
  // A message goes to it now: whether it follows a quiet while (ring).
  bool sent_after_quiet(Clock::time_point now = Clock::now()) {
    const bool quiet = now - last_ > kRingAfterQuiet;
    last_ = now;
    return quiet;
  }

 private:
  Clock::time_point last_;
};

// The end that is rung: a socket on every interface, on a port the system
// picks, and a thread that calls `on_ring` for each ring (a burst of rings,
// once). Without a socket (none could be made), its port is 0.
class DoorbellListener {
 public:
  explicit DoorbellListener(std::function<void()> on_ring);
  ~DoorbellListener();
  DoorbellListener(const DoorbellListener &) = delete;
  DoorbellListener &operator=(const DoorbellListener &) = delete;

  // Where it rings, to tell the other end.
  DoorbellAt where() const;

 private:
  void listen();

  int fd_ = -1;
  uint16_t port_ = 0;
  std::function<void()> on_ring_;
  // Set before the stop byte is sent: the thread looks at it after each
  // wake, so a stop byte taken among a burst of rings still stops it.
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// The ringing end, for one other process: rings its port at each address it
// gave (which of them reaches it cannot be told: all are rung; loopback only
// when both share a host name).
class Doorbell {
 public:
  Doorbell() = default;
  explicit Doorbell(const DoorbellAt &at);
  ~Doorbell();
  Doorbell(Doorbell &&other) noexcept;
  Doorbell &operator=(Doorbell &&other) noexcept;

  void ring() const;
  bool rings() const { return fd_ >= 0 && !to_.empty(); }

 private:
  struct Address {
    uint32_t ip = 0;  // network order
    uint16_t port = 0;
  };
  int fd_ = -1;
  std::vector<Address> to_;
};

}  // namespace unicl::cluster
