// Validity and access history per byte range (src/memory/byte_ranges.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <vector>

#include "memory/byte_ranges.hpp"

using namespace unicl;

namespace {

constexpr Location kDevA = 0, kDevB = 1, kHost = 2;
constexpr std::size_t kLocations = 3;

std::vector<Location> members(LocationSet s) { return {s.begin(), s.end()}; }

LocationSet set_of(std::initializer_list<Location> ls) {
  LocationSet s;
  for (Location l : ls) s.insert(l);
  return s;
}

}  // namespace

namespace unicl {
// Readable failures.
std::ostream &operator<<(std::ostream &os, ByteRange r) { return os << '[' << r.offset << ", +" << r.length << ')'; }
std::ostream &operator<<(std::ostream &os, LocationSet s) {
  os << '{';
  for (Location l : s) os << ' ' << l;
  return os << " }";
}
std::ostream &operator<<(std::ostream &os, const MissingRange &m) { return os << m.range << " at " << m.holders; }
}  // namespace unicl

TEST_CASE("LocationSet holds up to kCapacity locations and lists them in order", "[byte_ranges]") {
  constexpr Location last = LocationSet::kCapacity - 1;
  LocationSet s = set_of({5, 0, 63, 64, 130, last});
  CHECK(members(s) == std::vector<Location>{0, 5, 63, 64, 130, last});
  CHECK(s.size() == 6);
  CHECK(s.contains(63));
  CHECK(s.contains(64));
  CHECK_FALSE(s.contains(65));
  CHECK_FALSE(s.contains(LocationSet::kCapacity));
  s.erase(5);
  s.erase(64);
  CHECK(members(s) == std::vector<Location>{0, 63, 130, last});
  CHECK(LocationSet::first(3) == set_of({0, 1, 2}));
  CHECK(LocationSet::first(64).size() == 64);
  CHECK(LocationSet::first(65).size() == 65);
  CHECK(LocationSet::first(65).contains(64));
  CHECK_FALSE(LocationSet::first(65).contains(65));
  CHECK(LocationSet::first(LocationSet::kCapacity).size() == LocationSet::kCapacity);
  CHECK(LocationSet::only(7) == set_of({7}));
  CHECK(LocationSet().empty());
  CHECK((set_of({1, 70}) | set_of({70, 200})) == set_of({1, 70, 200}));
  CHECK((set_of({1, 70}) & set_of({70, 200})) == set_of({70}));
  CHECK((set_of({1, 70}) ^ set_of({70, 200})) == set_of({1, 200}));
  CHECK_THROWS_AS(LocationSet::only(LocationSet::kCapacity), std::out_of_range);
  CHECK_THROWS_AS(RangeValidity(16, LocationSet::kCapacity + 1, {}), std::invalid_argument);
}

TEST_CASE("A new buffer is valid where it starts and missing elsewhere", "[byte_ranges]") {
  RangeValidity v(1000, kLocations, LocationSet::only(kHost));
  CHECK(v.intervals() == 1);
  CHECK(v.valid_at(kHost, {0, 1000}));
  CHECK_FALSE(v.valid_at(kDevA, {0, 1}));
  CHECK(v.valid_bytes(kHost) == 1000);
  CHECK(v.valid_bytes(kDevA) == 0);
  CHECK(v.missing(kHost, {0, 1000}).empty());
  CHECK(v.missing(kDevA, {100, 50}) == std::vector<MissingRange>{{{100, 50}, LocationSet::only(kHost)}});
  // Contents not given: any copy is as good as another.
  RangeValidity undefined(1000, kLocations, LocationSet::first(kLocations));
  for (Location l = 0; l < kLocations; ++l) CHECK(undefined.missing(l, {0, 1000}).empty());
}

TEST_CASE("A write leaves the only valid copy of exactly those bytes at the writer", "[byte_ranges]") {
  RangeValidity v(1000, kLocations, LocationSet::only(kHost));
  v.write(kDevA, {100, 200});
  CHECK(v.intervals() == 3);
  CHECK(v.valid_at(kDevA, {100, 200}));
  CHECK_FALSE(v.valid_at(kDevA, {99, 2}));
  CHECK(v.valid_at(kHost, {0, 100}));
  CHECK(v.valid_at(kHost, {300, 700}));
  CHECK_FALSE(v.valid_at(kHost, {299, 1}));
  CHECK(v.valid_bytes(kHost) == 800);
  CHECK(v.valid_bytes(kDevA) == 200);
  CHECK(v.missing(kHost, {0, 1000}) == std::vector<MissingRange>{{{100, 200}, LocationSet::only(kDevA)}});
  CHECK(v.missing(kDevB, {50, 300}) == std::vector<MissingRange>{{{50, 50}, LocationSet::only(kHost)},
                                                                  {{100, 200}, LocationSet::only(kDevA)},
                                                                  {{300, 50}, LocationSet::only(kHost)}});
}

