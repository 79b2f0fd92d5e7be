// Vendors that cannot be used are skipped: the platform still works with
// the others, and UNICL_LOG=1 explains each failure in one stderr line.
#include <catch2/catch.hpp>

#include <algorithm>

#include "discovery.hpp"

namespace {

size_t lines_naming(const std::vector<std::string> &lines, const std::string &what) {
  return std::count_if(lines.begin(), lines.end(), [&](const std::string &l) { return l.find(what) != std::string::npos; });
}

struct BrokenVendors {
  cltest::TempDir dir;
  std::string missing = "/nonexistent/unicl-test/libmissing-vendor.so";
  std::string not_icd = cltest::required_env("UNICL_NOT_AN_ICD");
  std::string no_platforms = cltest::required_env("UNICL_ICD_WITHOUT_PLATFORMS");
  BrokenVendors() {
    dir.write("a-missing.icd", missing + "\n");
    dir.write("b-not-an-icd.icd", not_icd + "\n");
    dir.write("c-no-platforms.icd", no_platforms + "\n");
    dir.write("pocl.icd", cltest::slurp(cltest::test_vendors_dir() + "/pocl.icd"));
  }
};

}  // namespace

TEST_CASE("broken vendors are skipped without a crash", "[discovery]") {
  BrokenVendors vendors;
  auto seen = cltest::probe(cltest::exclusive_env(vendors.dir.path()));
  INFO(seen.run.out << seen.run.err);
  CHECK(seen.run.signal == 0);
  REQUIRE(seen.run.exit_code == 0);
  REQUIRE(seen.platforms.size() == 1);
  CHECK(seen.platforms[0].device_count == cltest::kPoclDevices);
  // Without UNICL_LOG UniCL stays silent.
  CHECK(lines_naming(seen.run.err_lines(), "unicl") == 0);
}

TEST_CASE("UNICL_LOG=1 prints one line per failed vendor", "[discovery]") {
  BrokenVendors vendors;
  auto env = cltest::exclusive_env(vendors.dir.path());
  env["UNICL_LOG"] = "1";
  auto seen = cltest::probe(env);
  INFO(seen.run.out << seen.run.err);
  REQUIRE(seen.run.exit_code == 0);
  auto lines = seen.run.err_lines();
  CHECK(lines_naming(lines, vendors.missing) == 1);
  CHECK(lines_naming(lines, vendors.not_icd) == 1);
  CHECK(lines_naming(lines, vendors.no_platforms) == 1);
  CHECK(lines_naming(lines, "unicl:") == 3);
  CHECK(lines_naming(lines, "libpocl") == 0);
}

TEST_CASE("only broken vendors: UniCL has no devices and does not crash", "[discovery]") {
  BrokenVendors vendors;
  auto seen = cltest::probe(cltest::exclusive_env(vendors.missing + ":" + vendors.not_icd));
  INFO(seen.run.out << seen.run.err);
  CHECK(seen.run.signal == 0);
  CHECK(seen.run.exit_code == 0);
  // Either UniCL offers a platform without devices or the loader drops it;
  // both are fine, a crash or a device that is not there is not.
  for (const auto &p : seen.platforms) CHECK(p.device_count == 0);
}

TEST_CASE("UNICL_VENDORS naming nothing that exists", "[discovery]") {
  auto seen = cltest::probe(cltest::exclusive_env("/nonexistent/unicl-test-vendors"));
  INFO(seen.run.out << seen.run.err);
  CHECK(seen.run.signal == 0);
  CHECK(seen.run.exit_code == 0);
  for (const auto &p : seen.platforms) CHECK(p.device_count == 0);
}
