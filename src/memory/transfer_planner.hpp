// Routes for making byte ranges valid at a location, and their predicted time.
//
// Why: once validity is kept per byte range (byte_ranges.hpp), the bytes a
// command lacks may be held by several locations, and moving them can go
// more than one way. The local backend only has device <-> host links, so
// bytes held by another device go through the host copy in two hops; a
// cluster backend adds direct links between nodes. Which way is cheapest
// depends on each link's latency and bandwidth, which UniCL learns from the
// transfers it times.
//
// How the coherence layer uses it: it passes what
// RangeValidity::missing(dst, range) returned to plan(dst, ...), issues the
// steps in order (a step into the host is followed by the step out of it
// for the same bytes), records each with RangeCoherence::copy(), and feeds
// each timed transfer back through record(). Schedulers call plan() (or
// predict() for a plan made earlier) to compare devices by the time their
// inputs would take to arrive, without issuing anything.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "byte_ranges.hpp"

namespace unicl {

// Time of a transfer on a link: latency + bytes / bandwidth.
struct LinkEstimate {
  double latency = 20e-6;  // seconds
  double bandwidth = 4e9;  // bytes per second
  double seconds(std::size_t bytes) const {
    return bytes == 0 ? 0 : latency + static_cast<double>(bytes) / bandwidth;
  }
};

// One link's estimate, refined from timed transfers: a line through recent
// (bytes, seconds) samples fitted on relative error, older samples weighing
// less so the estimate follows a link whose speed changed. Samples of one size
// cannot separate latency from bandwidth; they correct the term that
// dominates at that size and keep the other.
class LearnedLink {
 public:
  explicit LearnedLink(LinkEstimate guess) : estimate_(guess) {}
  const LinkEstimate &estimate() const { return estimate_; }
  std::size_t samples() const { return samples_; }
  // The largest transfer timed on it (0: none).
  std::size_t largest() const { return largest_; }
  void record(std::size_t bytes, double seconds);

 private:
  LinkEstimate estimate_;
  std::size_t samples_ = 0, largest_ = 0;
  // Weighted running means and co-moments of bytes (x) and seconds (y).
  double weight_ = 0, mean_x_ = 0, mean_y_ = 0, cxx_ = 0, cxy_ = 0;
};

// Moves `range` from src to dst.
struct TransferStep {
  Location src = 0;
  Location dst = 0;
  ByteRange range;
  bool operator==(const TransferStep &) const = default;
};

struct TransferPlan {
  std::vector<TransferStep> steps;  // in issue order
  double seconds = 0;               // predicted, see TransferPlanner::predict
  // Pieces no holder can reach, or held nowhere (contents lost or undefined).
  std::vector<MissingRange> unplanned;
};

class TransferPlanner {
 public:
  // Locations 0 .. devices-1 are devices and `devices` is the host copy;
  // every device has a link to and from the host, first estimated by
  // `host_link`.
  explicit TransferPlanner(std::size_t devices, LinkEstimate host_link = {});

  Location host() const { return host_; }
  std::size_t locations() const { return host_ + 1; }

  // Declares a direct link from src to dst (one direction), or replaces
  // the estimate of an existing one.
  void add_link(Location src, Location dst, LinkEstimate guess);
  // Declares a direct link between two devices whose speed nothing
  // suggests: until a transfer on it is timed, it is taken to be as fast as
  // the route through the host copy (src -> host -> dst) as learnt so far,
  // so that the planner neither avoids it nor prefers it on a guess.
  void add_unmeasured_link(Location src, Location dst);
  bool has_link(Location src, Location dst) const;
  // Throws std::out_of_range when there is no such link.
  LinkEstimate link(Location src, Location dst) const;
  std::size_t samples(Location src, Location dst) const;
  // A transfer of `bytes` from src to dst took `seconds` (ignored when not
  // positive or when there is no such link).
  void record(Location src, Location dst, std::size_t bytes, double seconds);

  // A device whose copies out compete with its own commands (a CPU
  // device copies with the cores its kernels run on): among routes
  // predicted equal, it is the holder read last.
  void set_copies_compete(Location l) { competing_.insert(l); }

