// Platform queries: clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs.
#include <algorithm>
#include <cstring>
#include <sstream>

#include "conformance.hpp"

using namespace conformance;

namespace {

std::string platform_string(cl_platform_id p, cl_platform_info param) {
  size_t n = 0;
  REQUIRE_CL(clGetPlatformInfo(p, param, 0, nullptr, &n), CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE_CL(clGetPlatformInfo(p, param, n, s.data(), nullptr), CL_SUCCESS);
  REQUIRE(n >= 1);
  CHECK(s.back() == '\0');
  s.pop_back();
  return s;
}

std::vector<std::string> words(const std::string &s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE("platform: clGetPlatformIDs lists the platform under test", "[platform][oclgrind]") {
  cl_uint n = 0;
  REQUIRE_CL(clGetPlatformIDs(0, nullptr, &n), CL_SUCCESS);
  REQUIRE(n >= 1);
  std::vector<cl_platform_id> ids(n);
  REQUIRE_CL(clGetPlatformIDs(n, ids.data(), nullptr), CL_SUCCESS);
  cl_platform_id wanted = cltest::platform()();
  CHECK(std::count(ids.begin(), ids.end(), wanted) == 1);
  // Asking for fewer entries than exist fills only those.
  cl_platform_id first = nullptr;
  cl_uint total = 0;
  REQUIRE_CL(clGetPlatformIDs(1, &first, &total), CL_SUCCESS);
  CHECK(first == ids[0]);
  CHECK(total == n);
}

TEST_CASE("platform: clGetPlatformIDs rejects empty requests", "[platform][errors]") {
  cl_platform_id p = nullptr;
  CHECK_CL(clGetPlatformIDs(0, &p, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetPlatformIDs(1, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("platform: profile and version strings are well formed", "[platform][oclgrind]") {
  cl_platform_id p = cltest::platform()();
  std::string profile = platform_string(p, CL_PLATFORM_PROFILE);
  CHECK((profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE"));
  std::string version = platform_string(p, CL_PLATFORM_VERSION);
  // "OpenCL<space><major.minor><space><platform-specific information>"
  CHECK(version.rfind("OpenCL ", 0) == 0);
  unsigned v = version_of(version);
  CHECK(v >= 120);
  INFO(version);
  CHECK(version.size() > 10);
  CHECK(version[10] == ' ');
}

TEST_CASE("platform: name, vendor and extensions", "[platform][oclgrind]") {
  cl_platform_id p = cltest::platform()();
  CHECK(platform_string(p, CL_PLATFORM_NAME) == cltest::wanted_platform());
  CHECK_FALSE(platform_string(p, CL_PLATFORM_VENDOR).empty());
  auto ext = words(platform_string(p, CL_PLATFORM_EXTENSIONS));
  CHECK(std::count(ext.begin(), ext.end(), "cl_khr_icd") == 1);
  for (auto &e : ext) CHECK(e.rfind("cl_", 0) == 0);
}

TEST_CASE("platform: ICD suffix is reported", "[platform][oclgrind]") {
  CHECK_FALSE(platform_string(cltest::platform()(), CL_PLATFORM_ICD_SUFFIX_KHR).empty());
}

TEST_CASE("platform: numeric version agrees with the version string", "[platform]") {
  if (platform_version() < 300) return;
  cl_version numeric = 0;
  cl_platform_id p = cltest::platform()();
  REQUIRE_CL(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, nullptr), CL_SUCCESS);
  unsigned v = platform_version();
  CHECK(CL_VERSION_MAJOR(numeric) == v / 100);
  CHECK(CL_VERSION_MINOR(numeric) == v / 10 % 10);
}

TEST_CASE("platform: extensions with version name every extension", "[platform]") {
  if (platform_version() < 300) return;
  cl_platform_id p = cltest::platform()();
  size_t n = 0;
  REQUIRE_CL(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &n), CL_SUCCESS);
  REQUIRE(n % sizeof(cl_name_version) == 0);
  std::vector<cl_name_version> all(n / sizeof(cl_name_version));
  REQUIRE_CL(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n, all.data(), nullptr), CL_SUCCESS);
  auto listed = words(platform_string(p, CL_PLATFORM_EXTENSIONS));
  CHECK(all.size() == listed.size());
  for (auto &nv : all) CHECK(std::count(listed.begin(), listed.end(), std::string(nv.name)) == 1);
}

TEST_CASE("platform: host timer resolution is a cl_ulong", "[platform]") {
  if (platform_version() < 210) return;
  size_t n = 0;
  CHECK_CL(clGetPlatformInfo(cltest::platform()(), CL_PLATFORM_HOST_TIMER_RESOLUTION, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == sizeof(cl_ulong));
}

TEST_CASE("platform: info size protocol", "[platform][errors][oclgrind]") {
  cl_platform_id p = cltest::platform()();
  size_t n = 0;
  REQUIRE_CL(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == cltest::wanted_platform().size() + 1);
  std::vector<char> small(n - 1);
  CHECK_CL(clGetPlatformInfo(p, CL_PLATFORM_NAME, small.size(), small.data(), nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetPlatformInfo(p, 0x7fffu, 0, nullptr, &n), CL_INVALID_VALUE);
  // Neither value nor size: a no-op that succeeds.
  CHECK_CL(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, nullptr, nullptr), CL_SUCCESS);
}

TEST_CASE("platform: clGetDeviceIDs lists the device under test", "[platform][oclgrind]") {
  cl_platform_id p = cltest::platform()();
  cl_uint n = 0;
  REQUIRE_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n), CL_SUCCESS);
  REQUIRE(n >= 1);
  std::vector<cl_device_id> ids(n);
  REQUIRE_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr), CL_SUCCESS);
  CHECK(std::count(ids.begin(), ids.end(), cltest::test_device()()) == 1);
  for (cl_device_id d : ids) {
    cl_platform_id owner = nullptr;
    REQUIRE_CL(clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof owner, &owner, nullptr), CL_SUCCESS);
    CHECK(owner == p);
  }
}

TEST_CASE("platform: clGetDeviceIDs argument errors", "[platform][errors]") {
  cl_platform_id p = cltest::platform()();
  cl_device_id d = nullptr;
  CHECK_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr), CL_INVALID_VALUE);
}

