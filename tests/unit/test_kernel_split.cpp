// The bytes a launch touches of an argument declared with
// clSetKernelSplitUNICL: its index range times the stride, with the
// declared offset and size, clipped to the buffer.
#include <catch2/catch.hpp>

#include "core/kernel_split.hpp"

using unicl::split_bytes;

namespace {
unicl::SplitArg arg(cl_long offset, cl_long stride, size_t size) { return {0, offset, stride, size}; }
}  // namespace

TEST_CASE("a launch touches its indices' parts", "[unit][split]") {
  auto b = split_bytes(arg(0, 4, 4), 256, 256, 4096);
  REQUIRE(b);
  CHECK(b->offset == 1024);
  CHECK(b->size == 1024);
  // A row of 16 floats per index of a 2-D kernel's second dimension.
  b = split_bytes(arg(0, 64, 64), 10, 5, 64 * 100);
  REQUIRE(b);
  CHECK(b->offset == 640);
  CHECK(b->size == 320);
}

TEST_CASE("halos reach before and after the part, clipped to the buffer", "[unit][split]") {
  auto b = split_bytes(arg(-4, 4, 12), 100, 10, 4096);
  REQUIRE(b);
  CHECK(b->offset == 396);
  CHECK(b->size == 48);
  b = split_bytes(arg(-4, 4, 12), 0, 10, 4096);  // no bytes before the first
  REQUIRE(b);
  CHECK(b->offset == 0);
  CHECK(b->size == 44);
  b = split_bytes(arg(-4, 4, 12), 1014, 10, 4096);  // none after the last
  REQUIRE(b);
  CHECK(b->offset == 4052);
  CHECK(b->size == 44);
}

TEST_CASE("parts outside the buffer are empty; overflowing ranges are refused", "[unit][split]") {
  auto b = split_bytes(arg(0, 4, 4), 2000, 10, 4096);
  REQUIRE(b);
  CHECK(b->size == 0);
  b = split_bytes(arg(-100000, 4, 4), 0, 10, 4096);
  REQUIRE(b);
  CHECK(b->size == 0);
  CHECK_FALSE(split_bytes(arg(0, 4, 4), ~size_t{0} - 4, 10, 4096));
  // Strides times sizes beyond 64 bits are computed exactly, then clipped.
  b = split_bytes(arg(0, cl_long{1} << 40, 8), size_t{1} << 30, 4, 4096);
  REQUIRE(b);
  CHECK(b->size == 0);
}

TEST_CASE("a negative stride touches the part from the last index to the first", "[unit][split]") {
  // out[n - 1 - i] over 1000 floats: index i at 3996 - 4i.
  auto b = split_bytes(arg(3996, -4, 4), 100, 10, 4000);
  REQUIRE(b);
  CHECK(b->offset == 3996 - 109 * 4);
  CHECK(b->size == 40);
}

TEST_CASE("a stride of 0: every index touches the same bytes", "[unit][split]") {
  auto b = split_bytes(arg(64, 0, 128), 0, 1000, 4096);
  REQUIRE(b);
  CHECK(b->offset == 64);
  CHECK(b->size == 128);
}

TEST_CASE("the declaration finds its arguments", "[unit][split]") {
  unicl::KernelSplit s{1, {{2, 0, 4, 4}, {0, 0, 8, 8}}};
  REQUIRE(s.find(0));
  CHECK(s.find(0)->stride == 8);
  CHECK(s.find(2)->stride == 4);
  CHECK_FALSE(s.find(1));
}
