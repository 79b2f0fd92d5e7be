// UNICL_VENDORS accepts what the loaders accept: a folder of .icd files, one
// .icd file, a library path, or a colon-separated list of those.
#include <catch2/catch.hpp>

#include "discovery.hpp"

namespace {

unsigned unicl_devices_with(const std::string &vendors) {
  auto seen = cltest::probe(cltest::exclusive_env(vendors));
  INFO("UNICL_VENDORS=" << vendors << "\n" << seen.run.out << seen.run.err);
  REQUIRE(seen.run.exit_code == 0);
  REQUIRE(seen.platforms.size() == 1);
  CHECK(seen.platforms[0].name == "UniCL");
  CHECK(seen.platforms[0].devices_point_back);
  return seen.platforms[0].device_count;
}

}  // namespace

TEST_CASE("UNICL_VENDORS as a folder", "[discovery]") {
  CHECK(unicl_devices_with(cltest::test_vendors_dir()) == cltest::kPoclDevices + cltest::kOclgrindDevices);
}

TEST_CASE("UNICL_VENDORS as a single .icd file", "[discovery]") {
  CHECK(unicl_devices_with(cltest::test_vendors_dir() + "/pocl.icd") == cltest::kPoclDevices);
}

TEST_CASE("UNICL_VENDORS as a library path", "[discovery]") {
  auto lib = cltest::icd_library(cltest::test_vendors_dir() + "/oclgrind.icd");
  CHECK(unicl_devices_with(lib) == cltest::kOclgrindDevices);
}

TEST_CASE("UNICL_VENDORS as a colon list of an .icd file and a library", "[discovery]") {
  auto lib = cltest::icd_library(cltest::test_vendors_dir() + "/oclgrind.icd");
  CHECK(unicl_devices_with(cltest::test_vendors_dir() + "/pocl.icd:" + lib) ==
        cltest::kPoclDevices + cltest::kOclgrindDevices);
}

TEST_CASE("UNICL_VENDORS naming one vendor twice loads it once", "[discovery]") {
  auto icd = cltest::test_vendors_dir() + "/pocl.icd";
  CHECK(unicl_devices_with(icd + ":" + cltest::icd_library(icd) + ":" + cltest::test_vendors_dir()) ==
        cltest::kPoclDevices + cltest::kOclgrindDevices);
}
