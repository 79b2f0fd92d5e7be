// "Beside" mode: UniCL is installed next to the vendors it aggregates. The
// loader then shows UniCL and every vendor; UniCL reads the same vendor
// list, must skip itself and must not load a vendor twice.
#include <catch2/catch.hpp>

#include "discovery.hpp"

TEST_CASE("beside mode shows UniCL once next to the vendors", "[discovery]") {
  cltest::TempDir vendors;
  vendors.write("unicl.icd", cltest::slurp(cltest::exclusive_dir() + "/unicl.icd"));
  for (const char *name : {"pocl.icd", "oclgrind.icd"})
    vendors.write(name, cltest::slurp(cltest::test_vendors_dir() + "/" + name));

  auto env = cltest::clean_opencl_env();
  env["OCL_ICD_VENDORS"] = vendors.path();
  auto seen = cltest::probe(env);
  INFO(seen.run.out << seen.run.err);
  REQUIRE(seen.run.exit_code == 0);
  CHECK(seen.platforms.size() == 3);
  CHECK(seen.count("UniCL") == 1);
  CHECK(seen.count("Portable Computing Language") == 1);
  CHECK(seen.count("Oclgrind") == 1);
  const auto *unicl = seen.find("UniCL");
  REQUIRE(unicl);
  // The vendors also reachable through /etc/OpenCL/vendors are the same
  // libraries: UniCL must count their devices once.
  CHECK(unicl->device_count == 3);
  for (const auto &p : seen.platforms) CHECK(p.devices_point_back);
}

TEST_CASE("UniCL listed twice under different names is still skipped", "[discovery]") {
  cltest::TempDir vendors;
  std::string unicl_lib = cltest::icd_library(cltest::exclusive_dir() + "/unicl.icd");
  vendors.write("a-unicl.icd", unicl_lib);
  vendors.write("pocl.icd", cltest::slurp(cltest::test_vendors_dir() + "/pocl.icd"));
  auto seen = cltest::probe(cltest::exclusive_env(vendors.path() + ":" + unicl_lib));
  INFO(seen.run.out << seen.run.err);
  REQUIRE(seen.run.exit_code == 0);
  REQUIRE(seen.platforms.size() == 1);
  CHECK(seen.platforms[0].device_count == cltest::kPoclDevices);
}
