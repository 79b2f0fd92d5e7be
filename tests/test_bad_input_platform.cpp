// Bad input to the platform and device entry points.
#include "bad_input.hpp"

using bad::as;
using bad::world;

TEST_CASE("clGetPlatformIDs", "[bad_input]") {
  cl_platform_id p = nullptr;
  CHECK(clGetPlatformIDs(0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetPlatformIDs(0, &p, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clGetPlatformInfo", "[bad_input]") {
  cl_platform_id p = world().platform();
  char name[64];
  size_t size = 0;
  CHECK(clGetPlatformInfo(as<cl_platform_id>(world().context()), CL_PLATFORM_NAME, sizeof name, name, nullptr) ==
        CL_INVALID_PLATFORM);
  CHECK(clGetPlatformInfo(as<cl_platform_id>(world().device()), CL_PLATFORM_NAME, sizeof name, name, nullptr) ==
        CL_INVALID_PLATFORM);
  CHECK(clGetPlatformInfo(p, 0xdead, sizeof name, name, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, 1, name, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, nullptr, &size) == CL_SUCCESS);
  CHECK(size == sizeof "UniCL");
}

TEST_CASE("clGetDeviceIDs", "[bad_input]") {
  cl_platform_id p = world().platform();
  cl_device_id d = nullptr;
  cl_uint n = 0;
  CHECK(clGetDeviceIDs(as<cl_platform_id>(world().queue()), CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_INVALID_PLATFORM);
  CHECK(clGetDeviceIDs(p, cl_device_type{1} << 40, 1, &d, nullptr) == CL_INVALID_DEVICE_TYPE);
  CHECK(clGetDeviceIDs(p, 0, 1, &d, nullptr) == CL_INVALID_DEVICE_TYPE);
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  // No test vendor has a custom device (oclgrind claims every other type).
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_CUSTOM, 0, nullptr, &n) == CL_DEVICE_NOT_FOUND);
  CHECK(n == 0);
}

TEST_CASE("clGetDeviceInfo", "[bad_input]") {
  cl_device_id d = world().device();
  cl_uint units = 0;
  CHECK(clGetDeviceInfo(nullptr, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetDeviceInfo(as<cl_device_id>(world().buffer()), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                        nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetDeviceInfo(as<cl_device_id>(world().platform()), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                        nullptr) == CL_INVALID_DEVICE);
  if (cl_device_id dead = bad::dead_sub_device())
    CHECK(clGetDeviceInfo(dead, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetDeviceInfo(d, 0xdead, sizeof units, &units, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, 1, &units, nullptr) == CL_INVALID_VALUE);
  char name[2];
  CHECK(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateSubDevices", "[bad_input]") {
  cl_device_id d = world().device();
  cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_partition_property bogus[] = {0x7777, 1, 0};
  cl_device_id out[16];
  cl_uint n = 0;
  CHECK(clCreateSubDevices(nullptr, equally, 16, out, &n) == CL_INVALID_DEVICE);
  CHECK(clCreateSubDevices(as<cl_device_id>(world().context()), equally, 16, out, &n) == CL_INVALID_DEVICE);
  if (cl_device_id dead = bad::dead_sub_device())
    CHECK(clCreateSubDevices(dead, equally, 16, out, &n) == CL_INVALID_DEVICE);
  CHECK(clCreateSubDevices(d, nullptr, 16, out, &n) == CL_INVALID_VALUE);
  CHECK(clCreateSubDevices(d, bogus, 16, out, &n) == CL_INVALID_VALUE);
  CHECK(clCreateSubDevices(d, equally, 0, out, &n) == CL_INVALID_VALUE);
  // A partition the device does not support: CL_INVALID_VALUE (a supported
  // scheme that cannot be done gives one of the partition errors).
  cl_device_partition_property by_counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1000,
                                              CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_int err = clCreateSubDevices(d, by_counts, 16, out, &n);
  CHECK((err == CL_INVALID_VALUE || err == CL_INVALID_DEVICE_PARTITION_COUNT || err == CL_DEVICE_PARTITION_FAILED));
}

TEST_CASE("clRetainDevice", "[bad_input]") {
  CHECK(clRetainDevice(nullptr) == CL_INVALID_DEVICE);
  CHECK(clRetainDevice(as<cl_device_id>(world().kernel())) == CL_INVALID_DEVICE);
  if (cl_device_id dead = bad::dead_sub_device()) CHECK(clRetainDevice(dead) == CL_INVALID_DEVICE);
  // Root devices: retain and release succeed and change nothing.
  CHECK(clRetainDevice(world().device()) == CL_SUCCESS);
  CHECK(clReleaseDevice(world().device()) == CL_SUCCESS);
}

TEST_CASE("clReleaseDevice", "[bad_input]") {
  CHECK(clReleaseDevice(nullptr) == CL_INVALID_DEVICE);
  CHECK(clReleaseDevice(as<cl_device_id>(world().queue())) == CL_INVALID_DEVICE);
  if (cl_device_id dead = bad::dead_sub_device()) CHECK(clReleaseDevice(dead) == CL_INVALID_DEVICE);
}

TEST_CASE("clGetExtensionFunctionAddress", "[bad_input]") {
  CHECK(clGetExtensionFunctionAddress("clNoSuchFunctionUNICL") == nullptr);
  CHECK(clGetExtensionFunctionAddress("") == nullptr);
}

TEST_CASE("clGetExtensionFunctionAddressForPlatform", "[bad_input]") {
  cl_platform_id p = world().platform();
  CHECK(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionUNICL") == nullptr);
  CHECK(clGetExtensionFunctionAddressForPlatform(p, "") == nullptr);
  CHECK(clGetExtensionFunctionAddressForPlatform(as<cl_platform_id>(world().context()), "clIcdGetPlatformIDsKHR") ==
        nullptr);
}

TEST_CASE("clUnloadCompiler", "[bad_input]") {
  // No input to get wrong: it is only a hint and always succeeds.
  CHECK(clUnloadCompiler() == CL_SUCCESS);
}

TEST_CASE("clUnloadPlatformCompiler", "[bad_input]") {
  // A null platform never reaches UniCL: the loader answers, and ocl-icd
  // takes it as its default platform.
  cl_int err = clUnloadPlatformCompiler(nullptr);
  CHECK((err == CL_INVALID_PLATFORM || err == CL_SUCCESS));
  CHECK(clUnloadPlatformCompiler(as<cl_platform_id>(world().device())) == CL_INVALID_PLATFORM);
  CHECK(clUnloadPlatformCompiler(world().platform()) == CL_SUCCESS);
}

TEST_CASE("clIcdGetPlatformIDsKHR", "[bad_input]") {
  using Fn = cl_int(CL_API_CALL *)(cl_uint, cl_platform_id *, cl_uint *);
  auto fn = reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(world().platform(), "clIcdGetPlatformIDsKHR"));
  REQUIRE(fn != nullptr);
  cl_platform_id p = nullptr;
  cl_uint n = 0;
  CHECK(fn(0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(fn(0, &p, nullptr) == CL_INVALID_VALUE);
  CHECK(fn(0, nullptr, &n) == CL_SUCCESS);
  CHECK(n == 1);
}
