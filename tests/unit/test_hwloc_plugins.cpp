// The HWLOC_PLUGINS_BLACKLIST a cluster job's processes get
// (src/cluster/hwloc_plugins.hpp): the user's value kept, ours added once.
#include <catch2/catch.hpp>

#include "cluster/protocol/hwloc_plugins.hpp"

using unicl::cluster::hwloc_blacklist_with_ours;

TEST_CASE("hwloc's OpenCL and GL plugins are added to the blacklist once, the user's names kept") {
  CHECK(hwloc_blacklist_with_ours(nullptr) == "hwloc_opencl,hwloc_gl");
  CHECK(hwloc_blacklist_with_ours("") == "hwloc_opencl,hwloc_gl");
  CHECK(hwloc_blacklist_with_ours("hwloc_cuda") == "hwloc_cuda,hwloc_opencl,hwloc_gl");
  CHECK(hwloc_blacklist_with_ours("hwloc_gl") == "hwloc_gl,hwloc_opencl");
  // Already there, whatever the separator: nothing to change.
  CHECK(hwloc_blacklist_with_ours("hwloc_opencl,hwloc_gl").empty());
  CHECK(hwloc_blacklist_with_ours("hwloc_gl hwloc_opencl").empty());
  CHECK(hwloc_blacklist_with_ours("x;hwloc_opencl:hwloc_gl").empty());
  // A name that only contains ours is another plugin.
  CHECK(hwloc_blacklist_with_ours("hwloc_opencl2,hwloc_gl") == "hwloc_opencl2,hwloc_gl,hwloc_opencl");
}
