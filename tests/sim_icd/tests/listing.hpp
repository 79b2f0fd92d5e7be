// What timing.conf says, checked on whatever platform lists its devices
// (the simulator itself, or UniCL loading it).
#pragma once

#include "sim_test.hpp"

namespace simtest {

inline void check_timing_conf_devices(cl_platform_id p) {
  struct Expected {
    const char *name;
    cl_device_type type;
    cl_ulong memory_mb;
    cl_uint units;
  };
  const Expected expected[] = {{"cpu0", CL_DEVICE_TYPE_CPU, 256, 4},
                               {"gpu0", CL_DEVICE_TYPE_GPU, 512, 16},
                               {"gpu1", CL_DEVICE_TYPE_GPU, 512, 16},
                               {"small", CL_DEVICE_TYPE_ACCELERATOR, 64, 2}};
  auto ds = devices(p);
  REQUIRE(ds.size() == 4);
  for (size_t i = 0; i < ds.size(); ++i) {
    INFO("device " << i);
    CHECK(device_string(ds[i], CL_DEVICE_NAME) == expected[i].name);
    // UniCL may add CL_DEVICE_TYPE_DEFAULT to the device it picks as default.
    CHECK((device_value<cl_device_type>(ds[i], CL_DEVICE_TYPE) & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT}) ==
          expected[i].type);
    cl_ulong mem = expected[i].memory_mb << 20;
    CHECK(device_value<cl_ulong>(ds[i], CL_DEVICE_GLOBAL_MEM_SIZE) == mem);
    CHECK(device_value<cl_ulong>(ds[i], CL_DEVICE_MAX_MEM_ALLOC_SIZE) == std::min(mem, std::max<cl_ulong>(mem / 4, cl_ulong{128} << 20)));
    CHECK(device_value<cl_uint>(ds[i], CL_DEVICE_MAX_COMPUTE_UNITS) == expected[i].units);
  }
  CHECK(devices(p, CL_DEVICE_TYPE_GPU).size() == 2);
  CHECK(devices(p, CL_DEVICE_TYPE_CPU).size() == 1);
  CHECK(devices(p, CL_DEVICE_TYPE_ACCELERATOR).size() == 1);
}

}  // namespace simtest
