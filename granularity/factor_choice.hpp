// The factors of divided launches, chosen per launch shape (kernel, global
// size, devices of the context) from the times in the performance models
// and the context's strategy, and the times recorded back.
//
// What a launch costs: when launches of a shape follow one another (each
// completes before the next is enqueued: an iterative program), the time
// from one launch's enqueue to the next one's, so that what the factor
// costs after the launch (gathering the pieces' results from more devices)
// counts too; the launch's own duration only for launches that overlap.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/division.hpp"
#include "strategy.hpp"

struct _cl_context;

namespace unicl {

class Task;
class PerfModels;

class FactorChoice {
 public:
  explicit FactorChoice(std::shared_ptr<PerfModels> models);

  // What a launch runs with, and what it reports back to.
  struct Choice {
    std::string shape;    // as given to choose()
    unsigned factor = 0;  // 0: undivided
    bool learnt = false;  // chosen by the strategy (a fixed factor is not timed)
    uint64_t serial = 0;  // the launch's number among its shape's
    // Not timed as the factor's cost: cut with no model of some device yet
    // (equal shares: its time says what the models lacked), or, for the
    // built-in divider, the factor's first run of the shape (its first
    // pieces on each device pay once what later launches do not:
    // allocations, inputs moved to a new partition; kept, one such run
    // could rule a factor out for good).
    bool calibration = false;
    // Chosen on a queue out of order: counted among the launches that may
    // run beside a later one (out_of_order_commands_) once enqueued().
    bool out_of_order = false;
  };
  // `shape`: the launch's key, shape_of(launch), with a suffix for launches
  // that run differently and keep statistics of their own (the built-in
  // divider's, whose bytes are in place). `now`: the enqueue call's time,
  // host-clock seconds.
  Choice choose(const DividedLaunch &launch, const std::string &shape, double now);
  // The launch of `choice` is enqueued as `command` (its event's task, or
  // null when nothing was enqueued): until that command completes, it may
  // run beside later launches.
  void enqueued(const Choice &choice, const std::shared_ptr<Task> &command);
  // The launch ended `seconds` after it started, at `now`; failed launches
  // pass a negative `seconds`.
  void finished(const Choice &choice, double seconds, double now);
  // The launch of `choice` calibrates the models (see Choice): its time is
  // not the factor's.
  void calibrating(Choice &choice);

  // The key of a launch shape in the models.
  static std::string shape_of(const DividedLaunch &launch);

 private:
  // The shape's latest launch, whose time is known when the next one comes.
  struct Latest {
    uint64_t serial = 0;
    unsigned factor = 0;
    double enqueued = 0, ended = -1;  // ended: -1 while it runs
    double seconds = 0;               // from its start to its end
    bool overlapped = false;          // the next launch came before it ended
    bool calibration = false;         // not to be kept (Choice::calibration)
    uint64_t others = 0;              // launches of any shape before it (all_launches_)
  };
  struct Shape {
    uint64_t launches = 0;
    std::map<unsigned, size_t> in_flight;
    std::set<unsigned> warmed;  // factors run once untimed (Choice::calibration)
    Latest latest;
  };
  // The shape's latest launch, if it completed before `now`, timed: it
  // cost until now, or its own duration when launches of other shapes came
  // in between (what followed it was not its doing). One still running is
  // marked overlapped.
  void time_latest(const std::string &shape, double now);
  // Undivided and every factor of the launch's range, with what the
  // models know of each.
  // `devices`: those that can run at the same time (for the start).
  std::vector<FactorOption> options(const DividedLaunch &launch, const std::string &shape, size_t devices) const;

  std::shared_ptr<PerfModels> models_;
  std::vector<std::pair<std::string, std::unique_ptr<FactorStrategy>>> strategies_;
  std::mutex mutex_;
  uint64_t all_launches_ = 0;  // learnt launches of every shape; guarded by mutex_
  // Launches on queues out of order, of every shape, chosen and not
  // complete (mutex_): those being enqueued, and the commands of those
  // enqueued. Complete means what the application sees: a command is out of
  // the count as soon as its event is complete, not once its end is recorded
  // here (finished() runs later, from the work queue: a loop that waits for
  // each launch then saw the last one still in flight, took the next one as
  // saturated and ran every launch whole). Those of them a launch does not
  // wait for, directly or through others, may run beside it: with as many
  // as the devices that can run at once, each device has a whole launch of
  // its own to run, and a divided one cannot end the batch sooner: it only
  // adds cuts, moves and gathers, so the launch runs whole. (bench-cluster-scaling's matmul, 85
  // independent launches on 16 devices: 132 ms in the runs the climb
  // divided, 70 ms whole; every launch timed alone, the divided ones looked
  // faster. Its Cholesky, 220 launches that wait for others: the same.)
  uint64_t out_of_order_enqueueing_ = 0;
  std::vector<std::weak_ptr<Task>> out_of_order_commands_;
  // The launches above still in flight, counted up to `enough`; those
  // found complete leave the list. Takes mutex_ itself: the commands'
  // statuses are asked without it.
  uint64_t out_of_order_in_flight(uint64_t enough);
  // The commands `launch` waits for, directly or through others, that have
  // not ended, counted up to `limit`: those launches in flight are not
  // beside it (a chain's launches are all behind each other).
  static size_t unfinished_ancestors(const DividedLaunch &launch, size_t limit);
  // The most a walk counts (a chain this deep in flight runs its later
  // launches whole).
  static constexpr size_t kAncestorsWalked = 1024;
  // Its launch left: one fewer in flight (mutex_ held).
  void left(const Choice &choice);
  std::map<std::string, Shape> shapes_;  // guarded by mutex_
};

}  // namespace unicl