// PoCL answers CL_DEVICE_NOT_FOUND here; the specification wants
// CL_INVALID_DEVICE_TYPE, which UniCL gives.
TEST_CASE("platform: unknown device type bits are CL_INVALID_DEVICE_TYPE", "[platform][errors][unicl]") {
  cl_device_id d = nullptr;
  cl_uint n = 0;
  CHECK_CL(clGetDeviceIDs(cltest::platform()(), cl_device_type{1} << 40, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
}

TEST_CASE("platform: the default device is one non-custom device", "[platform][oclgrind]") {
  cl_platform_id p = cltest::platform()();
  cl_uint n = 0;
  REQUIRE_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == 1);
  cl_device_id d = nullptr;
  REQUIRE_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &d, nullptr), CL_SUCCESS);
  cl_device_type t = 0;
  REQUIRE_CL(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, nullptr), CL_SUCCESS);
  CHECK((t & CL_DEVICE_TYPE_CUSTOM) == 0);
}

TEST_CASE("platform: devices of each type report that type", "[platform]") {
  cl_platform_id p = cltest::platform()();
  for (cl_device_type type : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR}) {
    cl_uint n = 0;
    cl_int err = clGetDeviceIDs(p, type, 0, nullptr, &n);
    if (err == CL_DEVICE_NOT_FOUND) {
      CHECK(n == 0);
      continue;
    }
    REQUIRE_CL(err, CL_SUCCESS);
    std::vector<cl_device_id> ids(n);
    REQUIRE_CL(clGetDeviceIDs(p, type, n, ids.data(), nullptr), CL_SUCCESS);
    for (cl_device_id d : ids) {
      cl_device_type t = 0;
      REQUIRE_CL(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, nullptr), CL_SUCCESS);
      CHECK((t & type) != 0);
    }
  }
}

TEST_CASE("platform: a type without devices is CL_DEVICE_NOT_FOUND", "[platform][errors][oclgrind]") {
  cl_uint n = 99;
  CHECK_CL(clGetDeviceIDs(cltest::platform()(), CL_DEVICE_TYPE_CUSTOM, 0, nullptr, &n), CL_DEVICE_NOT_FOUND);
}

TEST_CASE("platform: unknown extension functions resolve to null", "[platform]") {
  CHECK(clGetExtensionFunctionAddressForPlatform(cltest::platform()(), "clNoSuchFunctionInAnyVendorXYZ") == nullptr);
}

TEST_CASE("platform: clUnloadPlatformCompiler succeeds and builds still work", "[platform]") {
  CHECK_CL(clUnloadPlatformCompiler(cltest::platform()()), CL_SUCCESS);
  Env env;
  auto program = build(env.context, "kernel void k(global int *a) { a[0] = 7; }");
  CHECK(program.getInfo<CL_PROGRAM_NUM_KERNELS>() == 1);
}
