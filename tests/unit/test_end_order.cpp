// The order of a node's reported ends (src/cluster/node/end_order.hpp),
// alone: an end recorded before those it follows waits for them; and what
// a command follows on its queue (queue_order.hpp).
#include <catch2/catch.hpp>

#include <algorithm>

#include "cluster/node/end_order.hpp"
#include "cluster/node/queue_order.hpp"

using unicl::cluster::EndOrder;
using unicl::cluster::QueueOrder;
using Ids = std::vector<uint64_t>;

TEST_CASE("ends recorded in their commands' order are reported at once", "[unit][end_order]") {
  EndOrder order;
  order.await(1, {});
  order.await(2, {1});
  CHECK(order.ended(1) == Ids{1});
  CHECK(order.ended(2) == Ids{2});
  CHECK(order.held() == 0);
  CHECK_FALSE(order.awaited(1));
}

TEST_CASE("an end recorded before that of a command it follows waits for it", "[unit][end_order]") {
  // A read (1), and a marker after it (2) whose callback ran first.
  EndOrder order;
  order.await(1, {});
  order.await(2, {1});
  CHECK(order.ended(2).empty());
  CHECK(order.held() == 1);
  CHECK(order.ended(1) == Ids{1, 2});
  CHECK(order.held() == 0);
}

TEST_CASE("held ends go out in the order of what they follow, through chains", "[unit][end_order]") {
  EndOrder order;
  order.await(1, {});
  order.await(2, {1});
  order.await(3, {2});
  order.await(4, {1});
  CHECK(order.ended(3).empty());
  CHECK(order.ended(4).empty());
  CHECK(order.ended(2).empty());
  auto ready = order.ended(1);
  REQUIRE(ready.size() == 4);
  CHECK(ready[0] == 1);
  auto at = [&](uint64_t id) { return std::find(ready.begin(), ready.end(), id) - ready.begin(); };
  CHECK(at(2) < at(3));
  CHECK(order.held() == 0);
}

TEST_CASE("what was reported already, or never awaited, holds nothing back", "[unit][end_order]") {
  EndOrder order;
  order.await(1, {});
  CHECK(order.ended(1) == Ids{1});
  order.await(2, {1, 7, 2});  // 1 reported, 7 never awaited (an untracked command), 2 itself
  CHECK(order.ended(2) == Ids{2});
}

TEST_CASE("an end waits for every predecessor, whichever order they come in", "[unit][end_order]") {
  EndOrder order;
  order.await(1, {});
  order.await(2, {});
  order.await(3, {1, 2});
  CHECK(order.ended(3).empty());
  CHECK(order.ended(2) == Ids{2});
  CHECK(order.ended(1) == Ids{1, 3});
}

TEST_CASE("on an in-order queue a command follows the last named one before it", "[unit][end_order]") {
  QueueOrder order(true);
  CHECK(order.enqueued(1, {}, false, false).empty());
  CHECK(order.enqueued(0, {}, false, false) == Ids{1});  // unnamed: never followed itself
  CHECK(order.enqueued(2, {}, false, false) == Ids{1});
  CHECK(order.enqueued(3, {7}, false, false) == Ids{7, 2});
}

TEST_CASE("out of order: a marker with no wait list follows every command before it", "[unit][end_order]") {
  QueueOrder order(false);
  CHECK(order.enqueued(1, {}, false, false).empty());  // a read
  CHECK(order.enqueued(2, {}, false, false).empty());  // another, independent
  CHECK(order.enqueued(3, {}, true, false) == Ids{1, 2});
  CHECK(order.enqueued(4, {1}, false, false) == Ids{1});  // a marker naming the first read only
}

TEST_CASE("out of order: a barrier is followed by every command after it", "[unit][end_order]") {
  QueueOrder order(false);
  order.enqueued(1, {}, false, false);
  CHECK(order.enqueued(2, {}, true, true) == Ids{1});
  CHECK(order.enqueued(3, {}, false, false) == Ids{2});
  CHECK(order.enqueued(4, {}, true, false) == Ids{2, 3});
}

TEST_CASE("out of order: an unnamed barrier passes on what it follows", "[unit][end_order]") {
  QueueOrder order(false);
  order.enqueued(1, {}, false, false);
  order.enqueued(2, {}, false, false);
  CHECK(order.enqueued(0, {}, true, true) == Ids{1, 2});
  CHECK(order.enqueued(3, {}, false, false) == Ids{1, 2});
}

TEST_CASE("out of order: a barrier with a wait list leaves the others before it to later markers",
          "[unit][end_order]") {
  QueueOrder order(false);
  order.enqueued(1, {}, false, false);
  order.enqueued(2, {}, false, false);
  CHECK(order.enqueued(3, {1}, false, true) == Ids{1});
  CHECK(order.enqueued(4, {}, false, false) == Ids{3});
  auto all = order.enqueued(5, {}, true, false);
  for (uint64_t id : {1, 2, 3, 4}) CHECK(std::count(all.begin(), all.end(), id) >= 1);
}

TEST_CASE("out of order: commands whose ends were reported are forgotten", "[unit][end_order]") {
  QueueOrder order(false);
  for (uint64_t id = 1; id <= 64; ++id) order.enqueued(id, {}, false, false);
  REQUIRE(order.wants_pruning());
  order.prune([](uint64_t id) { return id <= 60; });
  CHECK_FALSE(order.wants_pruning());
  CHECK(order.enqueued(65, {}, true, false) == Ids{61, 62, 63, 64});
}