TEST_CASE("Two devices writing disjoint halves each hold their half", "[byte_ranges]") {
  RangeValidity v(1 << 20, kLocations, LocationSet::only(kHost));
  v.write(kDevA, {0, 1 << 19});
  v.write(kDevB, {1 << 19, 1 << 19});
  CHECK(v.valid_at(kDevA, {0, 1 << 19}));
  CHECK(v.valid_at(kDevB, {1 << 19, 1 << 19}));
  CHECK(v.valid_bytes(kHost) == 0);
  CHECK(v.missing(kHost, {0, 1 << 20}) == std::vector<MissingRange>{{{0, 1 << 19}, LocationSet::only(kDevA)},
                                                                    {{1 << 19, 1 << 19}, LocationSet::only(kDevB)}});
  CHECK(v.sole_holders() == set_of({kDevA, kDevB}));
  // Reading the second half on A moves only that half.
  CHECK(v.missing(kDevA, {0, 1 << 20}) == std::vector<MissingRange>{{{1 << 19, 1 << 19}, LocationSet::only(kDevB)}});
}

TEST_CASE("A copy makes the destination hold what the source held", "[byte_ranges]") {
  RangeValidity v(100, kLocations, LocationSet::only(kHost));
  v.write(kDevA, {0, 50});
  v.copy(kDevA, kHost, {0, 50});
  CHECK(v.valid_at(kHost, {0, 100}));
  CHECK(v.missing(kHost, {0, 100}).empty());
  CHECK(v.valid_at(kDevA, {0, 50}));
  CHECK(v.intervals() == 2);
  // Bytes the source did not hold are stale at the destination afterwards.
  v.copy(kDevA, kDevB, {40, 20});
  CHECK(v.valid_at(kDevB, {40, 10}));
  CHECK_FALSE(v.valid_at(kDevB, {50, 1}));
  v.copy(kHost, kDevB, {0, 100});
  v.copy(kDevA, kDevB, {40, 20});
  CHECK(v.valid_at(kDevB, {0, 50}));
  CHECK(v.valid_bytes(kDevB) == 90);
  v.copy(kHost, kHost, {0, 100});  // no change
  CHECK(v.valid_bytes(kHost) == 100);
}

TEST_CASE("Zero-length ranges change nothing and hold everywhere", "[byte_ranges]") {
  RangeValidity v(64, kLocations, LocationSet::only(kHost));
  v.write(kDevA, {10, 0});
  v.write(kDevA, {64, 0});  // at the very end
  v.copy(kHost, kDevB, {0, 0});
  CHECK(v.intervals() == 1);
  CHECK(v.valid_at(kDevA, {10, 0}));
  CHECK(v.missing(kDevA, {64, 0}).empty());
  CHECK(v.valid_bytes(kDevA, {5, 0}) == 0);
  CHECK_THROWS_AS(v.write(kDevA, {65, 0}), std::out_of_range);
  CHECK_THROWS_AS(v.valid_at(kDevA, {60, 5}), std::out_of_range);
  // offset + length would wrap around.
  CHECK_THROWS_AS(v.missing(kDevA, {1, std::numeric_limits<std::size_t>::max()}), std::out_of_range);
  CHECK_THROWS_AS(v.write(kLocations, {0, 1}), std::out_of_range);

  RangeValidity empty(0, kLocations, LocationSet::only(kHost));
  CHECK(empty.intervals() == 0);
  empty.write(kDevA, {0, 0});
  CHECK(empty.valid_at(kDevB, {0, 0}));
  CHECK(empty.sole_holders().empty());
  CHECK(empty.sole_ranges(kHost).empty());
  empty.drop(kHost);
  CHECK(empty.valid_bytes(kHost) == 0);
}

