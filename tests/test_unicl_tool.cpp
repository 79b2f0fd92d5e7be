// The `unicl` tool: `info` describes UniCL as a program in exclusive mode sees
// it; `run` hands a program the exclusive-mode environment and nothing else.
#include <catch2/catch.hpp>

#include "scenario.hpp"

namespace {

std::string tool() { return cltest::required_env("UNICL_TOOL"); }
std::string build_root() { return cltest::required_env("UNICL_BUILD_ROOT"); }

// What `unicl run` hands its program: the four variables, one a line.
const std::vector<std::string> kPrintEnv = {
    "/bin/sh", "-c",
    "echo \"$OCL_ICD_VENDORS\"; echo \"${UNICL_VENDORS-unset}\"; echo \"${OCL_ICD_FILENAMES-unset}\"; "
    "echo \"${UNICL_LOG-unset}\""};

std::vector<std::string> run_tool(std::vector<std::string> args, const child_process::EnvChanges &env,
                                  int expected_exit = 0) {
  args.insert(args.begin(), tool());
  auto r = child_process::run(args, env);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == expected_exit);
  return r.out_lines();
}

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string> &tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

}  // namespace

TEST_CASE("unicl info shows one UniCL platform, its devices' vendor platforms and the host") {
  auto env = cltest::clean_opencl_env();
  auto r = child_process::run({tool(), "info", "--vendors", build_root() + "/vendors-test"}, env);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("platforms seen through the ICD loader: 1"));
  CHECK_THAT(r.out, Catch::Contains("Platform \"UniCL\""));
  CHECK_THAT(r.out, Catch::Contains("devices     : 3"));
  CHECK_THAT(r.out, Catch::Contains("vendor platform : Portable Computing Language"));
  CHECK_THAT(r.out, Catch::Contains("vendor platform : Oclgrind"));
  CHECK_THAT(r.out, Catch::Contains("compute units"));
  CHECK_THAT(r.out, Catch::Contains("Host topology (hwloc):"));
  CHECK_THAT(r.out, Catch::Contains("PU P#0"));
}

TEST_CASE("unicl info with no usable vendor still reports, and fails") {
  auto env = cltest::clean_opencl_env();
  auto r = child_process::run({tool(), "info", "--vendors", "/nonexistent/libnothing.so"}, env);
  CHECK(r.exit_code == 0);  // UniCL with no devices is still a platform
  CHECK_THAT(r.out, Catch::Contains("devices     : 0"));
  CHECK_THAT(r.out, Catch::Contains("Host topology (hwloc):"));
}

TEST_CASE("unicl run hands the program the exclusive-mode environment") {
  const std::string exclusive = build_root() + "/vendors-exclusive";
  auto env = cltest::clean_opencl_env();

  SECTION("the user's loader variables become UniCL's vendors") {
    env["OCL_ICD_VENDORS"] = "/a:/b";
    env["OCL_ICD_FILENAMES"] = "/x/libx.so";
    auto out = run_tool(with({"run", "--"}, kPrintEnv), env);
    REQUIRE(out.size() == 4);
    CHECK(out[0] == exclusive);
    CHECK(out[1] == "/x/libx.so:/a:/b");
    CHECK(out[2] == "unset");  // the loader must not load those beside UniCL
    CHECK(out[3] == "unset");
  }
  SECTION("with no loader variables, the system's vendors") {
    auto out = run_tool(with({"run"}, kPrintEnv), env);
    REQUIRE(out.size() == 4);
    CHECK(out[0] == exclusive);
    CHECK(out[1] == "/etc/OpenCL/vendors");
  }
  SECTION("an existing UNICL_VENDORS is kept") {
    env["UNICL_VENDORS"] = "/mine";
    env["OCL_ICD_VENDORS"] = "/theirs";
    auto out = run_tool(with({"run", "--"}, kPrintEnv), env);
    REQUIRE(out.size() == 4);
    CHECK(out[1] == "/mine");
  }
  SECTION("--vendors and --log win") {
    env["UNICL_VENDORS"] = "/mine";
    auto out = run_tool(with({"run", "--vendors", "/v1:/v2", "--log=2", "--"}, kPrintEnv), env);
    REQUIRE(out.size() == 4);
    CHECK(out[1] == "/v1:/v2");
    CHECK(out[3] == "2");
  }
  SECTION("already in exclusive mode: the exclusive folder is not taken for the vendors") {
    env["OCL_ICD_VENDORS"] = exclusive;
    auto out = run_tool(with({"run", "--"}, kPrintEnv), env);
    REQUIRE(out.size() == 4);
    CHECK(out[1] == "/etc/OpenCL/vendors");
  }
}

TEST_CASE("unicl run passes the program's exit status and reports misuse") {
  auto env = cltest::clean_opencl_env();
  run_tool({"run", "--", "/bin/sh", "-c", "exit 7"}, env, 7);
  run_tool({"run", "--", "/nonexistent/program"}, env, 127);
  run_tool({"run"}, env, 2);
  run_tool({"frobnicate"}, env, 2);
  run_tool({"info", "--bogus"}, env, 2);
  auto version = run_tool({"--version"}, env);
  REQUIRE(version.size() == 1);
  CHECK_THAT(version[0], Catch::StartsWith("unicl "));
}

