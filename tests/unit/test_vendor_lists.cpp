// Which vendor libraries discovery loads, from the lists it is given: the
// extra libraries (UniCL's node client) come last, and skipped file names
// (a node never serves UniCL itself) never.
#include <catch2/catch.hpp>

#include "backend/vendor_discovery.hpp"

using unicl::VendorSources;
using unicl::vendor_library_names;

TEST_CASE("extra libraries come after the lists; skipped file names never load", "[vendor lists]") {
  VendorSources s;
  s.unicl_vendors = "/opt/a/libpocl.so:/opt/b/libunicl.so:liboclgrind-rt-icd.so";
  CHECK(vendor_library_names(s) ==
        std::vector<std::string>{"/opt/a/libpocl.so", "/opt/b/libunicl.so", "liboclgrind-rt-icd.so"});
  s.extra_libraries = {"/usr/lib/libunicl-remote.so"};
  CHECK(vendor_library_names(s).back() == "/usr/lib/libunicl-remote.so");
  s.skip_libraries = {"libunicl.so", "libunicl-remote.so"};
  CHECK(vendor_library_names(s) == std::vector<std::string>{"/opt/a/libpocl.so", "liboclgrind-rt-icd.so"});
}

TEST_CASE("a library listed twice loads once", "[vendor lists]") {
  VendorSources s;
  s.unicl_vendors = "libpocl.so:libpocl.so";
  s.extra_libraries = {"libpocl.so"};
  CHECK(vendor_library_names(s) == std::vector<std::string>{"libpocl.so"});
}
