// The eviction order of a full device: least recently used until evicted
// buffers keep coming back, then most recently used.
#include <catch2/catch.hpp>

#include <vector>

#include "memory/eviction_order.hpp"

using unicl::EvictionOrder;

TEST_CASE("A new device evicts the least recently used first") {
  EvictionOrder order;
  CHECK_FALSE(order.most_recent_first());
}

TEST_CASE("A cycle over more buffers than fit switches to most recently used, a scan switches back") {
  EvictionOrder order;
  std::vector<int> buffers(32);
  // Cyclic passes with least-recently-used eviction: every miss brings
  // back a buffer evicted shortly before.
  for (int pass = 0; pass < 3; ++pass)
    for (size_t b = 0; b < buffers.size(); ++b) {
      order.missed(&buffers[b]);
      order.evicted(&buffers[(b + 24) % buffers.size()]);
    }
  CHECK(order.most_recent_first());
  // A scan over buffers never seen before: nothing comes back.
  std::vector<int> fresh(32);
  for (auto &f : fresh) order.missed(&f);
  CHECK_FALSE(order.most_recent_first());
}

TEST_CASE("Misses on buffers evicted long ago do not count as returns") {
  EvictionOrder order;
  std::vector<int> buffers(200);
  for (auto &b : buffers) order.evicted(&b);  // more than the order remembers
  for (int i = 0; i < 20; ++i) order.missed(&buffers[i]);
  CHECK_FALSE(order.most_recent_first());
}
