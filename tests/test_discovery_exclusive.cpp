// Exclusive mode: the loader knows only UniCL, so applications see one
// platform holding every device of every vendor UniCL loaded.
#include <catch2/catch.hpp>

#include "cl_test.hpp"
#include "discovery.hpp"

TEST_CASE("exclusive mode shows one UniCL platform with all devices", "[discovery]") {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  REQUIRE(platforms.size() == 1);
  CHECK(platforms[0].getInfo<CL_PLATFORM_NAME>() == "UniCL");

  std::vector<cl::Device> devices;
  platforms[0].getDevices(CL_DEVICE_TYPE_ALL, &devices);
  REQUIRE(devices.size() == cltest::kPoclDevices + cltest::kOclgrindDevices);
  int pthread = 0, basic = 0, oclgrind = 0;
  for (auto &d : devices) {
    CHECK(d.getInfo<CL_DEVICE_PLATFORM>() == platforms[0]());
    auto name = d.getInfo<CL_DEVICE_NAME>();
    pthread += name.find("pthread") != std::string::npos;
    basic += name.find("basic") != std::string::npos;
    oclgrind += name.find("Oclgrind") != std::string::npos;
  }
  CHECK(pthread == 1);
  CHECK(basic == 1);
  CHECK(oclgrind == 1);
}

TEST_CASE("exclusive mode seen from a fresh process", "[discovery]") {
  auto seen = cltest::probe(cltest::exclusive_env(cltest::test_vendors_dir()));
  INFO(seen.run.out << seen.run.err);
  REQUIRE(seen.run.exit_code == 0);
  REQUIRE(seen.platforms.size() == 1);
  CHECK(seen.platforms[0].name == "UniCL");
  CHECK(seen.platforms[0].device_count == 3);
  CHECK(seen.platforms[0].devices_point_back);
}
