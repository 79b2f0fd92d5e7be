// A device whose model of a kernel is not calibrated gets at least one
// work-group of a divided launch (granularity/uncalibrated_shares.hpp).
#include <catch2/catch.hpp>

#include "granularity/uncalibrated_shares.hpp"

using unicl::give_uncalibrated_a_group;

TEST_CASE("an uncalibrated device whose share rounded to nothing gets a group from the largest", "[unit][granularity]") {
  std::vector<size_t> groups{0, 60, 4};
  CHECK(give_uncalibrated_a_group({false, true, true}, groups));
  CHECK(groups == std::vector<size_t>{1, 59, 4});
}

TEST_CASE("a calibrated device keeps the share its model gives, none included", "[unit][granularity]") {
  std::vector<size_t> groups{0, 64};
  CHECK_FALSE(give_uncalibrated_a_group({true, true}, groups));
  CHECK(groups == std::vector<size_t>{0, 64});
}

TEST_CASE("no group is taken from a device left with none to spare", "[unit][granularity]") {
  std::vector<size_t> groups{0, 0, 1};
  CHECK_FALSE(give_uncalibrated_a_group({false, false, false}, groups));
  CHECK(groups == std::vector<size_t>{0, 0, 1});
  std::vector<size_t> two{0, 0, 2};
  CHECK(give_uncalibrated_a_group({false, false, true}, two));
  CHECK(two == std::vector<size_t>{1, 0, 1});  // the second waits: nothing left to spare
}
