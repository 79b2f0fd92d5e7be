// A node's staged copies (src/cluster/node/staged_bytes.hpp), alone: which bytes are
// kept, found, dropped, and the budget. Buffers are stand-in handles, and
// whether one qualifies (read-only, no sub-buffer) is the test's to say.
#include <catch2/catch.hpp>

#include <set>

#include "cluster/node/staged_bytes.hpp"

using unicl::cluster::StagedBytes;

namespace {

cl_mem handle(uintptr_t n) { return reinterpret_cast<cl_mem>(n * 64); }

StagedBytes::Bytes bytes(size_t n) { return std::make_shared<std::vector<char>>(n); }

}  // namespace

TEST_CASE("a kept copy serves any range inside it, until something may change its buffer", "[unit][staged_bytes]") {
  StagedBytes copies([](cl_mem, size_t) { return true; });
  auto b = bytes(1000);
  copies.keep(handle(1), b);
  CHECK(copies.find(handle(1), 0, 1000) == b);
  CHECK(copies.find(handle(1), 200, 800) == b);
  CHECK(copies.find(handle(1), 200, 801) == nullptr);  // past its end
  CHECK(copies.find(handle(1), 1001, 0) == nullptr);
  CHECK(copies.find(handle(2), 0, 10) == nullptr);  // another buffer
  copies.forget(handle(1));
  CHECK(copies.find(handle(1), 0, 1000) == nullptr);
  copies.keep(handle(1), b);
  copies.released(handle(1));
  CHECK(copies.find(handle(1), 0, 1000) == nullptr);
}

TEST_CASE("a buffer that does not qualify, or that shares its storage, is not kept", "[unit][staged_bytes]") {
  std::set<cl_mem> read_only = {handle(1), handle(2)};
  StagedBytes copies([&](cl_mem m, size_t) { return read_only.count(m) > 0; });
  CHECK_FALSE(copies.may_keep(handle(3), 10));
  copies.keep(handle(3), bytes(10));
  CHECK(copies.find(handle(3), 0, 10) == nullptr);
  CHECK(copies.may_keep(handle(1), 10));
  copies.keep(handle(1), bytes(10));
  copies.shares_storage(handle(1));  // a sub-buffer of it: its copy goes
  CHECK(copies.find(handle(1), 0, 10) == nullptr);
  CHECK_FALSE(copies.may_keep(handle(1), 10));
  copies.keep(handle(1), bytes(10));  // and no new one comes
  CHECK(copies.find(handle(1), 0, 10) == nullptr);
  copies.released(handle(1));  // a new buffer may come at that address
  copies.keep(handle(1), bytes(10));
  CHECK(copies.find(handle(1), 0, 10) != nullptr);
  copies.keep(handle(2), nullptr);
  CHECK(copies.find(handle(2), 0, 0) == nullptr);
}

TEST_CASE("a newer copy of a buffer replaces the older one", "[unit][staged_bytes]") {
  StagedBytes copies([](cl_mem, size_t) { return true; });
  auto older = bytes(10), newer = bytes(10);
  copies.keep(handle(1), older);
  copies.keep(handle(1), newer);
  CHECK(copies.find(handle(1), 0, 10) == newer);
}

TEST_CASE("past the budget, the oldest copies go first", "[unit][staged_bytes]") {
  StagedBytes copies([](cl_mem, size_t) { return true; }, 100);
  copies.keep(handle(1), bytes(40));
  copies.keep(handle(2), bytes(40));
  copies.keep(handle(3), bytes(40));  // 120 > 100: the first goes
  CHECK(copies.find(handle(1), 0, 1) == nullptr);
  CHECK(copies.find(handle(2), 0, 1) != nullptr);
  CHECK(copies.find(handle(3), 0, 1) != nullptr);
  CHECK_FALSE(copies.may_keep(handle(4), 101));
  copies.keep(handle(4), bytes(101));  // larger than the whole budget: not kept, nothing dropped
  CHECK(copies.find(handle(4), 0, 1) == nullptr);
  CHECK(copies.find(handle(2), 0, 1) != nullptr);
  copies.forget(handle(2));  // its bytes no longer count
  copies.keep(handle(5), bytes(60));
  CHECK(copies.find(handle(3), 0, 1) != nullptr);
  CHECK(copies.find(handle(5), 0, 1) != nullptr);
}

TEST_CASE("each possible change of a buffer counts, and keeping its copy does not", "[unit][staged_bytes]") {
  // What a write whose bytes come later checks before it keeps them: a
  // write, fill or release enqueued meanwhile would make them stale.
  StagedBytes copies([](cl_mem, size_t) { return true; });
  CHECK(copies.changes(handle(1)) == 0);
  copies.forget(handle(1));
  const uint64_t at_enqueue = copies.changes(handle(1));
  copies.keep(handle(1), bytes(10));
  CHECK(copies.changes(handle(1)) == at_enqueue);
  CHECK(copies.changes(handle(2)) == 0);  // another buffer's count is its own
  copies.forget(handle(1));
  CHECK(copies.changes(handle(1)) == at_enqueue + 1);
  copies.shares_storage(handle(1));
  copies.released(handle(1));
  CHECK(copies.changes(handle(1)) == at_enqueue + 3);  // a handle given again after a release cannot match
}