TEST_CASE("Ranges at the end of the buffer", "[byte_ranges]") {
  RangeValidity v(4096, kLocations, LocationSet::only(kHost));
  v.write(kDevA, {4095, 1});
  CHECK(v.intervals() == 2);
  CHECK(v.missing(kHost, {4000, 96}) == std::vector<MissingRange>{{{4095, 1}, LocationSet::only(kDevA)}});
  v.write(kDevB, {4000, 96});
  CHECK(v.intervals() == 2);
  CHECK(v.valid_bytes(kDevA) == 0);
  CHECK(v.sole_ranges(kDevB) == std::vector<ByteRange>{{4000, 96}});
}

TEST_CASE("A full write collapses many small alternating writes into one interval", "[byte_ranges]") {
  constexpr std::size_t kSize = 1 << 20, kChunk = 64;
  RangeValidity v(kSize, kLocations, LocationSet::only(kHost));
  for (std::size_t off = 0; off < kSize; off += kChunk) v.write(off / kChunk % 2 ? kDevB : kDevA, {off, kChunk});
  CHECK(v.intervals() == kSize / kChunk);
  CHECK(v.valid_bytes(kDevA) == kSize / 2);
  CHECK(v.valid_bytes(kDevB) == kSize / 2);
  CHECK(v.valid_bytes(kHost) == 0);
  CHECK(v.missing(kHost, {0, kSize}).size() == kSize / kChunk);
  CHECK(v.missing(kDevA, {0, 4 * kChunk}) == std::vector<MissingRange>{{{kChunk, kChunk}, LocationSet::only(kDevB)},
                                                                       {{3 * kChunk, kChunk}, LocationSet::only(kDevB)}});
  v.write(kHost, {0, kSize});
  CHECK(v.intervals() == 1);
  CHECK(v.valid_bytes(kHost) == kSize);
  CHECK(v.valid_bytes(kDevA) == 0);
  CHECK(v.sole_ranges(kHost) == std::vector<ByteRange>{{0, kSize}});
}

TEST_CASE("Eviction: sole holders, what to write back, dropping a copy", "[byte_ranges]") {
  RangeValidity v(300, kLocations, LocationSet::only(kHost));
  v.copy(kHost, kDevA, {0, 300});
  CHECK(v.sole_holders().empty());
  v.write(kDevA, {0, 100});
  v.write(kDevA, {200, 50});
  v.copy(kHost, kDevB, {100, 100});
  CHECK(v.sole_holders() == set_of({kDevA}));
  v.write(kHost, {250, 50});
  CHECK(v.sole_holders() == set_of({kDevA, kHost}));
  CHECK(v.sole_ranges(kDevA) == std::vector<ByteRange>{{0, 100}, {200, 50}});
  CHECK(v.sole_ranges(kDevB).empty());
  CHECK(v.sole_ranges(kHost) == std::vector<ByteRange>{{250, 50}});
  CHECK(v.valid_bytes(kDevA, {50, 200}) == 200);
  // Writing back what only A holds, then dropping A, loses nothing.
  for (ByteRange r : v.sole_ranges(kDevA)) v.copy(kDevA, kHost, r);
  v.drop(kDevA);
  CHECK(v.valid_bytes(kDevA) == 0);
  CHECK(v.valid_at(kHost, {0, 300}));
  CHECK(v.sole_holders() == set_of({kHost}));
  // Dropping the only holder leaves bytes held nowhere; the caller may
  // declare them undefined.
  v.drop(kHost);
  CHECK(v.missing(kDevB, {0, 300}) == std::vector<MissingRange>{{{0, 100}, {}}, {{200, 100}, {}}});
  v.mark_undefined({0, 300});
  CHECK(v.intervals() == 1);
  for (Location l = 0; l < kLocations; ++l) CHECK(v.valid_bytes(l) == 300);
}

