// The order of a node's reported ends (src/cluster/node/end_order.hpp),
// alone: an end recorded before those it follows waits for them.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cluster/node/end_order.hpp"

using unicl::cluster::EndOrder;
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
