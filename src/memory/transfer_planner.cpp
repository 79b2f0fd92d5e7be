#include "transfer_planner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace unicl {

namespace {

// How much of a sample's weight survives each newer sample: about the last
// ten samples make the estimate.
constexpr double kKeep = 0.9;
// Sizes must spread at least this much relative to their mean before the
// line through the samples says anything about latency versus bandwidth.
constexpr double kMinSpread = 0.1;

// An untried direct link is kept over the route through the host unless
// that route is predicted this many times faster: a direct link's first
// guess counts a device copy at each end (4 GB/s each), where a device that
// shares its node's memory copies nothing, so the guess may be several
// times too slow.
constexpr double kTryDirectWithin = 4;

bool overlap(ByteRange a, ByteRange b) { return a.offset < b.end() && b.offset < a.end(); }

}  // namespace

void LearnedLink::record(std::size_t bytes, double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds)) return;
  double x = static_cast<double>(bytes), y = seconds;
  // Weighted by 1 / seconds^2, the fit minimizes relative errors: a small
  // transfer's latency counts as much as a large one's bandwidth, which a
  // plain fit would drown in the large transfers' noise.
  double w = 1 / (y * y);
  weight_ *= kKeep;
  cxx_ *= kKeep;
  cxy_ *= kKeep;
  weight_ += w;
  double dx = x - mean_x_;
  mean_x_ += w / weight_ * dx;
  mean_y_ += w / weight_ * (y - mean_y_);
  cxx_ += w * dx * (x - mean_x_);
  cxy_ += w * dx * (y - mean_y_);
  ++samples_;
  largest_ = std::max(largest_, bytes);

  double spread = kMinSpread * mean_x_;
  if (samples_ >= 2 && cxx_ / weight_ > spread * spread) {
    double slope = cxy_ / cxx_;
    if (slope > 0) {
      estimate_.bandwidth = 1 / slope;
      estimate_.latency = std::max(0.0, mean_y_ - slope * mean_x_);
      return;
    }
  }
  // Samples of about one size (or too noisy for a slope): correct the term
  // that dominates at that size.
  double moving = mean_x_ / estimate_.bandwidth;
  if (estimate_.latency >= moving) estimate_.latency = std::max(0.0, mean_y_ - moving);
  else estimate_.bandwidth = mean_x_ / std::max(mean_y_ - estimate_.latency, 0.1 * mean_y_);
}

TransferPlanner::TransferPlanner(std::size_t devices, LinkEstimate host_link)
    : host_(devices), site_(devices + 1), arrives_at_(devices + 1, 0.0) {
  if (devices + 1 > LocationSet::kCapacity) throw std::invalid_argument("more locations than a LocationSet holds");
  for (Location l = 0; l < site_.size(); ++l) site_[l] = l;
  for (Location d = 0; d < devices; ++d) {
    links_.emplace(Key{d, host_}, LearnedLink(host_link));
    links_.emplace(Key{host_, d}, LearnedLink(host_link));
  }
}

void TransferPlanner::check_location(Location l) const {
  if (l >= locations()) throw std::out_of_range("location out of range");
}

void TransferPlanner::add_link(Location src, Location dst, LinkEstimate guess) {
  check_location(src);
  check_location(dst);
  if (src == dst) throw std::invalid_argument("a link joins two locations");
  links_.insert_or_assign(Key{src, dst}, LearnedLink(guess));
}

void TransferPlanner::add_unmeasured_link(Location src, Location dst) {
  if (src == host_ || dst == host_) throw std::invalid_argument("an unmeasured link joins two devices");
  add_link(src, dst, LinkEstimate{});
  unmeasured_.insert(Key{src, dst});
}

double TransferPlanner::seconds(Location src, Location dst, const LearnedLink &l, std::size_t bytes) const {
  if (l.samples() == 0 && unmeasured_.count(Key{src, dst})) {
    const LearnedLink *up = find(src, host_), *down = find(host_, dst);
    if (up && down) return up->estimate().seconds(bytes) + down->estimate().seconds(bytes);
  }
  return l.estimate().seconds(bytes);
}

void TransferPlanner::set_site(Location l, std::size_t site) {
  check_location(l);
  site_[l] = site;
}

double TransferPlanner::reserve(Location src, Location dst, std::size_t bytes, double now) {
  const LearnedLink *l = find(src, dst);
  if (!l) return 0;
  double s = seconds(src, dst, *l, bytes);
  arrives_at_[dst] = std::max(arrives_at_[dst], now + backlog(src, dst) + s);
  for (const Key &queue : queues_of(src, dst)) {
    backlog_[queue] += s;
    ++joined_[queue];
  }
  return s;
}

std::uint64_t TransferPlanner::joined(Location src, Location dst) const {
  std::uint64_t n = 0;
  for (const Key &queue : queues_of(src, dst))
    if (auto it = joined_.find(queue); it != joined_.end()) n += it->second;
  return n;
}

void TransferPlanner::unreserve(Location src, Location dst, double seconds) {
  for (const Key &queue : queues_of(src, dst)) {
    auto it = backlog_.find(queue);
    if (it == backlog_.end()) continue;
    it->second -= seconds;
    if (it->second <= 1e-12) backlog_.erase(it);
  }
}

TransferPlanner::Queues TransferPlanner::queues_of(Location src, Location dst) const {
  // Ports answer to keys no pair of sites has: no site number reaches
  // these (there are fewer sites than locations).
  constexpr std::size_t kOut = static_cast<std::size_t>(-1), kIn = static_cast<std::size_t>(-2);
  const std::size_t a = site_[src], b = site_[dst];
  if (a == b || (!behind_network_.count(a) && !behind_network_.count(b))) return {{Key{a, b}}, 1};
  return {{Key{a, kOut}, Key{kIn, b}}, 2};
}

