// How many commands the engine lets a device hold at once (started there,
// not yet ended), the rest staying in the policy's hands.
//
// Two always: one running, one whose data moves meanwhile. More (up to
// kMaxInFlight) while the predicted work submitted ends within kHorizon:
// short commands are then not paced by one completion round trip each,
// while long ones stay with the policy until a device is about to need
// them, so that a device that frees first can still be given them. Not,
// though, a long command to a device already past the predicted end of
// what it holds (its commands waited for their inputs longer than
// predicted, or ran slower): one more each time it passed that end had
// committed 4-5 matmul blocks of 5 ms to each GPU of the last nodes of
// bench-cluster-scaling long before they could start. Short commands (the
// runs in flight adding up to less than kHorizon) are not held back so:
// a stream of them running a little slower than predicted is always past.
#pragma once
#include <cstddef>

namespace unicl {

struct DispatchWindow {
  static constexpr size_t kMinInFlight = 2;
  static constexpr size_t kMaxInFlight = 64;
  static constexpr double kHorizon = 1e-3;  // seconds
  // A device holding `in_flight` commands, predicted to end at
  // `busy_until` and to run `work` seconds among them, takes another at
  // `now` (seconds, one clock).
  static bool has_room(size_t in_flight, double busy_until, double work, double now) {
    if (in_flight < kMinInFlight) return true;
    if (in_flight >= kMaxInFlight || busy_until - now >= kHorizon) return false;
    return work < kHorizon || busy_until >= now;
  }
};

}  // namespace unicl
