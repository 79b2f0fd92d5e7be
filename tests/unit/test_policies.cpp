// Every scheduling policy (schedulers/*.cpp, made by name through
// registry.cpp) against a view whose answers the test sets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../../schedulers/dispatch_window.hpp"
#include "fake_view.hpp"

using unicl::make_policy;
using unicl::policy_names;
using unit::drain;
using unit::drain_running;
using unit::FakeView;
using unit::id_of;
using unit::task;

TEST_CASE("policy_names lists every policy make_policy makes; an unknown name makes none") {
  FakeView view(2);
  CHECK(policy_names() == std::vector<std::string>{"heft", "eager", "ws", "random", "round-robin"});
  for (auto &name : policy_names()) {
    INFO(name);
    CHECK(make_policy(name, view) != nullptr);
  }
  CHECK(make_policy("", view) == nullptr);
  CHECK(make_policy("fifo", view) == nullptr);
  CHECK(make_policy("HEFT", view) == nullptr);
}

TEST_CASE("Every policy counts what is pending and hands each command out once") {
  for (auto &name : policy_names()) {
    INFO(name);
    FakeView view(3);
    auto policy = make_policy(name, view);
    CHECK(policy->pending() == 0);
    for (size_t d = 0; d < 3; ++d) CHECK(policy->pop(d) == nullptr);
    for (int i = 0; i < 12; ++i) policy->push(task(i));
    CHECK(policy->pending() == 12);
    std::multiset<int> popped;
    for (int round = 0; round < 100 && policy->pending() > 0; ++round)
      for (size_t d = 0; d < 3; ++d)
        if (auto t = policy->pop(d)) {
          popped.insert(t->id);
          CHECK(policy->pending() == 12 - popped.size());
        }
    CHECK(policy->pending() == 0);
    CHECK(popped == std::multiset<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  }
}

TEST_CASE("Under every policy a device never gets a command it cannot run") {
  for (auto &name : policy_names()) {
    INFO(name);
    FakeView view(3);
    view.speeds = {1, 4, 2};
    auto policy = make_policy(name, view);
    // Runnable on device 0 only, on 1 and 2, on 2 only, everywhere.
    const std::vector<std::vector<bool>> where = {{true, false, false}, {false, true, true}, {false, false, true}, {}};
    std::map<int, std::vector<bool>> runnable;
    for (int i = 0; i < 40; ++i) {
      runnable[i] = where[i % where.size()];
      policy->push(task(i, {.runnable = runnable[i], .exec = {1e-3, 0.25e-3, 0.5e-3}}));
    }
    size_t popped = 0;
    // Devices ask in an uneven order, as their commands end.
    const std::vector<size_t> askers = {1, 1, 2, 0, 1, 2, 1, 1, 0};
    for (int round = 0; round < 1000 && policy->pending() > 0; ++round) {
      size_t d = askers[round % askers.size()];
      if (auto t = policy->pop(d)) {
        INFO("command " << t->id << " on device " << d);
        CHECK((runnable[t->id].empty() || runnable[t->id][d]));
        ++popped;
      }
    }
    CHECK(popped == 40);
  }
}

TEST_CASE("heft places a command on the device where it is predicted to finish first") {
  FakeView view(2);
  auto heft = make_policy("heft", view);

  SECTION("the faster device when both are free") {
    heft->push(task(1, {.exec = {3.0, 1.0}}));
    CHECK(drain(*heft, 0).empty());
    CHECK(drain(*heft, 1) == std::vector<int>{1});
  }
  SECTION("the slower device when the faster one is busy long enough") {
    view.busy = {0, 5};
    heft->push(task(1, {.exec = {3.0, 1.0}}));
    CHECK(drain(*heft, 0) == std::vector<int>{1});
  }
  SECTION("a device whose data must first be moved there finishes later") {
    heft->push(task(1, {.exec = {1.0, 1.0}, .transfer = {0.0, 2.0}}));
    CHECK(drain(*heft, 0) == std::vector<int>{1});
    heft->push(task(2, {.exec = {1.0, 1.0}, .transfer = {2.0, 0.5}}));
    CHECK(drain(*heft, 1) == std::vector<int>{2});
  }
  SECTION("the commands already placed on a device delay the next ones there") {
    for (int i = 0; i < 5; ++i) heft->push(task(i, {.exec = {1.0, 1.5}}));
    // Finishes: 0 on d0 at 1; 1 on d1 at 1.5; 2 on d0 at 2; 3 on d0 at 3
    // (d1 would be 3 too: the first device wins a tie); 4 on d1 at 3.
    CHECK(drain_running(*heft, view, 0) == std::vector<int>{0, 2, 3});
    CHECK(drain_running(*heft, view, 1) == std::vector<int>{1, 4});
  }
  SECTION("an idle clock in the past does not make a device look free earlier") {
    view.clock = 10;
    view.busy = {4, 12};
    heft->push(task(1, {.exec = {1.5, 1.0}}));  // d0 from 10: 11.5; d1 from 12: 13
    CHECK(drain(*heft, 0) == std::vector<int>{1});
  }
}

TEST_CASE("heft weighs a command whose predecessors have not ended by when each device could start it") {
  FakeView view(2);
  auto heft = make_policy("heft", view);
  CHECK(heft->places_ahead());
  for (const char *other : {"eager", "ws", "random", "round-robin"}) CHECK_FALSE(make_policy(other, view)->places_ahead());
  view.busy = {1.0, 0.0};  // d0 runs what the command follows, until 1
  SECTION("behind its predecessor on the device that has its bytes") {
    // d0: ready at 1, finishes at 2; d1: the end is learnt at 1.3, the
    // bytes take 0.2: finishes at 2.5 (an idle d1 without ready_at: 1.2).
    heft->push(task(1, {.exec = {1.0, 1.0}, .transfer = {0.0, 0.2}, .ready = {1.0, 1.3}}));
    CHECK(drain(*heft, 0) == std::vector<int>{1});
  }
  SECTION("elsewhere when that device has more queued than the hand-off costs") {
    for (int i = 0; i < 2; ++i) heft->push(task(i, {.exec = {1.0, 9.0}}));  // both on d0: until 3
    heft->push(task(2, {.exec = {1.0, 1.0}, .transfer = {0.0, 0.2}, .ready = {1.0, 1.3}}));  // d0 4, d1 2.5
    CHECK(drain(*heft, 0) == std::vector<int>{0, 1});
    CHECK(drain(*heft, 1) == std::vector<int>{2});
  }
}

TEST_CASE("heft counts the queued work of devices that share cores together") {
  FakeView view(3);
  view.groups = {0, 0, 2};  // devices 0 and 1 are two views of the same CPU
  auto heft = make_policy("heft", view);
  for (int i = 0; i < 3; ++i) heft->push(task(i, {.exec = {1.0, 1.0, 1.5}}));
  // 0 on d0 (1); then the CPU group is busy until 1, so 1 goes to d2 (1.5);
  // then d0 and d1 would both finish at 2, before d2's 3.
  CHECK(drain_running(*heft, view, 0) == std::vector<int>{0, 2});
  CHECK(drain(*heft, 1).empty());
  CHECK(drain_running(*heft, view, 2) == std::vector<int>{1});
}

TEST_CASE("heft: a device whose queue ran dry takes the command another would run last when it would end it sooner") {
  FakeView view(2);
  auto heft = make_policy("heft", view);
  for (int i = 0; i < 4; ++i) heft->push(task(i, {.exec = {1.0, 1.0}}));  // 0, 2 on d0; 1, 3 on d1
  SECTION("from a device running late: its commands went in longer than predicted") {
    view.busy[0] = 5;
    CHECK(drain_running(*heft, view, 1) == std::vector<int>{1, 3, 2, 0});  // 2 ends at 3 here, 7 there
    CHECK(drain(*heft, 0).empty());
  }
  SECTION("the one of lowest priority there first, not the newest") {
    heft->push(task(4, {.exec = {1.0, 1.0}, .priority = 9}));  // to d0 (its queue ends first), newest there
    view.busy[0] = 5;
    // d0 would run 4 first: d1 takes 2 (lowest, newest of the ties), then 0, then 4.
    CHECK(drain_running(*heft, view, 1) == std::vector<int>{1, 3, 2, 0, 4});
    CHECK(drain(*heft, 0).empty());
  }
  SECTION("not what it would end later than where it is queued") {
    CHECK(drain_running(*heft, view, 1) == std::vector<int>{1, 3});  // 2 ends at 2 on d0, 3 here
    CHECK(drain_running(*heft, view, 0) == std::vector<int>{0, 2});
  }
  SECTION("not one placed ahead, still waiting for what it follows") {
    heft->push(task(4, {.ready = {3.0, 3.0}}));  // to d0 (its queue ends first), last there
    view.busy[0] = 5;
    CHECK(drain_running(*heft, view, 1) == std::vector<int>{1, 3});
    CHECK(drain(*heft, 0) == std::vector<int>{0, 2, 4});
  }
  SECTION("not a command sent to be measured") {
    heft->push(task(4, {.exec = {1.0, -1.0}}));  // to d1, which has no model of it
    view.busy[1] = 5;
    CHECK(drain_running(*heft, view, 0) == std::vector<int>{0, 2});
    CHECK(drain(*heft, 1) == std::vector<int>{1, 3, 4});
  }
  SECTION("not one the device cannot run") {
    heft->push(task(4, {.runnable = {false, true}}));
    view.busy[1] = 5;
    CHECK(drain_running(*heft, view, 0) == std::vector<int>{0, 2});
    CHECK(drain(*heft, 1) == std::vector<int>{1, 3, 4});
  }
}

TEST_CASE("heft sends a kernel with no model on a device there once to measure it") {
  FakeView view(2);
  auto heft = make_policy("heft", view);
  unicl::Task unknown_on_1{.exec = {1e-3, -1}};
  heft->push(task(1, unknown_on_1));
  heft->push(task(2, unknown_on_1));  // the measurement is on the way: placed by estimate
  heft->push(task(3, {.kernel = "other", .exec = {1e-3, -1}}));  // another kernel is explored on its own
  CHECK(drain(*heft, 1) == std::vector<int>{1, 3});
  CHECK(drain(*heft, 0) == std::vector<int>{2});
}

TEST_CASE("heft measures a device again while its model is not calibrated, one run at a time") {
  FakeView view(2);
  auto heft = make_policy("heft", view);
  // Device 1 ran the kernel once: 5 ms, slower than device 0's 1 ms, but
  // one run does not calibrate a model (it may have paid for a compile).
  unicl::Task once{.exec = {1e-3, 5e-3}, .calibrated = {true, false}, .runs = {9, 0}};
  heft->push(task(1, once));
  heft->push(task(2, once));  // the measurement is on the way: placed by the models
  CHECK(drain(*heft, 1) == std::vector<int>{1});
  CHECK(drain(*heft, 0) == std::vector<int>{2});
  once.runs = {9, 1};  // it came back, still not calibrated: measured again
  heft->push(task(3, once));
  CHECK(drain(*heft, 1) == std::vector<int>{3});
  once.calibrated = {true, true};  // calibrated: placed by the models from now on
  once.runs = {9, 2};
  heft->push(task(4, once));
  CHECK(drain(*heft, 0) == std::vector<int>{4});
  // A device whose runs never calibrate it stops being explored after a few.
  unicl::Task never{.kernel = "unmeasured", .exec = {1e-3, -1}, .calibrated = {true, false}};
  std::vector<int> on_1;
  for (int i = 0; i < 10; ++i) {
    never.runs = {0, static_cast<size_t>(i)};
    heft->push(task(10 + i, never));
    for (int id : drain(*heft, 1)) on_1.push_back(id);
    drain(*heft, 0);
  }
  CHECK(on_1.size() < 10);
}

TEST_CASE("Policies that place at push time hand out a device's commands by priority") {
  for (auto name : {"heft", "random", "round-robin"}) {
    INFO(name);
    FakeView view(1);
    auto policy = make_policy(name, view);
    policy->push(task(1, {.priority = 1}));
    policy->push(task(2, {.priority = 5}));
    policy->push(task(3, {.priority = 3}));
    policy->push(task(4, {.priority = 5}));
    CHECK(drain(*policy, 0) == std::vector<int>{2, 4, 3, 1});
  }
}

TEST_CASE("eager gives an asking device the oldest command it can run") {
  FakeView view(2);
  auto eager = make_policy("eager", view);
  eager->push(task(1, {.runnable = {false, true}}));
  eager->push(task(2));
  eager->push(task(3));
  CHECK(id_of(eager->pop(0)) == 2);
  CHECK(id_of(eager->pop(1)) == 1);
  CHECK(id_of(eager->pop(1)) == 3);
  CHECK(eager->pop(0) == nullptr);
  eager->push(task(4, {.runnable = {false, true}}));
  CHECK(eager->pop(0) == nullptr);
  CHECK(eager->pending() == 1);
}

TEST_CASE("ws queues a command on the device holding most of its data") {
  FakeView view(3);
  auto ws = make_policy("ws", view);
  ws->push(task(1, {.resident = {0, 100, 50}}));
  ws->push(task(2, {.resident = {10, 0, 0}}));
  // No data anywhere: the device expected to finish it first.
  ws->push(task(3, {.exec = {1.0, 0.5, 2.0}}));
  CHECK(drain(*ws, 1) == std::vector<int>{1, 3});
  CHECK(drain(*ws, 2).empty());  // device 0's command would not end sooner there
  CHECK(drain(*ws, 0) == std::vector<int>{2});
}

TEST_CASE("ws: an idle device steals from the device expected to finish last") {
  FakeView view(3);
  auto ws = make_policy("ws", view);
  // Six commands whose data is on device 1, two on device 2.
  for (int i = 0; i < 6; ++i) ws->push(task(i, {.exec = {1.0, 1.0, 1.0}, .resident = {0, 64, 0}}));
  for (int i = 6; i < 8; ++i) ws->push(task(i, {.exec = {1.0, 1.0, 1.0}, .resident = {0, 0, 64}}));
  // Device 0 takes its share (a third) of device 1's six, from the head.
  CHECK(id_of(ws->pop(0)) == 0);
  CHECK(ws->pending() == 7);
  CHECK(id_of(ws->pop(0)) == 1);
  CHECK(drain(*ws, 1) == std::vector<int>{2, 3, 4, 5});
  CHECK(drain(*ws, 2) == std::vector<int>{6, 7});
}

TEST_CASE("ws across nodes: steal from a device of one's own node first, then from another node") {
  FakeView view(4);
  view.nodes = {0, 0, 1, 1};  // devices 0 and 1 here, 2 and 3 on node 1
  const std::vector<double> same = {1.0, 1.0, 1.0, 1.0};
  SECTION("its own node has work") {
    auto ws = make_policy("ws", view);
    // Device 1 (this node) holds four commands' data, device 3 (node 1)
    // eight: device 3 is expected to finish last, yet device 0 steals from
    // device 1.
    for (int i = 0; i < 4; ++i) ws->push(task(i, {.exec = same, .resident = {0, 64, 0, 0}}));
    for (int i = 4; i < 12; ++i) ws->push(task(i, {.exec = same, .resident = {0, 0, 0, 64}}));
    CHECK(id_of(ws->pop(0)) == 0);
  }
  SECTION("only another node has work") {
    auto ws = make_policy("ws", view);
    for (int i = 4; i < 12; ++i) ws->push(task(i, {.exec = same, .resident = {0, 0, 0, 64}}));
    CHECK(id_of(ws->pop(0)) == 4);  // from node 1's device 3, at its head
  }
}

TEST_CASE("ws: a slow device does not steal what the fast one would finish sooner") {
  FakeView view(2);
  auto ws = make_policy("ws", view);
  // Device 1 is 100 times faster; device 0 would finish one command at 1.0,
  // after device 1 finishes all three at 0.03.
  for (int i = 0; i < 3; ++i) ws->push(task(i, {.exec = {1.0, 0.01}}));
  CHECK(ws->pop(0) == nullptr);
  CHECK(drain(*ws, 1) == std::vector<int>{0, 1, 2});
}

TEST_CASE("round-robin gives each command to the next device in turn, among those that can run it") {
  FakeView view(3);
  view.speeds = {1, 100, 1};  // ignored
  auto rr = make_policy("round-robin", view);
  for (int i = 0; i < 7; ++i) rr->push(task(i));
  CHECK(drain(*rr, 0) == std::vector<int>{0, 3, 6});
  CHECK(drain(*rr, 1) == std::vector<int>{1, 4});
  CHECK(drain(*rr, 2) == std::vector<int>{2, 5});
  // The turn continues over the devices that can run the command.
  for (int i = 10; i < 14; ++i) rr->push(task(i, {.runnable = {true, false, true}}));
  CHECK(drain(*rr, 1).empty());
  CHECK(drain(*rr, 0).size() == 2);
  CHECK(drain(*rr, 2).size() == 2);
}

TEST_CASE("random places reproducibly, weighted by the devices' speeds") {
  FakeView view(2);
  view.speeds = {1, 9};
  auto placements = [&view] {
    auto random = make_policy("random", view);
    for (int i = 0; i < 1000; ++i) random->push(task(i));
    return std::vector<std::vector<int>>{drain(*random, 0), drain(*random, 1)};
  };
  auto first = placements();
  CHECK(placements() == first);
  CHECK(first[0].size() + first[1].size() == 1000);
  // 1000 draws at 90 %: far outside these bounds only if the weights are ignored.
  CHECK(first[1].size() > 850);
  CHECK(first[1].size() < 950);
}

TEST_CASE("The engine's window: two commands a device, more while they are about to end, long ones not once late") {
  using unicl::DispatchWindow;
  constexpr double now = 10.0, block = 5e-3, launch = 10e-6;
  CHECK(DispatchWindow::has_room(0, 0, 0, now));
  CHECK(DispatchWindow::has_room(1, now + block, block, now));
  CHECK_FALSE(DispatchWindow::has_room(2, now + 2 * block, 2 * block, now));
  // Long commands: a third as those in flight are about to end...
  CHECK(DispatchWindow::has_room(2, now + 0.5e-3, 2 * block, now));
  // ...not once past their predicted end, still to run (inputs late).
  CHECK_FALSE(DispatchWindow::has_room(2, now - 1e-6, 2 * block, now));
  CHECK_FALSE(DispatchWindow::has_room(2, now - 1.0, 2 * block, now));
  // Short ones: up to 64 while what they add up to ends within the horizon.
  CHECK(DispatchWindow::has_room(20, now + 20 * launch, 20 * launch, now));
  CHECK(DispatchWindow::has_room(20, now - 1.0, 20 * launch, now));  // a little slower than predicted
  CHECK_FALSE(DispatchWindow::has_room(DispatchWindow::kMaxInFlight, now, 0, now));
  CHECK_FALSE(DispatchWindow::has_room(3, now + 2 * DispatchWindow::kHorizon, 3 * launch, now));
}