TEST_CASE("unicl info --models prints the performance models UniCL keeps") {
  cltest::TempDir cache;
  auto env = cltest::clean_opencl_env();
  env["XDG_CACHE_HOME"] = cache.path();
  auto none = run_tool({"info", "--models"}, env);
  REQUIRE_FALSE(none.empty());
  CHECK_THAT(none[0], Catch::Contains("no performance models yet"));
  std::string dir = cache.path() + "/unicl";
  REQUIRE(child_process::run({"mkdir", "-p", dir}, {}).exit_code == 0);
  {
    std::ofstream f(dir + "/models.tsv");
    f << "kernel\tsgemm\tpthread-cpu\t4096\t12\t0.0025\n"
      << "link\tpthread-cpu\t2e-05\t4e+09\t7\n";
  }
  auto lines = run_tool({"info", "--models"}, env);
  std::string all;
  for (auto &l : lines) all += l + "\n";
  CHECK_THAT(all, Catch::Contains("sgemm"));
  CHECK_THAT(all, Catch::Contains("2.500 ms"));
  CHECK_THAT(all, Catch::Contains("latency 20.0 us, bandwidth 4.00 GB/s"));
}

TEST_CASE("unicl run passes the scheduling options to the program") {
  auto env = cltest::clean_opencl_env();
  auto lines = run_tool({"run", "--scheduler", "ws", "--schedule-all", "--mem-limit", "64M", "--trace", "/tmp/t.json",
                         "--", "/bin/sh", "-c",
                         "echo $UNICL_SCHEDULER; echo $UNICL_SCHEDULE_ALL; echo $UNICL_DEVICE_MEM_LIMIT; echo $UNICL_TRACE"},
                        env);
  CHECK(lines == std::vector<std::string>{"ws", "1", "64M", "/tmp/t.json"});
}

TEST_CASE("unicl run keeps hwloc's OpenCL plugin out of a cluster job, before the program starts") {
  auto env = cltest::clean_opencl_env();
  const std::vector<std::string> print = {"--", "/bin/sh", "-c", "echo \"${HWLOC_PLUGINS_BLACKLIST-unset}\""};
  SECTION("no nodes: the program's environment is left alone") {
    CHECK(run_tool(with({"run"}, print), env) == std::vector<std::string>{"unset"});
  }
  SECTION("UNICL_NODES: the plugins are named, the user's own kept") {
    env["UNICL_NODES"] = "1";
    CHECK(run_tool(with({"run"}, print), env) == std::vector<std::string>{"hwloc_opencl,hwloc_gl"});
    env["HWLOC_PLUGINS_BLACKLIST"] = "hwloc_cuda";
    CHECK(run_tool(with({"run"}, print), env) == std::vector<std::string>{"hwloc_cuda,hwloc_opencl,hwloc_gl"});
  }
}

TEST_CASE("unicl run --composite asks UniCL for the composite device") {
  auto env = cltest::clean_opencl_env();
  const std::vector<std::string> print = {"/bin/sh", "-c", "echo \"${UNICL_COMPOSITE-unset}\""};
  CHECK(run_tool(with({"run", "--composite", "--"}, print), env) == std::vector<std::string>{"1"});
  CHECK(run_tool(with({"run", "--composite=pthread,basic", "--"}, print), env) ==
        std::vector<std::string>{"pthread,basic"});
  CHECK(run_tool(with({"run", "--"}, print), env) == std::vector<std::string>{"unset"});
}

TEST_CASE("unicl analyze prints each kernel's verdict, with the build options given") {
  const std::string corpus = cltest::required_env("UNICL_CORPUS");
  auto env = cltest::clean_opencl_env();
  auto out = run_tool({"analyze", corpus + "/matmul.cl"}, env);
  REQUIRE_FALSE(out.empty());
  CHECK_THAT(out[0], Catch::StartsWith("kernel matmul: splits along dimension 1"));
  std::string all;
  for (auto &line : out) all += line + "\n";
  CHECK_THAT(all, Catch::Contains("c (written): i*4*n + 4*get_global_id(0), 4 bytes"));
  out = run_tool({"analyze", corpus + "/reduce_atomic.cl"}, env);
  CHECK(out == std::vector<std::string>{"kernel reduce_atomic: runs whole: atomics on global memory (atomic_add)"});
  // -D as a build gives it: the row width becomes 32 floats.
  out = run_tool({"analyze", corpus + "/macro_width.cl", "-D", "WIDTH=32"}, env);
  all.clear();
  for (auto &line : out) all += line + "\n";
  CHECK_THAT(all, Catch::Contains("out (written): i*128 + 4*get_global_id(0), 4 bytes"));
  // A source that does not compile: said so, and a failure.
  run_tool({"analyze", corpus + "/macro_width.cl"}, env, 1);
  run_tool({"analyze", "/nonexistent.cl"}, env, 2);
}
