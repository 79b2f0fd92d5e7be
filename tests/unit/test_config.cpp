// UniCL's settings from the environment (src/core/config.hpp).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include "core/config.hpp"

using namespace unicl;

namespace {

// An environment of its own for each case: a variable absent from `vars`
// is unset.
Config parse(const std::map<std::string, std::string> &vars) {
  return Config::parse([&](const char *name) -> const char * {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

}  // namespace

TEST_CASE("an empty environment gives the defaults", "[config]") {
  Config c = parse({});
  CHECK(c.log_level == 0);
  CHECK(c.trace_path.empty());
  CHECK(c.scheduler.empty());
  CHECK(c.device_mem_limit.empty());
  CHECK_FALSE(c.schedule_all);
  CHECK(c.cache_dir.empty());
  CHECK_FALSE(c.unicl_vendors.has_value());
  CHECK(c.icd_filenames.empty());
  CHECK(c.icd_vendors.empty());
}

TEST_CASE("UNICL_LOG is a level, anything else quiet", "[config]") {
  CHECK(parse({{"UNICL_LOG", "2"}}).log_level == 2);
  CHECK(parse({{"UNICL_LOG", "1"}}).log_level == 1);
  CHECK(parse({{"UNICL_LOG", "0"}}).log_level == 0);
  CHECK(parse({{"UNICL_LOG", "-3"}}).log_level == 0);
  CHECK(parse({{"UNICL_LOG", "verbose"}}).log_level == 0);
  CHECK(parse({{"UNICL_LOG", ""}}).log_level == 0);
}

TEST_CASE("UNICL_SCHEDULE_ALL is on unless empty or 0", "[config]") {
  CHECK(parse({{"UNICL_SCHEDULE_ALL", "1"}}).schedule_all);
  CHECK(parse({{"UNICL_SCHEDULE_ALL", "yes"}}).schedule_all);
  CHECK_FALSE(parse({{"UNICL_SCHEDULE_ALL", "0"}}).schedule_all);
  CHECK_FALSE(parse({{"UNICL_SCHEDULE_ALL", ""}}).schedule_all);
}

TEST_CASE("values checked at context creation are kept as given", "[config]") {
  // Malformed ones too: context creation refuses them with
  // CL_INVALID_PROPERTY, and only multi-device contexts use them.
  Config c = parse({{"UNICL_SCHEDULER", "fastest-please"},
                    {"UNICL_DEVICE_MEM_LIMIT", "99999999999999999999999G"},
                    {"UNICL_TRACE", "/tmp/run trace.json"}});
  CHECK(c.scheduler == "fastest-please");
  CHECK(c.device_mem_limit == "99999999999999999999999G");
  CHECK(c.trace_path == "/tmp/run trace.json");
}

TEST_CASE("the cache folder comes from XDG_CACHE_HOME, else HOME", "[config]") {
  CHECK(parse({{"XDG_CACHE_HOME", "/x/cache"}, {"HOME", "/home/u"}}).cache_dir == "/x/cache/unicl");
  CHECK(parse({{"HOME", "/home/u"}}).cache_dir == "/home/u/.cache/unicl");
  CHECK(parse({{"XDG_CACHE_HOME", ""}, {"HOME", "/home/u"}}).cache_dir == "/home/u/.cache/unicl");
  CHECK(parse({{"XDG_CACHE_HOME", ""}, {"HOME", ""}}).cache_dir.empty());
}

TEST_CASE("vendor sources: UNICL_VENDORS set but empty differs from unset", "[config]") {
  Config empty = parse({{"UNICL_VENDORS", ""}});
  REQUIRE(empty.unicl_vendors.has_value());
  CHECK(empty.unicl_vendors->empty());
  Config lists = parse({{"UNICL_VENDORS", "/v/a.icd:/v/dir"},
                        {"OCL_ICD_FILENAMES", "libA.so:libB.so"},
                        {"OCL_ICD_VENDORS", "/etc/OpenCL/vendors"}});
  CHECK(lists.unicl_vendors == std::optional<std::string>("/v/a.icd:/v/dir"));
  CHECK(lists.icd_filenames == "libA.so:libB.so");
  CHECK(lists.icd_vendors == "/etc/OpenCL/vendors");
}

TEST_CASE("from_environment reads this process's environment", "[config]") {
  setenv("UNICL_LOG", "3", 1);
  setenv("UNICL_SCHEDULER", "ws", 1);
  unsetenv("UNICL_VENDORS");
  Config c = Config::from_environment();
  CHECK(c.log_level == 3);
  CHECK(c.scheduler == "ws");
  CHECK_FALSE(c.unicl_vendors.has_value());
  unsetenv("UNICL_LOG");
  unsetenv("UNICL_SCHEDULER");
}

TEST_CASE("UNICL_GRANULARITY and UNICL_DIVIDE_FACTOR are kept as given for context creation to check", "[config]") {
  Config c = parse({});
  CHECK(c.granularity.empty());
  CHECK(c.divide_factor.empty());
  CHECK_FALSE(c.socl_compat);
  CHECK(parse({{"UNICL_SOCL_COMPAT", "1"}}).socl_compat);
  CHECK_FALSE(parse({{"UNICL_SOCL_COMPAT", "0"}}).socl_compat);
  c = parse({{"UNICL_GRANULARITY", "climb"}, {"UNICL_DIVIDE_FACTOR", "4"}});
  CHECK(c.granularity == "climb");
  CHECK(c.divide_factor == "4");
}

TEST_CASE("the nodes join only rank 0 of an application context of one, beside other contexts", "[config]") {
  // What Open MPI 4.1 exports for `mpirun -np 1 ./app : -np 2 unicl-node`.
  const std::map<std::string, std::string> app = {{"OMPI_COMM_WORLD_SIZE", "3"},
                                                  {"OMPI_COMM_WORLD_RANK", "0"},
                                                  {"OMPI_MCA_orte_app_num", "0"},
                                                  {"OMPI_APP_CTX_NUM_PROCS", "1 2"}};
  CHECK(parse(app).cluster_job);
  CHECK_FALSE(parse({}).cluster_job);  // no MPI job
  auto with = [&](const std::string &k, const std::string &v) {
    auto e = app;
    e[k] = v;
    return parse(e).cluster_job;
  };
  CHECK_FALSE(with("UNICL_CLUSTER", "0"));
  CHECK(with("UNICL_CLUSTER", "1"));
  CHECK_FALSE(with("OMPI_COMM_WORLD_RANK", "1"));        // a node, or another rank of the application
  CHECK_FALSE(with("OMPI_APP_CTX_NUM_PROCS", "3"));      // -np 3 ./app: an MPI application of its own
  CHECK_FALSE(with("OMPI_APP_CTX_NUM_PROCS", "2 1"));    // two application ranks: which one would lead?
  CHECK_FALSE(with("OMPI_COMM_WORLD_SIZE", "1"));
}

TEST_CASE("UNICL_NODES starts nodes only from a process outside a larger MPI job", "[config]") {
  CHECK(parse({{"UNICL_NODES", "localhost:2"}}).spawn_nodes == "localhost:2");
  CHECK(parse({}).spawn_nodes.empty());
  CHECK(parse({{"UNICL_NODES", "2"}, {"OMPI_COMM_WORLD_SIZE", "1"}}).spawn_nodes == "2");  // mpirun -np 1 ./app
  CHECK(parse({{"UNICL_NODES", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"}}).spawn_nodes.empty());  // every rank would
  CHECK(parse({{"UNICL_NODES", "2"}, {"UNICL_CLUSTER", "0"}}).spawn_nodes.empty());
}
