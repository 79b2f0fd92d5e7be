// UNICL_VENDORS accepts what the loaders accept: a folder of .icd files, one
// .icd file, a library path, or a colon-separated list of those.
#include <catch2/catch.hpp>

#include <filesystem>

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

TEST_CASE("nine vendor libraries with UNICL_LOG=2: every device listed, no abort", "[discovery]") {
  // UniCL wraps the calls of the vendors whose failures it names (and of
  // those it must serialize) in entries compiled for at most eight vendor
  // libraries: a ninth runs unwrapped, and says so, rather than stop the
  // application. Nine copies of the simulator's library are nine vendors.
  cltest::TempDir dir;
  const std::string library = cltest::icd_library(cltest::required_env("UNICL_SIM_ICD"));
  for (int i = 0; i < 9; ++i) {
    const std::string copy = dir.file("libsim-" + std::to_string(i) + ".so");
    std::filesystem::copy_file(library, copy);
    dir.write("sim-" + std::to_string(i) + ".icd", copy + "\n");
  }
  auto env = cltest::exclusive_env(dir.path());
  env["UNICL_LOG"] = std::string("2");
  env["UNICL_SIM_CONFIG"] = cltest::required_env("UNICL_SIM_CONFIG");
  auto seen = cltest::probe(env);
  INFO(seen.run.out << seen.run.err);
  CHECK(seen.run.signal == 0);
  REQUIRE(seen.run.exit_code == 0);
  REQUIRE(seen.platforms.size() == 1);
  CHECK(seen.platforms[0].device_count == 9 * 2);  // two simulated GPUs each
  size_t unnamed = 0;
  for (auto &line : seen.run.err_lines()) unnamed += line.find("are not named") != std::string::npos;
  CHECK(unnamed == 1);
}
