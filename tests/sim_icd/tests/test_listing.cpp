// The platform and the devices timing.conf and many.conf describe.
#include "listing.hpp"

using namespace simtest;

TEST_CASE("The platform identifies itself", "[timing]") {
  cl_platform_id p = sim_platform();
  CHECK(platform_string(p, CL_PLATFORM_VENDOR) == "UniCL");
  CHECK(platform_string(p, CL_PLATFORM_VERSION) == "OpenCL 1.2 sim");
  CHECK(platform_string(p, CL_PLATFORM_PROFILE) == "FULL_PROFILE");
  CHECK(platform_string(p, CL_PLATFORM_EXTENSIONS) == "cl_khr_icd");
}

TEST_CASE("Devices are listed as timing.conf describes them", "[timing]") { check_timing_conf_devices(sim_platform()); }

TEST_CASE("Device queries answer like an OpenCL 1.2 device", "[timing]") {
  cl_platform_id p = sim_platform();
  cl_device_id gpu = device_named(p, "gpu1");
  CHECK(device_string(gpu, CL_DEVICE_VENDOR) == "UniCL Simulator");
  CHECK(device_string(gpu, CL_DEVICE_VERSION) == "OpenCL 1.2 sim");
  CHECK(device_string(gpu, CL_DEVICE_OPENCL_C_VERSION) == "OpenCL C 1.2");
  CHECK(device_string(gpu, CL_DEVICE_PROFILE) == "FULL_PROFILE");
  CHECK(device_string(gpu, CL_DEVICE_EXTENSIONS).empty());
  CHECK(device_string(gpu, CL_DEVICE_BUILT_IN_KERNELS).empty());
  CHECK(!device_string(gpu, CL_DRIVER_VERSION).empty());
  CHECK(device_value<cl_uint>(gpu, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) == 3);
  CHECK(device_value<size_t>(gpu, CL_DEVICE_MAX_WORK_GROUP_SIZE) == 1024);
  size_t sizes[3] = {};
  REQUIRE(clGetDeviceInfo(gpu, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, nullptr) == CL_SUCCESS);
  CHECK(sizes[2] == 1024);
  CHECK(device_value<cl_uint>(gpu, CL_DEVICE_ADDRESS_BITS) == 64);
  CHECK(device_value<cl_bool>(gpu, CL_DEVICE_AVAILABLE));
  CHECK(device_value<cl_bool>(gpu, CL_DEVICE_COMPILER_AVAILABLE));
  CHECK(device_value<cl_bool>(gpu, CL_DEVICE_LINKER_AVAILABLE));
  CHECK(device_value<cl_bool>(gpu, CL_DEVICE_ENDIAN_LITTLE));
  CHECK(!device_value<cl_bool>(gpu, CL_DEVICE_IMAGE_SUPPORT));
  CHECK(device_value<cl_command_queue_properties>(gpu, CL_DEVICE_QUEUE_PROPERTIES) ==
        (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  CHECK(device_value<cl_uint>(gpu, CL_DEVICE_MEM_BASE_ADDR_ALIGN) == 1024);
  CHECK(device_value<cl_ulong>(gpu, CL_DEVICE_LOCAL_MEM_SIZE) == 32 * 1024);
  CHECK(device_value<size_t>(gpu, CL_DEVICE_MAX_PARAMETER_SIZE) == 1024);
  CHECK(device_value<size_t>(gpu, CL_DEVICE_PROFILING_TIMER_RESOLUTION) == 1);
  CHECK(device_value<cl_uint>(gpu, CL_DEVICE_REFERENCE_COUNT) == 1);
  CHECK(device_value<cl_device_id>(gpu, CL_DEVICE_PARENT_DEVICE) == nullptr);
  CHECK(device_value<cl_platform_id>(gpu, CL_DEVICE_PLATFORM) == p);
  CHECK(device_value<cl_device_partition_property>(gpu, CL_DEVICE_PARTITION_PROPERTIES) == 0);
  CHECK(device_value<size_t>(gpu, CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);
  CHECK(device_value<cl_uint>(gpu, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) == 1);

  // Every OpenCL 1.2 device query (0x1000 to 0x1049, CL_DRIVER_VERSION
  // included) has an answer, except 0x1033, the cl_khr_fp16 extension's.
  for (cl_device_info q = CL_DEVICE_TYPE; q <= CL_DEVICE_PRINTF_BUFFER_SIZE; ++q) {
    INFO("query 0x" << std::hex << q);
    size_t n = 0;
    CHECK(clGetDeviceInfo(gpu, q, 0, nullptr, &n) == (q == 0x1033 ? CL_INVALID_VALUE : CL_SUCCESS));
  }
  CHECK(clGetDeviceInfo(gpu, 0x4242, 0, nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("count=64 makes 64 devices", "[many]") {
  cl_platform_id p = sim_platform();
  auto ds = devices(p);
  REQUIRE(ds.size() == 64);
  for (size_t i = 0; i < ds.size(); ++i) {
    CHECK(device_string(ds[i], CL_DEVICE_NAME) == "gpu" + std::to_string(i));
    CHECK(device_value<cl_device_type>(ds[i], CL_DEVICE_TYPE) == CL_DEVICE_TYPE_GPU);
    CHECK(device_value<cl_ulong>(ds[i], CL_DEVICE_GLOBAL_MEM_SIZE) == 128ull << 20);
  }
}

TEST_CASE("Without a configuration there is no platform", "[noconfig]") {
  cl_uint n = 42;
  cl_int err = clGetPlatformIDs(0, nullptr, &n);
  CHECK((err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && n == 0)));
}