  // Where a location is: locations of one site share their links to and
  // from other sites (the devices of one node share its network link).
  // By default every location is a site of its own.
  void set_site(Location l, std::size_t site);
  // Sites beyond the host's network interface (other nodes): a transfer
  // between two sites of which one is behind the network joins two queues,
  // the sending site's network interface out and the receiving site's in.
  // The host's carries its transfers to and from every node (and, on one
  // machine, one memory); a node's, those to the host and to every other
  // node: a route through the host then no longer looks free beside a
  // direct one that leaves the same node (bench-cluster-scaling's
  // Cholesky sent a quarter of its copies between nodes through rank 0
  // that way). Other transfers queue per pair of sites.
  void set_behind_network(std::size_t site) { behind_network_.insert(site); }
  // Transfers planned and not finished: a queue keeps this much work ahead
  // of any new transfer that joins it, in every plan, until unreserve().
  // reserve() returns the seconds it added. `now` (seconds on the caller's
  // clock: UniCL's host clock, host_clock_ns) places its predicted arrival
  // at dst (arrival()).
  double reserve(Location src, Location dst, std::size_t bytes, double now = 0);
  void unreserve(Location src, Location dst, double seconds);
  // Seconds of work reserved on the busiest queue a transfer from src to
  // dst joins.
  double backlog(Location src, Location dst) const;
  // Seconds from `now` until the transfers reserved into `l` are predicted
  // to have arrived (after the backlog each found, and its own time); 0
  // once that moment passed.
  double arrival(Location l, double now) const { return std::max(0.0, arrives_at_[l] - now); }
  // A count of the transfers that ever joined the queues a transfer from
  // src to dst joins (reserve()): a transfer after whose start it did not
  // grow until its end, and which found them empty, had the link to
  // itself, and so timed the link rather than its share of it.
  std::uint64_t joined(Location src, Location dst) const;

  // Steps that make every piece of `missing` valid at dst. Each piece comes
  // from the holder whose route finishes first, given the links the plan
  // already keeps busy: a direct link when there is one, else through the
  // host copy. A direct link never timed at half a piece's size or more is
  // kept over the route through the host from the same holder unless that
  // route is predicted four times as fast: its first guess may be far off,
  // and only a copy on it tells (left unused, it would never be learnt).
  // A holder in `arriving` has those bytes still on their way (a transfer
  // into it planned, not done): its routes start at its predicted arrival
  // (arrival(), at `now`), not at once (taken as free, a holder still
  // receiving drew each device of a node to copy from it, waiting for it,
  // while rank 0's link was free: bench-cluster-scaling's matmul).
  TransferPlan plan(Location dst, std::span<const MissingRange> missing, LocationSet arriving = {},
                    double now = 0) const;
  // Predicted seconds until every step is done: steps on one link run one
  // after another, steps on different links at once, and a step starts only
  // once earlier steps of the plan brought its bytes to its source.
  double predict(std::span<const TransferStep> steps) const;

 private:
  using Key = std::pair<Location, Location>;
  const LearnedLink *find(Location src, Location dst) const;
  // Seconds for `bytes` on an existing link (see add_unmeasured_link).
  double seconds(Location src, Location dst, const LearnedLink &l, std::size_t bytes) const;
  void check_location(Location l) const;

  Location host_;
  std::map<Key, LearnedLink> links_;
  std::set<Key> unmeasured_;  // add_unmeasured_link's, estimated through the host until timed
  std::vector<std::size_t> site_;     // per location
  std::map<Key, double> backlog_;     // reserved seconds, per pair of sites
  std::vector<double> arrives_at_;    // per location: its reserved transfers' latest predicted arrival
  std::map<Key, std::uint64_t> joined_;  // reservations ever made, per pair of sites
  std::set<std::size_t> behind_network_;
  std::set<Location> competing_;  // set_copies_compete's
  // The queues a transfer from src to dst joins (set_behind_network).
  struct Queues {
    std::array<Key, 2> keys;
    std::size_t count;
    const Key *begin() const { return keys.data(); }
    const Key *end() const { return keys.data() + count; }
  };
  Queues queues_of(Location src, Location dst) const;
};

}  // namespace unicl
