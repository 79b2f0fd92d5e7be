// The doorbells (src/cluster/protocol/doorbell.hpp): a ring reaches the
// listener through the addresses it gives, a burst of rings is one call or
// more (never lost while the listener runs), a doorbell of no port rings
// nothing, a listener stops when destroyed, and a message rings only after a
// quiet while (Contact).
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "cluster/protocol/doorbell.hpp"

using namespace unicl::cluster;

namespace {

struct Rings {
  std::mutex mutex;
  std::condition_variable changed;
  int count = 0;
  void add() {
    std::lock_guard lock(mutex);
    ++count;
    changed.notify_all();
  }
  bool wait_for_at_least(int n) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(10), [&] { return count >= n; });
  }
};

}  // namespace

TEST_CASE("a doorbell rung at the addresses its listener gives wakes the listener") {
  Rings rings;
  DoorbellListener listener([&] { rings.add(); });
  const DoorbellAt at = listener.where();
  REQUIRE(at.port != 0);
  REQUIRE(!at.addresses.empty());
  CHECK(at.addresses.back() == "127.0.0.1");  // loopback last
  Doorbell bell(at);
  REQUIRE(bell.rings());
  bell.ring();
  CHECK(rings.wait_for_at_least(1));
  // Each ring after the last call was taken wakes it again.
  bell.ring();
  CHECK(rings.wait_for_at_least(2));
}

TEST_CASE("a doorbell of another host rings no loopback address; one of no port rings nothing") {
  Doorbell elsewhere(DoorbellAt{"not-this-host.invalid", 40000, {"127.0.0.1"}});
  CHECK_FALSE(elsewhere.rings());
  Doorbell none(DoorbellAt{"", 0, {"127.0.0.1"}});
  CHECK_FALSE(none.rings());
  none.ring();  // harmless
  Doorbell moved = std::move(elsewhere);
  CHECK_FALSE(moved.rings());
}

TEST_CASE("a listener that is never rung stops when destroyed") {
  for (int i = 0; i < 3; ++i) {
    Rings rings;
    DoorbellListener listener([&] { rings.add(); });
    CHECK(listener.where().port != 0);
  }
}

TEST_CASE("a message sent after a quiet while rings, one right after another message does not") {
  using namespace std::chrono_literals;
  const Contact::Clock::time_point t0{};
  Contact c;
  c.heard(t0 + 1s);
  CHECK_FALSE(c.sent_after_quiet(t0 + 1s + kRingAfterQuiet / 2));  // just heard from it
  CHECK_FALSE(c.sent_after_quiet(t0 + 1s + kRingAfterQuiet));       // just sent to it
  CHECK(c.sent_after_quiet(t0 + 2s));                                // a second of nothing
  c.heard(t0 + 3s);
  CHECK_FALSE(c.sent_after_quiet(t0 + 3s + 10us));
  CHECK(c.sent_after_quiet(t0 + 3s + 10us + kRingAfterQuiet + 1us));
}
