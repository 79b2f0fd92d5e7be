// How many commands the engine lets a device hold at once (started there,
// not yet ended), the rest staying in the policy's hands.
//
// Two always: one running, one whose data moves meanwhile. More (up to
// kMaxInFlight) while the predicted work submitted ends within kHorizon and
// the predicted runs in flight add up to less: short commands are then not
// paced by one completion round trip each, while long ones stay with the
// policy until a device is about to need them, so that a device that frees
// first can still be given them. The predicted end alone let a device whose
// commands waited for their inputs longer than predicted (past that end
// with all of them still to run) take one more each time it passed it:
// 4-5 matmul blocks of 5 ms on each GPU of the last nodes of
// bench-cluster-scaling, committed there long before they could start.
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
    return in_flight < kMaxInFlight && busy_until - now < kHorizon && work < kHorizon;
  }
};

}  // namespace unicl
