// Routes, link models and predictions of the transfer planner
// (src/memory/transfer_planner.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <ostream>
#include <vector>

#include "memory/transfer_planner.hpp"

using namespace unicl;

namespace {

constexpr std::size_t kMiB = 1 << 20;
// Three devices and the host (location 3); every host link: 10 us, 1 GB/s.
constexpr LinkEstimate kHostLink{10e-6, 1e9};

std::vector<MissingRange> piece(ByteRange r, std::initializer_list<Location> holders) {
  LocationSet s;
  for (Location l : holders) s.insert(l);
  return {{r, s}};
}

}  // namespace

namespace unicl {
// Readable failures.
std::ostream &operator<<(std::ostream &os, const TransferStep &s) {
  return os << s.src << " -> " << s.dst << " [" << s.range.offset << ", +" << s.range.length << ')';
}
}  // namespace unicl

TEST_CASE("The local model: every device linked to and from the host, and only that", "[transfer_planner]") {
  TransferPlanner p(3, kHostLink);
  CHECK(p.host() == 3);
  CHECK(p.locations() == 4);
  for (Location d = 0; d < 3; ++d) {
    CHECK(p.has_link(d, p.host()));
    CHECK(p.has_link(p.host(), d));
    CHECK(p.link(d, p.host()).latency == kHostLink.latency);
  }
  CHECK_FALSE(p.has_link(0, 1));
  CHECK_THROWS_AS(p.link(0, 1), std::out_of_range);
  CHECK_THROWS_AS(p.add_link(0, 0, {}), std::invalid_argument);
  CHECK_THROWS_AS(p.add_link(0, 4, {}), std::out_of_range);
  CHECK_THROWS_AS(TransferPlanner(LocationSet::kCapacity), std::invalid_argument);
  CHECK(kHostLink.seconds(0) == 0);
  CHECK(kHostLink.seconds(1000) == Approx(10e-6 + 1e-6));
}

TEST_CASE("Bytes held by the host move in one step", "[transfer_planner]") {
  TransferPlanner p(3, kHostLink);
  TransferPlan plan = p.plan(1, piece({4096, kMiB}, {p.host()}));
  CHECK(plan.steps == std::vector<TransferStep>{{p.host(), 1, {4096, kMiB}}});
  CHECK(plan.seconds == Approx(kHostLink.seconds(kMiB)));
  CHECK(plan.unplanned.empty());
  // And back: a device's bytes to the host.
  plan = p.plan(p.host(), piece({0, 100}, {2}));
  CHECK(plan.steps == std::vector<TransferStep>{{2, p.host(), {0, 100}}});
}

TEST_CASE("Without a direct link, device to device goes through the host", "[transfer_planner]") {
  TransferPlanner p(3, kHostLink);
  TransferPlan plan = p.plan(1, piece({0, kMiB}, {0}));
  CHECK(plan.steps == std::vector<TransferStep>{{0, p.host(), {0, kMiB}}, {p.host(), 1, {0, kMiB}}});
  CHECK(plan.seconds == Approx(2 * kHostLink.seconds(kMiB)));
}