TEST_CASE("History: an access waits for the last writer of exactly its bytes", "[byte_ranges]") {
  RangeHistory<int> h(256, kLocations);
  CHECK(h.hazards(kDevA, {0, 256}, true).empty());
  h.wrote(kDevA, {0, 128}, 1);
  h.wrote(kDevA, {128, 128}, 2);
  h.read(kDevA, {64, 128}, 3);
  h.read(kDevA, {64, 128}, 3);  // the same reader once
  CHECK(h.hazards(kDevA, {0, 64}, true) == std::vector<int>{1});
  CHECK(h.hazards(kDevA, {0, 256}, false) == std::vector<int>{1, 2});
  CHECK(h.hazards(kDevA, {100, 100}, true) == std::vector<int>{1, 3, 2});
  CHECK(h.hazards(kDevA, {192, 64}, true) == std::vector<int>{2});
  CHECK(h.track_at(kDevA, 100)->readers == std::vector<int>{3});
  CHECK(h.hazards(kDevB, {0, 256}, true).empty());
  // A new write of some bytes replaces their writer and forgets their readers.
  h.wrote(kDevA, {64, 64}, 4);
  CHECK(h.hazards(kDevA, {64, 64}, true) == std::vector<int>{4});
  CHECK(h.hazards(kDevA, {0, 256}, true) == std::vector<int>{1, 4, 2, 3});
  h.forget(kDevA);
  CHECK(h.hazards(kDevA, {0, 256}, true).empty());
  CHECK(h.intervals(kDevA) == 1);
}

TEST_CASE("History: finished tokens are pruned and intervals merge again", "[byte_ranges]") {
  RangeHistory<int> h(1024, kLocations);
  for (int i = 0; i < 16; ++i) h.wrote(kDevB, {static_cast<std::size_t>(i) * 64, 64}, i);
  h.read(kDevB, {0, 1024}, 100);
  CHECK(h.intervals(kDevB) == 16);
  h.prune([](int t) { return t < 8; });
  CHECK(h.intervals(kDevB) == 9);
  CHECK(h.hazards(kDevB, {0, 512}, false).empty());
  CHECK(h.hazards(kDevB, {0, 512}, true) == std::vector<int>{100});
  h.prune([](int) { return true; });
  CHECK(h.intervals(kDevB) == 1);
  CHECK(h.track_at(kDevB, 0)->readers.empty());
}

TEST_CASE("RangeCoherence orders transfers after the accesses of both copies", "[byte_ranges]") {
  RangeCoherence<int> c(200, kLocations, LocationSet::only(kHost));
  c.read(kHost, {0, 200}, 1);      // e.g. a map of the host copy
  c.write(kDevA, {0, 100}, 2);     // kernel on A writes the first half
  c.write(kDevB, {100, 100}, 3);   // kernel on B writes the second half, at the same time
  CHECK(c.command_waits(kDevB, {100, 100}, true) == std::vector<int>{3});
  // Moving A's half to the host waits for A's writer and the host's reader,
  // not for B's kernel.
  CHECK(c.transfer_waits(kDevA, kHost, {0, 100}) == std::vector<int>{2, 1});
  c.copy(kDevA, kHost, {0, 100}, 4);
  CHECK(c.validity().valid_at(kHost, {0, 100}));
  CHECK(c.validity().missing(kHost, {0, 200}) == std::vector<MissingRange>{{{100, 100}, LocationSet::only(kDevB)}});
  // The copy read A's bytes: a new write there waits for it.
  CHECK(c.command_waits(kDevA, {0, 100}, true) == std::vector<int>{2, 4});
  CHECK(c.command_waits(kHost, {0, 50}, false) == std::vector<int>{4});
  // Host to B through the copy of A's half: B's old bytes' writer first.
  CHECK(c.transfer_waits(kHost, kDevB, {0, 100}) == std::vector<int>{4});
  c.copy(kHost, kDevB, {0, 100}, 5);
  CHECK(c.validity().valid_at(kDevB, {0, 200}));
  c.drop(kDevA);
  CHECK(c.command_waits(kDevA, {0, 200}, true).empty());
  CHECK(c.validity().valid_bytes(kDevA) == 0);
  c.prune([](int t) { return t != 5; });
  CHECK(c.command_waits(kHost, {0, 200}, true) == std::vector<int>{5});
}