double TransferPlanner::backlog(Location src, Location dst) const {
  double most = 0;
  for (const Key &queue : queues_of(src, dst))
    if (auto it = backlog_.find(queue); it != backlog_.end()) most = std::max(most, it->second);
  return most;
}

const LearnedLink *TransferPlanner::find(Location src, Location dst) const {
  auto it = links_.find(Key{src, dst});
  return it == links_.end() ? nullptr : &it->second;
}

bool TransferPlanner::has_link(Location src, Location dst) const { return find(src, dst) != nullptr; }

LinkEstimate TransferPlanner::link(Location src, Location dst) const {
  const LearnedLink *l = find(src, dst);
  if (!l) throw std::out_of_range("no link between these locations");
  return l->estimate();
}

std::size_t TransferPlanner::samples(Location src, Location dst) const {
  const LearnedLink *l = find(src, dst);
  return l ? l->samples() : 0;
}

void TransferPlanner::record(Location src, Location dst, std::size_t bytes, double seconds) {
  auto it = links_.find(Key{src, dst});
  if (it != links_.end()) it->second.record(bytes, seconds);
}

TransferPlan TransferPlanner::plan(Location dst, std::span<const MissingRange> missing, LocationSet arriving,
                                   double now) const {
  check_location(dst);
  TransferPlan out;
  // When each link of the plan is free again: after the transfers already
  // under way between the same sites, then this plan's own.
  std::map<Key, double> busy;
  auto free_at = [&](Location src, Location dst) -> double & {
    auto [it, fresh] = busy.try_emplace(Key{src, dst}, 0.0);
    if (fresh) it->second = backlog(src, dst);
    return it->second;
  };
  for (const MissingRange &piece : missing) {
    if (piece.holders.contains(dst) || piece.range.length == 0) continue;
    // Best route so far: its finish time, then fewer hops, then the host
    // copy (reading it takes no device's memory or link; visited first),
    // then a device whose copies do not compete with its commands, then
    // the lowest device holder break ties.
    // `score`: what routes are compared by (the finish time, but for an
    // untried direct link's rival through the host, see plan()).
    double best_score = std::numeric_limits<double>::infinity(), best_finish = 0, best_at_host = 0;
    std::size_t best_hops = 0;
    TransferStep first{}, second{};
    auto consider = [&](Location src, std::size_t hops, double finish, double at_host, double score) {
      if (score < best_score || (score == best_score && hops < best_hops)) {
        best_score = score;
        best_finish = finish;
        best_hops = hops;
        best_at_host = at_host;
        first = {src, hops == 1 ? dst : host_, piece.range};
        second = {host_, dst, piece.range};
      }
    };
    std::vector<Location> holders;
    if (piece.holders.contains(host_)) holders.push_back(host_);
    for (bool competing : {false, true})
      for (Location src : piece.holders)
        if (src != host_ && competing_.contains(src) == competing) holders.push_back(src);
    for (Location src : holders) {
      check_location(src);
      const double ready = arriving.contains(src) ? arrival(src, now) : 0;  // its bytes there
      const LearnedLink *direct = find(src, dst);
      if (direct) {
        const double finish = std::max(free_at(src, dst), ready) + seconds(src, dst, *direct, piece.range.length);
        consider(src, 1, finish, 0, finish);
      }
      // Through the host copy, even beside a direct link: that link may be
      // slow (a network) where the host links are not.
      const LearnedLink *up = src == host_ ? nullptr : find(src, host_);
      const LearnedLink *down = dst == host_ ? nullptr : find(host_, dst);
      if (up && down) {
        double at_host = std::max(free_at(src, host_), ready) + up->estimate().seconds(piece.range.length);
        const double finish = std::max(free_at(host_, dst), at_host) + down->estimate().seconds(piece.range.length);
        const bool untried = direct && 2 * direct->largest() < piece.range.length;
        consider(src, 2, finish, at_host, untried ? kTryDirectWithin * finish : finish);
      }
    }
    if (best_hops == 0) {
      out.unplanned.push_back(piece);
      continue;
    }
    out.steps.push_back(first);
    if (best_hops == 2) {
      free_at(first.src, host_) = best_at_host;
      free_at(host_, dst) = best_finish;
      out.steps.push_back(second);
    } else {
      free_at(first.src, dst) = best_finish;
    }
  }
  out.seconds = predict(out.steps);
  return out;
}

double TransferPlanner::predict(std::span<const TransferStep> steps) const {
  std::map<Key, double> busy;
  std::vector<double> done(steps.size());
  double last = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const TransferStep &s = steps[i];
    const LearnedLink *l = find(s.src, s.dst);
    if (!l) throw std::invalid_argument("a step on a link that does not exist");
    // Plans are a few steps per missing piece: a quadratic scan for the
    // steps that bring this one's bytes to its source is cheap enough.
    double ready = 0;
    for (std::size_t j = 0; j < i; ++j)
      if (steps[j].dst == s.src && overlap(steps[j].range, s.range)) ready = std::max(ready, done[j]);
    double &link_free = busy[{s.src, s.dst}];
    done[i] = std::max(link_free, ready) + seconds(s.src, s.dst, *l, s.range.length);
    link_free = done[i];
    last = std::max(last, done[i]);
  }
  return last;
}

}  // namespace unicl