TEST_CASE("A direct link is used when it is the faster route", "[transfer_planner]") {
  TransferPlanner p(3, kHostLink);
  p.add_link(0, 1, {5e-6, 10e9});
  TransferPlan plan = p.plan(1, piece({0, kMiB}, {0}));
  CHECK(plan.steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
  CHECK(plan.seconds == Approx(5e-6 + kMiB / 10e9));
  // The link is one way: 1 -> 0 still goes through the host.
  CHECK(p.plan(0, piece({0, kMiB}, {1})).steps.size() == 2);
  // A direct link slower than both host hops together is passed over.
  p.add_link(0, 2, {0.5, 1e6});
  CHECK(p.plan(2, piece({0, kMiB}, {0})).steps.size() == 2);
  // Equal times: the direct route, one transfer instead of two.
  TransferPlanner q(2, {0, 1e9});
  q.add_link(0, 1, {0, 0.5e9});
  CHECK(q.plan(1, piece({0, kMiB}, {0})).steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
}

TEST_CASE("The cheapest holder is the source", "[transfer_planner]") {
  TransferPlanner p(3, kHostLink);
  // Held by the host and device 0: the host is one hop from 2, device 0 two.
  CHECK(p.plan(2, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{p.host(), 2, {0, kMiB}}});
  // Held by devices 0 and 1: 1's link to the host is faster.
  p.add_link(1, p.host(), {1e-6, 8e9});
  TransferPlan plan = p.plan(2, piece({0, kMiB}, {0, 1}));
  CHECK(plan.steps == std::vector<TransferStep>{{1, p.host(), {0, kMiB}}, {p.host(), 2, {0, kMiB}}});
  CHECK(plan.seconds == Approx(1e-6 + kMiB / 8e9 + kHostLink.seconds(kMiB)));
  // A fast direct link from 0 beats both.
  p.add_link(0, 2, {1e-6, 20e9});
  CHECK(p.plan(2, piece({0, kMiB}, {0, 1})).steps == std::vector<TransferStep>{{0, 2, {0, kMiB}}});
}

TEST_CASE("Equal routes: the host copy is read rather than a device's", "[transfer_planner]") {
  // Devices of other nodes, linked directly as fast as to the host: reading
  // the host copy leaves device 0's memory and link to its own work.
  TransferPlanner p(2, kHostLink);
  p.add_link(0, 1, kHostLink);
  CHECK(p.plan(1, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{p.host(), 1, {0, kMiB}}});
}

TEST_CASE("Equal routes: a device whose copies compete with its commands is read last", "[transfer_planner]") {
  // Devices 0 (a CPU device) and 1 both hold the bytes device 2 needs, over
  // links equally fast: 1 is read, not 0, whose copies would wait for its
  // kernels; alone, 0 is still read.
  TransferPlanner p(3, kHostLink);
  const LinkEstimate node{1e-6, 20e9};
  p.add_link(0, 2, node);
  p.add_link(1, 2, node);
  CHECK(p.plan(2, piece({0, kMiB}, {0, 1})).steps == std::vector<TransferStep>{{0, 2, {0, kMiB}}});
  p.set_copies_compete(0);
  CHECK(p.plan(2, piece({0, kMiB}, {0, 1})).steps == std::vector<TransferStep>{{1, 2, {0, kMiB}}});
  CHECK(p.plan(2, piece({0, kMiB}, {0})).steps == std::vector<TransferStep>{{0, 2, {0, kMiB}}});
  // A faster route from it still wins.
  p.add_link(0, 2, {1e-6, 40e9});
  CHECK(p.plan(2, piece({0, kMiB}, {0, 1})).steps == std::vector<TransferStep>{{0, 2, {0, kMiB}}});
}

TEST_CASE("An unmeasured link is as fast as the route through the host until timed", "[transfer_planner]") {
  TransferPlanner p(2, kHostLink);
  p.add_unmeasured_link(0, 1);
  CHECK_THROWS_AS(p.add_unmeasured_link(0, p.host()), std::invalid_argument);
  // Held by the host too: one hop from the host beats the two a guess equals.
  CHECK(p.plan(1, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{p.host(), 1, {0, kMiB}}});
  // Held by device 0 alone: the direct copy, one step instead of two.
  TransferPlan only = p.plan(1, piece({0, kMiB}, {0}));
  CHECK(only.steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
  CHECK(only.seconds == Approx(2 * kHostLink.seconds(kMiB)));
  // The host links learnt slower: so is the guess.
  for (int i = 0; i < 4; ++i) p.record(p.host(), 1, kMiB, 1e-2), p.record(p.host(), 1, 2 * kMiB, 2e-2);
  CHECK(p.plan(1, piece({0, kMiB}, {0})).seconds == Approx(kHostLink.seconds(kMiB) + p.link(p.host(), 1).seconds(kMiB)));
  // Timed: its own estimate from then on.
  p.record(0, 1, kMiB, 1e-4);
  CHECK(p.plan(1, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
}

TEST_CASE("A direct link never timed at a size is tried unless the host route is 4 times as fast", "[transfer_planner]") {
  // Two devices of two nodes: their direct link's first guess a bit slower
  // than both host hops together. Were the host route taken on the guess,
  // the direct link would never be timed and never taken.
  TransferPlanner p(2, {10e-6, 4e9});
  p.add_link(0, 1, {30e-6, 1.5e9});
  CHECK(p.plan(1, piece({0, 4096}, {0})).steps == std::vector<TransferStep>{{0, 1, {0, 4096}}});
  CHECK(p.plan(1, piece({0, kMiB}, {0})).steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
  // Its prediction is still the direct link's own.
  CHECK(p.plan(1, piece({0, kMiB}, {0})).seconds == Approx(30e-6 + kMiB / 1.5e9));
  // Timed at 1 MiB as the guess said: from then on, up to 2 MiB, the faster
  // route through the host wins; past twice its largest timed size the
  // direct link is tried again.
  p.record(0, 1, kMiB, 30e-6 + kMiB / 1.5e9);
  CHECK(p.plan(1, piece({0, kMiB}, {0})).steps.size() == 2);
  CHECK(p.plan(1, piece({0, 2 * kMiB}, {0})).steps.size() == 2);
  CHECK(p.plan(1, piece({0, 4 * kMiB}, {0})).steps.size() == 1);
  // A route through the host 4 times as fast or more is taken anyway.
  TransferPlanner q(2, {10e-6, 4e9});
  q.add_link(0, 1, {30e-6, 0.5e9});
  CHECK(q.plan(1, piece({0, kMiB}, {0})).steps.size() == 1);  // 2.1 ms against 0.54 ms: tried
  q.add_link(0, 1, {30e-6, 0.4e9});
  CHECK(q.plan(1, piece({0, kMiB}, {0})).steps.size() == 2);
  // A holder one hop away competes as before: the host copy, equal to the
  // direct link, is read.
  TransferPlanner r(2, {10e-6, 4e9});
  r.add_link(0, 1, {10e-6, 4e9});
  CHECK(r.plan(1, piece({0, kMiB}, {0, r.host()})).steps == std::vector<TransferStep>{{r.host(), 1, {0, kMiB}}});
}

TEST_CASE("Transfers under way between two sites delay the next ones there", "[transfer_planner]") {
  // Devices 0 and 1 on one site (a node), 2 elsewhere; direct links 0 -> 1
  // and 2 -> 1 as fast as the host's.
  TransferPlanner p(3, kHostLink);
  p.set_site(0, 10);
  p.set_site(1, 10);
  p.add_link(0, 1, kHostLink);
  p.add_link(2, 1, kHostLink);
  // Nothing under way: the host copy.
  CHECK(p.plan(1, piece({0, kMiB}, {0, 2, p.host()})).steps == std::vector<TransferStep>{{p.host(), 1, {0, kMiB}}});
  // Copies from the host to device 0 under way: the link from the host to
  // the site is busy, and device 0's copy, on the same site, is the way.
  double reserved = p.reserve(p.host(), 0, 4 * kMiB);
  CHECK(reserved == Approx(kHostLink.seconds(4 * kMiB)));
  CHECK(p.plan(1, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
  // Done: the host again.
  p.unreserve(p.host(), 0, reserved);
  CHECK(p.plan(1, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{p.host(), 1, {0, kMiB}}});
}

TEST_CASE("Transfers from the host to every node share the host's network interface", "[transfer_planner]") {
  // Devices 0 and 1 on node site 10, devices 2 and 3 on node site 11, all
  // behind the network; a copy within a node as fast as the host's link.
  TransferPlanner p(4, kHostLink);
  p.set_site(0, 10), p.set_site(1, 10), p.set_site(2, 11), p.set_site(3, 11);
  p.set_behind_network(10), p.set_behind_network(11);
  p.add_link(2, 3, kHostLink);
  // A copy to node 10 under way delays one to node 11 too, so device 3
  // takes its bytes from device 2, on its own node, already on their way.
  const double reserved = p.reserve(p.host(), 0, 4 * kMiB);
  p.reserve(p.host(), 2, kMiB);
  CHECK(p.plan(3, piece({0, kMiB}, {2, p.host()})).steps == std::vector<TransferStep>{{2, 3, {0, kMiB}}});
  // Not the way back: transfers into the host queue apart from those out.
  CHECK(p.plan(p.host(), piece({0, kMiB}, {0})).seconds == Approx(kHostLink.seconds(kMiB)));
  // A site not behind the network keeps its own queue.
  TransferPlanner q(2, kHostLink);
  q.set_site(0, 10), q.set_site(1, 11);
  q.set_behind_network(10);
  q.reserve(q.host(), 0, 4 * kMiB);
  CHECK(q.plan(1, piece({0, kMiB}, {q.host()})).seconds == Approx(kHostLink.seconds(kMiB)));
  p.unreserve(p.host(), 0, reserved);
}

TEST_CASE("A holder whose bytes are still on their way is a source only from their arrival on", "[transfer_planner]") {
  // Device 0 is receiving 16 MiB from the host (16.8 ms, reserved at 0 s),
  // and has a fast direct link to device 1 (10 GB/s): taken as a holder
  // already, it would be the source (1.7 ms); counted from its predicted
  // arrival, the host, whose link to device 1 is free, is sooner.
  TransferPlanner p(3, kHostLink);
  p.add_link(0, 1, {5e-6, 10e9});
  const double reserved = p.reserve(p.host(), 0, 16 * kMiB, 0.0);
  CHECK(p.arrival(0, 0.0) == Approx(reserved));
  CHECK(p.arrival(0, 0.010) == Approx(reserved - 0.010));
  const auto held = piece({0, 16 * kMiB}, {0, p.host()});
  CHECK(p.plan(1, held).steps == std::vector<TransferStep>{{0, 1, {0, 16 * kMiB}}});
  const LocationSet arriving = LocationSet::only(0);
  CHECK(p.plan(1, held, arriving, 0.0).steps == std::vector<TransferStep>{{p.host(), 1, {0, 16 * kMiB}}});
  // Past its predicted arrival (its end maybe not yet heard of), device 0
  // is the source again.
  CHECK(p.arrival(0, 0.020) == 0);
  CHECK(p.plan(1, held, arriving, 0.020).steps == std::vector<TransferStep>{{0, 1, {0, 16 * kMiB}}});
  // A transfer joining a busy queue arrives after what is ahead of it.
  const double more = p.reserve(p.host(), 0, kMiB, 0.0);
  CHECK(p.arrival(0, 0.0) == Approx(reserved + more));
  p.unreserve(p.host(), 0, reserved), p.unreserve(p.host(), 0, more);
}

TEST_CASE("A queue tells its backlog and how many transfers joined it", "[transfer_planner]") {
  // A transfer's sample times its link only when it had the queues to
  // itself: none before it (backlog 0 as it joins) and none after (the
  // count the same at its end). Nodes 10 and 11 share the host's network
  // interface.
  TransferPlanner p(3, kHostLink);
  p.set_site(0, 10), p.set_site(1, 11);
  p.set_behind_network(10), p.set_behind_network(11);
  CHECK(p.backlog(p.host(), 0) == 0);
  CHECK(p.joined(p.host(), 0) == 0);
  const double first = p.reserve(p.host(), 0, 4 * kMiB);
  const auto after_first = p.joined(p.host(), 0);
  CHECK(after_first > 0);
  // To the other node: the host's interface out, which now holds the first.
  CHECK(p.backlog(p.host(), 1) == Approx(first));
  const double second = p.reserve(p.host(), 1, kMiB);
  CHECK(p.joined(p.host(), 0) > after_first);
  CHECK(p.backlog(p.host(), 0) == Approx(first + second));
  // Device 2 (not behind the network) and the way back queue apart.
  CHECK(p.joined(p.host(), 2) == 0);
  CHECK(p.joined(0, p.host()) == 0);
  // Ends do not undo joins: a transfer that saw another join stays shared.
  const auto before_ends = p.joined(p.host(), 0);
  p.unreserve(p.host(), 0, first);
  p.unreserve(p.host(), 1, second);
  CHECK(p.backlog(p.host(), 0) == 0);
  CHECK(p.joined(p.host(), 0) == before_ends);
}

TEST_CASE("A copy between nodes and one through the host leave the same node's network interface", "[transfer_planner]") {
  // Devices 0 (node site 10) and 1 (node site 11), linked directly as fast
  // as through the host. A copy from node 10 to node 11 under way keeps
  // node 10's interface busy: the next copy from there is not planned up
  // to the host and down again beside it as if that were free.
  TransferPlanner p(2, kHostLink);
  p.set_site(0, 10), p.set_site(1, 11);
  p.set_behind_network(10), p.set_behind_network(11);
  p.add_link(0, 1, kHostLink);
  const double reserved = p.reserve(0, 1, 4 * kMiB);
  CHECK(p.backlog(0, p.host()) == Approx(reserved));  // node 10 out
  CHECK(p.backlog(p.host(), 1) == Approx(reserved));  // node 11 in
  CHECK(p.plan(1, piece({0, kMiB}, {0})).steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
  p.unreserve(0, 1, reserved);
  CHECK(p.backlog(0, p.host()) == 0);
}

TEST_CASE("Pieces spread over holders when one link would be busy", "[transfer_planner]") {
  // Two nodes linked directly to a third, equally fast.
  TransferPlanner p(3, kHostLink);
  p.add_link(0, 2, {1e-6, 2e9});
  p.add_link(1, 2, {1e-6, 2e9});
  std::vector<MissingRange> missing = {{{0, kMiB}, LocationSet::first(2)}, {{2 * kMiB, kMiB}, LocationSet::first(2)}};
  TransferPlan plan = p.plan(2, missing);
  CHECK(plan.steps == std::vector<TransferStep>{{0, 2, {0, kMiB}}, {1, 2, {2 * kMiB, kMiB}}});
  CHECK(plan.seconds == Approx(1e-6 + kMiB / 2e9));
}

TEST_CASE("Pieces held nowhere are reported, pieces already there skipped", "[transfer_planner]") {
  TransferPlanner p(2, kHostLink);
  std::vector<MissingRange> missing = {{{0, 10}, {}}, {{10, 10}, LocationSet::only(1)}, {{20, 0}, LocationSet::only(0)}};
  TransferPlan plan = p.plan(1, missing);
  CHECK(plan.steps.empty());
  CHECK(plan.unplanned == std::vector<MissingRange>{{{0, 10}, {}}});
  CHECK(plan.seconds == 0);
  CHECK_THROWS_AS(p.plan(3, missing), std::out_of_range);
}

TEST_CASE("Prediction: one link at a time, links at once, hops in order", "[transfer_planner]") {
  TransferPlanner p(3, kHostLink);
  double one = kHostLink.seconds(kMiB);
  CHECK(p.predict({}) == 0);
  // Two transfers on the same link run one after the other.
  std::vector<TransferStep> same = {{p.host(), 0, {0, kMiB}}, {p.host(), 0, {kMiB, kMiB}}};
  CHECK(p.predict(same) == Approx(2 * one));
  // On different links, at once.
  std::vector<TransferStep> apart = {{p.host(), 0, {0, kMiB}}, {p.host(), 1, {0, kMiB}}};
  CHECK(p.predict(apart) == Approx(one));
  // A hop out of the host waits for the hop that brings the bytes in, but
  // not for unrelated bytes.
  std::vector<TransferStep> chain = {{0, p.host(), {0, kMiB}}, {p.host(), 1, {0, kMiB}}, {p.host(), 2, {kMiB, kMiB}}};
  CHECK(p.predict(chain) == Approx(2 * one));
  std::vector<TransferStep> broken = {{0, 1, {0, 1}}};
  CHECK_THROWS_AS(p.predict(broken), std::invalid_argument);
  // A plan's own time is its prediction.
  std::vector<MissingRange> missing = {{{0, kMiB}, LocationSet::only(0)}, {{kMiB, 4 * kMiB}, LocationSet::only(p.host())},
                                       {{8 * kMiB, kMiB}, LocationSet::only(2)}};
  TransferPlan plan = p.plan(1, missing);
  CHECK(plan.steps.size() == 5);
  CHECK(plan.seconds == Approx(p.predict(plan.steps)));
  // Host -> 1 carries 1 + 4 + 1 MiB, after the first MiB reached the host.
  CHECK(plan.seconds == Approx(one + kHostLink.seconds(kMiB) + kHostLink.seconds(4 * kMiB) + one));
}

TEST_CASE("Link models learn latency and bandwidth from timed transfers", "[transfer_planner]") {
  const LinkEstimate truth{50e-6, 2.5e9};
  SECTION("two sizes give both terms") {
    LearnedLink link({});
    for (int i = 0; i < 6; ++i) {
      link.record(4096, truth.seconds(4096));
      link.record(64 * kMiB, truth.seconds(64 * kMiB));
    }
    CHECK(link.samples() == 12);
    CHECK(link.estimate().latency == Approx(truth.latency).epsilon(1e-6));
    CHECK(link.estimate().bandwidth == Approx(truth.bandwidth).epsilon(1e-6));
  }
  SECTION("small transfers alone correct the latency and keep the bandwidth") {
    LearnedLink link({});
    for (int i = 0; i < 5; ++i) link.record(256, truth.seconds(256));
    CHECK(link.estimate().bandwidth == LinkEstimate{}.bandwidth);
    CHECK(link.estimate().latency == Approx(truth.latency + 256 / truth.bandwidth - 256 / LinkEstimate{}.bandwidth));
  }
  SECTION("large transfers alone correct the bandwidth and keep the latency") {
    LearnedLink link({});
    for (int i = 0; i < 5; ++i) link.record(256 * kMiB, truth.seconds(256 * kMiB));
    CHECK(link.estimate().latency == LinkEstimate{}.latency);
    CHECK(link.estimate().seconds(256 * kMiB) == Approx(truth.seconds(256 * kMiB)));
    CHECK(link.estimate().bandwidth == Approx(truth.bandwidth).epsilon(0.01));
  }
  SECTION("noisy samples land near the truth") {
    LearnedLink link({});
    const double noise[] = {1.03, 0.98, 1.01, 0.97, 1.02, 0.99};
    for (int i = 0; i < 60; ++i) {
      std::size_t bytes = (std::size_t{1} << (10 + i % 18));
      link.record(bytes, truth.seconds(bytes) * noise[i % 6]);
    }
    CHECK(link.estimate().bandwidth == Approx(truth.bandwidth).epsilon(0.1));
    CHECK(link.estimate().seconds(kMiB) == Approx(truth.seconds(kMiB)).epsilon(0.1));
  }
  SECTION("the model follows a link that slowed down") {
    LearnedLink link({});
    for (int i = 0; i < 20; ++i) {
      link.record(kMiB, truth.seconds(kMiB));
      link.record(32 * kMiB, truth.seconds(32 * kMiB));
    }
    const LinkEstimate slower{truth.latency, truth.bandwidth / 4};
    for (int i = 0; i < 40; ++i) {
      link.record(kMiB, slower.seconds(kMiB));
      link.record(32 * kMiB, slower.seconds(32 * kMiB));
    }
    CHECK(link.estimate().bandwidth == Approx(slower.bandwidth).epsilon(0.05));
  }
  SECTION("samples that cannot be right are ignored") {
    LearnedLink link(truth);
    link.record(kMiB, 0);
    link.record(kMiB, -1);
    link.record(kMiB, std::nan(""));
    link.record(kMiB, std::numeric_limits<double>::infinity());
    CHECK(link.samples() == 0);
    CHECK(link.estimate().latency == truth.latency);
    CHECK(link.estimate().bandwidth == truth.bandwidth);
  }
}

TEST_CASE("Recorded transfers change the routes the planner picks", "[transfer_planner]") {
  TransferPlanner p(2, kHostLink);
  p.add_link(0, 1, kHostLink);  // as fast as a host link at first: the host copy is read
  CHECK(p.plan(1, piece({0, kMiB}, {0, p.host()})).steps == std::vector<TransferStep>{{p.host(), 1, {0, kMiB}}});
  // The direct link turns out fast: device 0 becomes the source.
  for (int i = 0; i < 4; ++i) {
    p.record(0, 1, 4096, 1e-6);
    p.record(0, 1, 16 * kMiB, 1e-3);
  }
  CHECK(p.samples(0, 1) == 8);
  CHECK(p.link(0, 1).bandwidth > 1e10);
  TransferPlan plan = p.plan(1, piece({0, kMiB}, {0, p.host()}));
  CHECK(plan.steps == std::vector<TransferStep>{{0, 1, {0, kMiB}}});
  CHECK(plan.seconds == Approx(p.link(0, 1).seconds(kMiB)));
  p.record(1, 0, kMiB, 1.0);  // no such link: ignored
  CHECK(p.samples(1, 0) == 0);
  // Predictions of an earlier plan follow the model too.
  std::vector<TransferStep> direct = {{0, 1, {0, kMiB}}};
  CHECK(p.predict(direct) == Approx(p.link(0, 1).seconds(kMiB)));
}

TEST_CASE("Planner and validity together: two halves gathered on the host", "[transfer_planner]") {
  TransferPlanner p(2, kHostLink);
  RangeValidity v(2 * kMiB, p.locations(), LocationSet::only(p.host()));
  v.write(0, {0, kMiB});
  v.write(1, {kMiB, kMiB});
  std::vector<MissingRange> missing = v.missing(p.host(), {0, 2 * kMiB});
  TransferPlan plan = p.plan(p.host(), missing);
  CHECK(plan.steps == std::vector<TransferStep>{{0, p.host(), {0, kMiB}}, {1, p.host(), {kMiB, kMiB}}});
  CHECK(plan.seconds == Approx(kHostLink.seconds(kMiB)));  // on two links at once
  for (const TransferStep &s : plan.steps) v.copy(s.src, s.dst, s.range);
  CHECK(v.valid_at(p.host(), {0, 2 * kMiB}));
  // Device 0 now lacks only device 1's half, which the host holds too.
  plan = p.plan(0, v.missing(0, {0, 2 * kMiB}));
  CHECK(plan.steps == std::vector<TransferStep>{{p.host(), 0, {kMiB, kMiB}}});
}