// Random operations checked byte by byte against a plain model: every query
// agrees and the maps stay as compact as the data allows.
TEST_CASE("Random operations agree with a per-byte model", "[byte_ranges]") {
  constexpr std::size_t kSize = 97, kLocs = 4;
  struct Byte {
    LocationSet valid;
    std::vector<RangeHistory<int>::Track> tracks = std::vector<RangeHistory<int>::Track>(kLocs);
  };
  std::mt19937 rng(12345);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  auto range = [&] {
    std::size_t off = pick(kSize + 1);
    return ByteRange{off, pick(kSize - off + 1)};
  };
  RangeCoherence<int> c(kSize, kLocs, LocationSet::only(3));
  std::vector<Byte> model(kSize, Byte{LocationSet::only(3)});
  auto runs = [&](auto same) {
    std::size_t n = kSize ? 1 : 0;
    for (std::size_t i = 1; i < kSize; ++i) n += !same(model[i - 1], model[i]);
    return n;
  };
  for (int step = 0; step < 3000; ++step) {
    ByteRange r = range();
    Location l = pick(kLocs), other = pick(kLocs);
    int token = step;
    switch (pick(6)) {
      case 0:
        c.write(l, r, token);
        for (std::size_t i = r.offset; i < r.end(); ++i) {
          model[i].valid = LocationSet::only(l);
          model[i].tracks[l] = {token, {}};
        }
        break;
      case 1:
        c.read(l, r, token);
        for (std::size_t i = r.offset; i < r.end(); ++i) model[i].tracks[l].readers.push_back(token);
        break;
      case 2:
        if (l == other) break;
        c.copy(other, l, r, token);
        for (std::size_t i = r.offset; i < r.end(); ++i) {
          if (model[i].valid.contains(other)) model[i].valid.insert(l);
          else model[i].valid.erase(l);
          model[i].tracks[other].readers.push_back(token);
          model[i].tracks[l] = {token, {}};
        }
        break;
      case 3:
        if (pick(20) == 0) {
          c.drop(l);
          for (auto &b : model) {
            b.valid.erase(l);
            b.tracks[l] = {};
          }
        }
        break;
      case 4:
        if (pick(20) == 0) {
          c.mark_undefined(r);
          for (std::size_t i = r.offset; i < r.end(); ++i) model[i].valid = LocationSet::first(kLocs);
        }
        break;
      default:
        if (pick(10) == 0) {
          auto finished = [&](int t) { return t < step - 50; };
          c.prune(finished);
          for (auto &b : model)
            for (auto &t : b.tracks) {
              if (t.writer && finished(*t.writer)) t.writer.reset();
              std::erase_if(t.readers, finished);
            }
        }
        break;
    }
    const RangeValidity &v = c.validity();
    REQUIRE(v.intervals() == runs([](const Byte &a, const Byte &b) { return a.valid == b.valid; }));
    for (Location x = 0; x < kLocs; ++x) {
      REQUIRE(c.history().intervals(x) == runs([&](const Byte &a, const Byte &b) { return a.tracks[x] == b.tracks[x]; }));
      std::size_t bytes = 0;
      std::vector<ByteRange> sole;
      for (std::size_t i = 0; i < kSize; ++i) {
        bytes += model[i].valid.contains(x);
        if (model[i].valid == LocationSet::only(x)) {
          if (!sole.empty() && sole.back().end() == i) ++sole.back().length;
          else sole.push_back({i, 1});
        }
      }
      REQUIRE(v.valid_bytes(x) == bytes);
      REQUIRE(v.sole_ranges(x) == sole);
    }
    // Queries over a random range from a random location.
    ByteRange q = range();
    Location at = pick(kLocs);
    std::vector<MissingRange> want;
    std::size_t in_range = 0;
    std::vector<int> hazards;
    for (std::size_t i = q.offset; i < q.end(); ++i) {
      const Byte &b = model[i];
      in_range += b.valid.contains(at);
      if (!b.valid.contains(at)) {
        if (!want.empty() && want.back().range.end() == i && want.back().holders == b.valid) ++want.back().range.length;
        else want.push_back({{i, 1}, b.valid});
      }
      const auto &t = b.tracks[at];
      if (t.writer && std::find(hazards.begin(), hazards.end(), *t.writer) == hazards.end()) hazards.push_back(*t.writer);
      for (int reader : t.readers)
        if (std::find(hazards.begin(), hazards.end(), reader) == hazards.end()) hazards.push_back(reader);
    }
    REQUIRE(v.missing(at, q) == want);
    REQUIRE(v.valid_at(at, q) == want.empty());
    REQUIRE(v.valid_bytes(at, q) == in_range);
    std::vector<int> got = c.command_waits(at, q, true);
    std::sort(got.begin(), got.end());
    std::sort(hazards.begin(), hazards.end());
    REQUIRE(got == hazards);
  }
}
