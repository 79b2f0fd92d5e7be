// Contexts across nodes, first part: the nodes of an MPI job join the UniCL
// platform. Each case runs a real Open MPI job on this machine (loopback):
// rank 0 is an application through UniCL, the other ranks unicl-node, each
// node serving PoCL; no mock of MPI or OpenCL.
#include <catch2/catch.hpp>

#include <child_process.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string env(const char *name) {
  const char *v = std::getenv(name);
  REQUIRE(v);
  return v;
}

// One application context of an mpirun command line: `count` ranks running
// `argv`, with `vars` exported to them only.
struct Ranks {
  int count;
  std::vector<std::string> argv;
  std::map<std::string, std::string> vars;
  std::string hosts = {};  // --host for these ranks (empty: mpirun's choice)
};

// mpirun APP : NODES..., as root on this machine (the flags DEVELOPERS.md
// gives), bounded by `seconds`.
child_process::Result mpirun(const std::vector<Ranks> &contexts, double seconds = 120,
                             const std::vector<std::string> &flags = {}, child_process::EnvChanges vars = {}) {
  std::vector<std::string> argv = {"mpirun", "--oversubscribe"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (size_t i = 0; i < contexts.size(); ++i) {
    if (i) argv.push_back(":");
    argv.insert(argv.end(), {"-np", std::to_string(contexts[i].count)});
    if (!contexts[i].hosts.empty()) argv.insert(argv.end(), {"--host", contexts[i].hosts});
    for (auto &[k, v] : contexts[i].vars) argv.insert(argv.end(), {"-x", k + "=" + v});
    argv.insert(argv.end(), contexts[i].argv.begin(), contexts[i].argv.end());
  }
  vars["OMPI_ALLOW_RUN_AS_ROOT"] = "1";
  vars["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1";
  // Under AddressSanitizer, no leak check in the ranks: Open MPI keeps
  // allocations to the end by design, in components it has unloaded by then,
  // whose frames LeakSanitizer cannot name to suppress. (The single-process
  // tests check UniCL's own leaks.)
  const char *asan = std::getenv("ASAN_OPTIONS");
  vars["ASAN_OPTIONS"] = (asan ? std::string(asan) + ":" : std::string()) + "detect_leaks=0";
  return child_process::run(argv, vars, seconds);
}

// The application rank: UniCL alone before the loader, PoCL's two devices as
// its local vendor.
Ranks application(const std::vector<std::string> &argv) {
  return {1, argv,
          {{"OCL_ICD_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-exclusive"},
           {"UNICL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd"},
           {"POCL_DEVICES", "pthread basic"},
           {"XDG_CACHE_HOME", env("XDG_CACHE_HOME")}}};
}
Ranks nodes(int count, std::map<std::string, std::string> more = {}) {
  std::map<std::string, std::string> vars = {{"UNICL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd"},
                                             {"POCL_DEVICES", "pthread basic"}};
  for (auto &[k, v] : more) vars[k] = v;
  return {count, {env("UNICL_NODE")}, vars};
}

// A node's variables for the simulator in correctness mode (its kernels
// run on PoCL's pthread device), with devices that hold memory of their
// own (UNICL_SIM_COPIES).
std::map<std::string, std::string> simulator_on_pocl() {
  return {{"UNICL_VENDORS", env("UNICL_SIM_ICD")},
          {"UNICL_SIM_CONFIG", env("UNICL_SIM_COPIES")},
          {"UNICL_SIM_POCL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd"},
          {"POCL_DEVICES", "pthread"}};
}

// The UniCL platform's devices from unicl-probe's (or the MPI app's)
// "device <platform>|<device>|<ok>" lines.
std::vector<std::string> unicl_devices(const child_process::Result &r) {
  std::vector<std::string> out;
  for (auto &line : r.out_lines())
    if (line.rfind("device UniCL|", 0) == 0) out.push_back(line.substr(13, line.rfind('|') - 13));
  return out;
}

size_t count_ending(const std::vector<std::string> &names, const std::string &suffix) {
  return std::count_if(names.begin(), names.end(), [&](const std::string &n) {
    return n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
  });
}

// unicl-probe's run saw PoCL's pthread device here and on nodes 1 and 2.
void check_local_and_two_nodes(const child_process::Result &r) {
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto devices = unicl_devices(r);
  CHECK(devices.size() == 3);
  CHECK(count_ending(devices, ":1") == 1);
  CHECK(count_ending(devices, ":2") == 1);
}

// A UNICL_TRACE file's tracks by id, and each slice's track, name, start and
// duration (us).
struct TraceSlice {
  std::string track, name;
  double ts, dur;
};
std::pair<std::map<std::string, std::string>, std::vector<TraceSlice>> read_trace(std::istream &json) {
  std::map<std::string, std::string> tracks;
  std::vector<TraceSlice> slices;
  const std::regex track(R"re("tid":(\d+),"args":\{"name":"([^"]*)"\})re");
  const std::regex slice(R"re(\{"name":"([^"]*)","cat":"[^"]*","ph":"X","pid":1,"tid":(\d+),"ts":([0-9.]+),"dur":([0-9.]+))re");
  for (std::string line; std::getline(json, line);) {
    std::smatch m;
    if (std::regex_search(line, m, track)) tracks[m[1]] = m[2];
    else if (std::regex_search(line, m, slice)) slices.push_back({m[2], m[1], std::stod(m[3]), std::stod(m[4])});
  }
  return {tracks, slices};
}

}  // namespace

TEST_CASE("the devices of every node join the UniCL platform once, named with their node", "[cluster]") {
  auto r = mpirun({application({env("UNICL_PROBE")}), nodes(2)});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);  // and mpirun ended: each node was told goodbye
  auto devices = unicl_devices(r);
  // PoCL's pthread and basic here, and on each of the two nodes.
  REQUIRE(devices.size() == 6);
  CHECK(count_ending(devices, ":1") == 2);
  CHECK(count_ending(devices, ":2") == 2);
  std::vector<std::string> sorted = devices;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  // CL_DEVICE_PLATFORM of each is the UniCL platform.
  for (auto &line : r.out_lines())
    if (line.rfind("device UniCL|", 0) == 0) CHECK(line.back() == '1');
}

TEST_CASE("a node of another protocol version or without devices is left out, with a message", "[cluster]") {
  SECTION("another protocol") {
    auto r = mpirun({application({env("UNICL_PROBE")}), nodes(1, {{"UNICL_NODE_PROTOCOL", "99"}}), nodes(1)});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Catch::Contains("rank 1 runs a unicl-node of protocol 99"));
    auto devices = unicl_devices(r);
    CHECK(devices.size() == 4);  // the local two and rank 2's
    CHECK(count_ending(devices, ":1") == 0);
    CHECK(count_ending(devices, ":2") == 2);
  }
  SECTION("no devices") {
    auto r = mpirun({application({env("UNICL_PROBE")}), nodes(1, {{"UNICL_VENDORS", ""}}), nodes(1)});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Catch::Contains(":1 has no OpenCL device"));
    auto devices = unicl_devices(r);
    CHECK(devices.size() == 4);
    CHECK(count_ending(devices, ":2") == 2);
  }
}

TEST_CASE("an application that initializes and finalizes MPI itself ends, and so do its nodes", "[cluster]") {
  auto r = mpirun({application({env("UNICL_MPI_APP")}), nodes(2)});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("mpi thread level multiple"));
  CHECK_THAT(r.out, Catch::Contains("finalized"));
  CHECK(unicl_devices(r).size() == 6);
  // CL_DEVICE_NODE_UNICL: each device's node, 0 for this machine's.
  std::map<int, int> per_node;
  for (auto &line : r.out_lines())
    if (line.rfind("node ", 0) == 0) {
      auto first = line.find('|'), second = line.find('|', first + 1);
      per_node[std::stoi(line.substr(first + 1, second - first - 1))] += 1;
      CHECK(second + 1 < line.size());  // CL_DEVICE_NODE_HOST_UNICL: a host name
    }
  CHECK(per_node == std::map<int, int>{{0, 2}, {1, 2}, {2, 2}});
  // CL_DEVICE_NODE_LINK_UNICL: the network to each node, measured when it
  // joined; none for this machine's devices.
  std::map<std::string, int> network;
  for (auto &line : r.out_lines())
    if (line.rfind("network ", 0) == 0) ++network[line.substr(line.find('|') + 1)];
  CHECK(network == std::map<std::string, int>{{"measured", 4}, {"none", 2}});
  // CL_DEVICE_NODE_LINKS_UNICL: from each node to the 3 ranks, measured
  // when the nodes joined (node to node too); nothing for this machine's.
  std::map<std::string, int> links;
  for (auto &line : r.out_lines())
    if (line.rfind("links ", 0) == 0) ++links[line.substr(line.find('|') + 1)];
  CHECK(links == std::map<std::string, int>{{"3|measured", 4}, {"0|none", 2}});
}

namespace {

// A sample through UniCL with the nodes' devices: remote only (no local
// vendor) or mixed with PoCL's pthread device here; its own check of the
// result prints "result: OK".
// `trace`: a file for rank 0's UNICL_TRACE (empty: none).
child_process::Result sample(const std::string &name, bool mixed, const std::vector<std::string> &args,
                             const std::string &trace = {}) {
  std::vector<std::string> argv = {env("UNICL_SAMPLES") + "/" + name};
  argv.insert(argv.end(), args.begin(), args.end());
  auto app = application(argv);
  app.vars["UNICL_VENDORS"] = mixed ? env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd" : "";
  app.vars["POCL_DEVICES"] = "pthread";
  if (!trace.empty()) app.vars["UNICL_TRACE"] = trace;
  return mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})});
}

std::string file_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the samples compute their results on the nodes' devices, alone and beside local ones", "[cluster]") {
  for (std::string name : {"matmul", "blackscholes", "mandelbrot", "nbody", "cholesky"})
    for (bool mixed : {false, true})
      for (std::string queue : {"per-device", "device-less"}) {
        INFO(name << (mixed ? ", mixed" : ", remote only") << ", " << queue);
        auto r = sample(name, mixed, {"--queue", queue});
        INFO(r.out << r.err);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::Contains("result: OK"));
        // Per device: launches dealt round-robin reach every device.
        if (queue == "per-device") CHECK_THAT(r.out, Catch::Contains(":2: "));
      }
}

TEST_CASE("UNICL_TRACE shows each command of a node's device when it ran, queued there and was learnt of", "[cluster]") {
  // The matmul sample on two nodes' devices (none here), traced by rank 0.
  const std::string file = std::filesystem::temp_directory_path() / ("unicl-node-trace-" + std::to_string(getpid()) + ".json");
  auto app = application({env("UNICL_SAMPLES") + "/matmul", "--queue", "per-device"});
  app.vars["UNICL_VENDORS"] = "";
  app.vars["UNICL_TRACE"] = file;
  auto r = mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})});
  std::stringstream json(file_text(file));
  std::filesystem::remove(file);
  INFO(r.out << r.err << json.str());
  REQUIRE(r.exit_code == 0);
  auto [tracks, slices] = read_trace(json);
  // Every kernel run on a node's device has its end reported, from its end
  // on (the clocks agree), within a second; the time a kernel waited on its
  // node ends as it starts.
  const std::string kernel = "matmul_rows";
  auto ran_on = [&](const std::string &device, auto &&match) {
    return std::count_if(slices.begin(), slices.end(),
                         [&](const TraceSlice &s) { return tracks[s.track] == device && s.name == kernel && match(s); });
  };
  size_t kernels = 0, waits = 0;
  for (auto &k : slices) {
    const std::string &device = tracks[k.track];
    if (k.name != kernel || device.find(" · ") != std::string::npos) continue;
    INFO(device);
    CHECK(count_ending({device}, ":1") + count_ending({device}, ":2") == 1);
    ++kernels;
    const double end = k.ts + k.dur;
    CHECK(ran_on(device + " · end reported", [&](const TraceSlice &s) { return std::abs(s.ts - end) < 1 && s.dur < 1e6; }) == 1);
  }
  for (auto &w : slices) {
    const std::string &track = tracks[w.track];
    const auto at = track.find(" · queued there");
    if (w.name != kernel || at == std::string::npos) continue;
    ++waits;
    CHECK(ran_on(track.substr(0, at), [&](const TraceSlice &k) { return std::abs(k.ts - (w.ts + w.dur)) < 1; }) == 1);
  }
  CHECK(kernels > 0);
  INFO(waits << " waits on nodes");
}

TEST_CASE("the scheduling DAG (tiled Cholesky) is right under every policy with the nodes' devices", "[cluster]") {
  for (std::string policy : {"heft", "eager", "ws", "random", "round-robin"})
    for (bool mixed : {false, true}) {
      INFO(policy << (mixed ? ", mixed" : ", remote only"));
      // Traced: the trace of a failing run says where each command ran and
      // when. (A wrong tile was seen here in some hundreds of runs: a node
      // reported a marker's end before that of the read it waited for, and
      // rank 0 read the tile's host copy early; node/end_order.hpp.)
      const std::string trace =
          std::filesystem::temp_directory_path() / ("unicl-cholesky-trace-" + std::to_string(getpid()) + ".json");
      auto r = sample("cholesky", mixed, {"--queue", "device-less", "--scheduler", policy}, trace);
      const bool right = r.exit_code == 0 && r.out.find("result: OK") != std::string::npos;
      const std::string commands = right ? std::string() : file_text(trace);
      std::filesystem::remove(trace);
      INFO(r.out << r.err << commands);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.out, Catch::Contains("result: OK"));
    }
}

TEST_CASE("the conformance suite passes on the nodes' devices as on local ones", "[cluster]") {
  // One node's device alone: every case but those that need two devices. A
  // node's device says it runs no native kernels and has no partitions (the
  // cases check that it says so).
  auto app = application({env("UNICL_CONFORMANCE"), "~[multi]"});
  app.vars["UNICL_VENDORS"] = "";  // the nodes' devices alone
  app.vars["TEST_PLATFORM"] = "UniCL";
  app.vars["TEST_DEVICE"] = "pthread";
  auto r = mpirun({app, nodes(1, {{"POCL_DEVICES", "pthread"}})}, 600);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("All tests passed"));
  // Contexts over two nodes' devices: the cases that need two devices.
  app.argv = {env("UNICL_CONFORMANCE"), "[multi]"};
  r = mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})}, 600);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("All tests passed"));
}

namespace {

// The fault app's report: device name -> "ok|rounds" or
// "failed|round|error|available N|in flight N".
std::map<std::string, std::string> lanes(const child_process::Result &r) {
  std::map<std::string, std::string> out;
  for (auto &line : r.out_lines())
    if (line.rfind("device ", 0) == 0) {
      auto bar = line.find('|');
      out[line.substr(7, bar - 7)] = line.substr(bar + 1);
    }
  return out;
}

// Two nodes; node rank 2 kills or stops itself after 40 requests (in the
// middle of the rounds, each of `launches` launches and a read); silence for
// 5 s makes a node lost.
child_process::Result faulty_run(const std::string &fault, const std::vector<std::string> &flags,
                                 int launches = 1) {
  auto app = application({env("UNICL_FAULT_APP"), "40", std::to_string(launches)});
  app.vars["POCL_DEVICES"] = "pthread";
  app.vars["UNICL_NODE_TIMEOUT"] = "5";
  return mpirun({app, nodes(1, {{"POCL_DEVICES", "pthread"}}),
                 nodes(1, {{"POCL_DEVICES", "pthread"}, {"UNICL_NODE_FAULT", "40:" + fault}})},
                60, flags);
}

void check_lost_node(const child_process::Result &r) {
  INFO(r.out << r.err);
  REQUIRE_FALSE(r.timed_out);  // the job ended by itself
  auto report = lanes(r);
  REQUIRE(report.size() == 3);
  for (auto &[device, result] : report) {
    INFO(device);
    if (device.size() > 2 && device.compare(device.size() - 2, 2, ":2") == 0) {
      // CL_DEVICE_NOT_AVAILABLE as the failed commands' status; the device
      // says it is unavailable.
      CHECK(result.rfind("failed|", 0) == 0);
      CHECK_THAT(result, Catch::Contains("|-2|available 0|"));
    } else {
      CHECK(result == "ok|" + std::to_string(40));  // the local device and the other node kept working
    }
  }
  CHECK_THAT(r.err, Catch::Contains("node rank 2 stopped answering"));
}

}  // namespace

TEST_CASE("a buffer valid on one node goes to another node directly, none of its bytes through rank 0", "[cluster]") {
  // Over shared memory and over TCP on loopback, as between hosts.
  for (bool tcp : {false, true}) {
    INFO((tcp ? "tcp" : "shared memory"));
    Ranks app = application({env("UNICL_TRANSFER_APP"), "8"});
    app.vars["UNICL_VENDORS"] = "";  // the nodes' devices only
    app.vars["UNICL_LOG"] = "1";      // the networks measured: the route's first guess, shown on failure
    std::vector<std::string> flags;
    if (tcp) flags = {"--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"};
    auto r = mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})}, 120, flags);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("result: OK"));
    CHECK_THAT(r.out, Catch::Contains("rank0 bytes before 8388608"));  // the buffer's way to the first node
    CHECK_THAT(r.out, Catch::Contains("rank0 bytes 0\n"));
    CHECK_THAT(r.out, Catch::Contains("moved bytes 8388608\n"));  // all of it, once
  }
}

TEST_CASE("moves between two nodes go straight between them once learnt, small ones first", "[cluster]") {
  // bench-cluster's order: writes to a node read back, then moves, at
  // 4 KiB then 1 MiB. A write or read to a node was timed by its node's
  // vendor alone (about a microsecond for 4 KiB), so the route through
  // rank 0 looked nearly free and, once taken, was kept at every size (in
  // three bench runs of four, and in one of three runs of this case):
  // rank 0 then carried each 1 MiB move twice, at twice the direct copy's
  // time.
  Ranks app = application({env("UNICL_TRANSFER_APP"), "1", "--moves"});
  app.vars["UNICL_VENDORS"] = "";
  auto r = mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::smatch through_rank0;
  REQUIRE(std::regex_search(r.out, through_rank0, std::regex(R"(rank0 bytes in 1 MiB moves (\d+))")));
  // One move may still try the route through rank 0 (its read and write:
  // 2 MiB); stuck on it, all ten went that way (20 MiB).
  CHECK(std::stoull(through_rank0[1]) <= 2u << 20);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
}

TEST_CASE("a copy between two nodes' devices lasts, in its profiling, from its first part's read to its end", "[cluster]") {
  // 8 MiB from node 1's simulated GPU to node 2's, whose transfers run at
  // 0.5 GB/s (8.4 ms a 4 MiB part): read in two parts on node 1 and written
  // in two on node 2, the second read beside the first write, so the copy
  // takes three parts' times at least. Its event on node 2 is a marker after
  // the writes: timed from the marker's own start, it had seemed to take
  // the first part's read and trip alone (about one part's time).
  const std::string stem = std::filesystem::temp_directory_path() / ("unicl-copy-time-" + std::to_string(getpid()));
  const std::string config = stem + ".conf", file = stem + ".json";
  std::ofstream(config) << "mode correctness\n"
                           "device name=gpu type=gpu gflops=100 memory_mb=256 bandwidth_gbps=0.5 latency_us=10 copy_engine=1\n"
                           "kernel name=* flops=10*n\n";
  Ranks app = application({env("UNICL_TRANSFER_APP"), "8"});
  app.vars["UNICL_VENDORS"] = "";  // the nodes' devices only
  app.vars["UNICL_TRACE"] = file;
  std::map<std::string, std::string> sim = simulator_on_pocl();
  sim["UNICL_SIM_CONFIG"] = config;
  auto r = mpirun({app, nodes(2, sim)});
  std::stringstream json(file_text(file));
  std::filesystem::remove(file), std::filesystem::remove(config);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
  auto [tracks, slices] = read_trace(json);
  size_t copies = 0;
  for (auto &s : slices) {
    const bool on_device = tracks[s.track].find(" · ") == std::string::npos;
    if (!on_device || s.name.rfind("from ", 0) != 0 || s.name.find("(8 MiB)") == std::string::npos) continue;
    INFO(tracks[s.track] << ": " << s.name << " " << s.dur << " us");
    ++copies;
    CHECK(s.dur >= 3 * 8390 * 0.8);
  }
  CHECK(copies == 1);
}

TEST_CASE("a copy between devices waits on the node for the kernel that writes its source, not for rank 0", "[cluster]") {
  // Two devices of one node, and one device of each of two nodes, serving
  // the simulator (correctness mode: kernels run on PoCL): the reading
  // kernel's commands reach its node while the writing kernel (about a
  // second) still runs on the first device. Waiting for rank 0 to hear of
  // the writer's end first, the reader would be queued after it.
  std::map<std::string, std::string> sim = simulator_on_pocl();
  for (bool across : {false, true}) {
    INFO((across ? "node 1 to node 2" : "within node 1"));
    Ranks app = application({env("UNICL_LOCAL_WAIT_APP")});
    if (across) app.argv.push_back("--across");
    app.vars["UNICL_VENDORS"] = "";  // the nodes' devices only
    auto r = mpirun({app, nodes(across ? 2 : 1, sim)}, 180);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("result: OK"));
    CHECK_THAT(r.out, Catch::Contains("queued before the writer ended: yes"));
  }
}

TEST_CASE("a command waiting for another device's event of the same node waits on the node, not for rank 0", "[cluster]") {
  // The reader follows the writer (about a second, on the node's other
  // device) through its wait list only: rank 0 lists the writer's event in
  // the reader's, and the node stands a user event of the reader's context
  // in for it. The reader is queued on the node while the writer runs, and
  // starts only after it ended.
  std::map<std::string, std::string> sim = simulator_on_pocl();
  Ranks app = application({env("UNICL_LOCAL_WAIT_APP"), "--event"});
  app.vars["UNICL_VENDORS"] = "";  // the nodes' devices only
  auto r = mpirun({app, nodes(1, sim)}, 180);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
  CHECK_THAT(r.out, Catch::Contains("queued before the writer ended: yes"));
  CHECK_THAT(r.out, Catch::Contains("started after the writer ended: yes"));
}

TEST_CASE("a copy from a device still receiving those bytes waits on the node, not for rank 0", "[cluster]") {
  // Two devices of one node whose links take 1.3 s for 64 MiB: rank 0's
  // copy of a buffer to the first (a migration) is under way when a kernel
  // on the second reads the buffer, and the planner takes it from the
  // first (within the node, not a second time over the network). Waiting
  // for rank 0 to hear of the migration's end first, the reader would be
  // queued after it. The copy takes its bytes from those of the migration
  // the node received, not from a read of the first device: the node's
  // reads are logged (slowed by 1 ms to be), and only the result's may be
  // among them (the copy's would be 16, one per 4 MiB part).
  std::map<std::string, std::string> sim = simulator_on_pocl();
  const std::string copies = env("UNICL_SIM_COPIES");
  sim["UNICL_SIM_CONFIG"] = copies.substr(0, copies.rfind('/')) + "/cluster_slow_links.conf";
  sim["UNICL_SIM_FAIL"] = "clEnqueueReadBuffer:delay=1";
  const auto read_log = std::filesystem::temp_directory_path() / ("unicl-relay-reads-" + std::to_string(getpid()));
  std::filesystem::remove(read_log);
  sim["UNICL_SIM_FAULT_LOG"] = read_log.string();
  Ranks app = application({env("UNICL_LOCAL_WAIT_APP"), "--relay"});
  app.vars["UNICL_VENDORS"] = "";  // the node's devices only
  // Fresh performance models: what other runs learnt of these links would
  // steer the planner's routes.
  const auto models = std::filesystem::temp_directory_path() / ("unicl-relay-" + std::to_string(getpid()));
  app.vars["XDG_CACHE_HOME"] = models.string();
  auto r = mpirun({app, nodes(1, sim)}, 180);
  std::filesystem::remove_all(models);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
  CHECK_THAT(r.out, Catch::Contains("queued before the writer ended: yes"));
  int reads = 0;
  {
    std::ifstream log(read_log);
    std::string entry;
    for (long long at = 0; log >> entry >> at;) reads += entry == "clEnqueueReadBuffer";
  }
  std::filesystem::remove(read_log);
  CHECK(reads <= 1);
}

TEST_CASE("a read's bytes are in place once a command after it ends, though the node learns of the read late", "[cluster]") {
  // The node records each read's end 30 ms after its vendor callback
  // (UNICL_NODE_SLOW_READ_ENDS), as a callback preempted on a busy machine
  // would, while a marker or barrier after the read ends at once. Rank 0
  // must learn of that command's end after the read's, which brings the
  // bytes (node/end_order.hpp); reported as recorded, every round of the
  // application reads its buffer before the bytes come.
  auto r = mpirun({application({env("UNICL_ORDER_APP")}),
                   nodes(1, {{"POCL_DEVICES", "pthread"}, {"UNICL_NODE_SLOW_READ_ENDS", "30000"}})});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
}

TEST_CASE("launches on a node's device cost at most 1.5 messages in a stream and 2.5 each waited for", "[cluster]") {
  // The program of the issue that set the budget: a kernel of two buffers
  // and one scalar, the scalar set before each launch, on a context of the
  // node's device alone. Messages are counted by rank 0's link, both ways;
  // no call of either loop waits for a node's reply.
  auto app = application({env("UNICL_LAUNCH_APP"), "1000"});
  app.vars["POCL_DEVICES"] = "pthread";
  auto r = mpirun({app, nodes(1, {{"POCL_DEVICES", "pthread"}})});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::vector<std::string>> patterns;
  for (auto &line : r.out_lines()) {
    if (line.rfind("pattern ", 0) != 0) continue;
    std::vector<std::string> fields;
    std::stringstream in(line.substr(8));
    for (std::string f; std::getline(in, f, '|');) fields.push_back(f);
    patterns[fields[0]] = fields;
  }
  REQUIRE(patterns.count("stream"));
  REQUIRE(patterns.count("waited"));
  CHECK(std::stod(patterns["stream"][1]) <= 1.5);
  CHECK(std::stod(patterns["waited"][1]) <= 2.5);
  CHECK(patterns["stream"][2] == "0");
  CHECK(patterns["waited"][2] == "0");
  CHECK(patterns["stream"][3] == "ok");
  CHECK(patterns["waited"][3] == "ok");
}

TEST_CASE("a buffer whose posted creation the node's vendor refuses fails the commands that use it", "[cluster]") {
  // The simulator serves node 1 and refuses every buffer after the first
  // (CL_MEM_OBJECT_ALLOCATION_FAILURE), as a full device would.
  auto app = application({env("UNICL_REFUSAL_APP")});
  app.vars["UNICL_VENDORS"] = "";  // the node's device only
  auto r = mpirun({app, nodes(1, {{"UNICL_VENDORS", env("UNICL_SIM_ICD")},
                                  {"UNICL_SIM_CONFIG", env("UNICL_SIM_CORRECTNESS")},
                                  {"UNICL_SIM_POCL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd"},
                                  {"UNICL_SIM_FAIL", "clCreateBuffer:CL_MEM_OBJECT_ALLOCATION_FAILURE:after=1"}})});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("write into it|0|-4") && Catch::Contains("kernel on it|0|-4") &&
                        Catch::Contains("marker after the kernel|0|-14") &&
                        Catch::Contains("blocking read of it|-14|0") && Catch::Contains("result: OK"));
}

TEST_CASE("large reads and writes on a node's device arrive right, mapped or staged", "[cluster]") {
  // PoCL's CPU device shares the node's memory: from 1 MiB the node maps the
  // buffer (an idle queue), or stages the bytes (a write held by an event).
  Ranks app = application({env("UNICL_BULK_APP")});
  app.vars["UNICL_VENDORS"] = "";  // the node's device only
  auto r = mpirun({app, nodes(1, {{"POCL_DEVICES", "pthread"}})});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
}

TEST_CASE("a blocking write returns once its bytes left rank 0, not once the node's device ended it", "[cluster]") {
  // The simulator's device takes 335 ms for the 16 MiB: the call returns
  // with the write still running there; the read after it sees its bytes.
  // A write that hands out its event, or waits for others, returns at its
  // end.
  std::map<std::string, std::string> sim = simulator_on_pocl();
  const std::string copies = env("UNICL_SIM_COPIES");
  sim["UNICL_SIM_CONFIG"] = copies.substr(0, copies.rfind('/')) + "/cluster_slow_writes.conf";
  Ranks app = application({env("UNICL_BULK_APP"), "--returns-when-sent"});
  app.vars["UNICL_VENDORS"] = "";  // the node's device only
  auto r = mpirun({app, nodes(1, sim)});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
}

TEST_CASE("a read-only buffer rank 0 wrote whole feeds copies from the node's host copy, until it changes", "[cluster]") {
  // Two nodes serving the simulator (correctness mode: its kernels run on
  // PoCL), whose devices hold their own memory: the node stages the bytes
  // rank 0 sends. Node 1's device reads are made slow (250 ms per call) and
  // logged with their start time: the copies served from the host copy make
  // none within their span (counted, not timed: under load a copy to another
  // node alone can take 3.5 s); each change of the buffer on node 1 must
  // reach the next copy.
  std::map<std::string, std::string> sim = simulator_on_pocl();
  auto slow_reads = sim;
  slow_reads["UNICL_SIM_FAIL"] = "clEnqueueReadBuffer:delay=250";
  const auto read_log = std::filesystem::temp_directory_path() / ("unicl-slow-reads-" + std::to_string(getpid()));
  std::filesystem::remove(read_log);
  slow_reads["UNICL_SIM_FAULT_LOG"] = read_log.string();
  Ranks app = application({env("UNICL_HOST_COPY_APP")});
  app.vars["UNICL_VENDORS"] = "";  // the nodes' devices only
  // Fresh performance models: what other runs learnt of these links (their
  // slow reads too) would steer the planner's routes.
  const auto models = std::filesystem::temp_directory_path() / ("unicl-host-copies-" + std::to_string(getpid()));
  app.vars["XDG_CACHE_HOME"] = models.string();
  auto r = mpirun({app, nodes(1, slow_reads), nodes(1, sim)}, 180);
  std::filesystem::remove_all(models);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
  // Without the host copy, each copy reads twice on node 1 (its two parts).
  long long span_start = 0, span_end = 0;
  for (auto &line : r.out_lines())
    if (line.rfind("span of the copies without reads: ", 0) == 0)
      std::istringstream(line.substr(34)) >> span_start >> span_end;
  REQUIRE(span_end > span_start);
  int reads = 0, in_span = 0;
  {
    std::ifstream log(read_log);
    std::string entry;
    for (long long at = 0; log >> entry >> at;) {
      if (entry != "clEnqueueReadBuffer") continue;
      ++reads;
      in_span += at >= span_start && at <= span_end;
    }
  }
  std::filesystem::remove(read_log);
  CHECK(reads > 0);  // the later copies, after each change, read on node 1
  CHECK(in_span == 0);
}

TEST_CASE("host swap on the nodes' devices: buffers past a device's limit go back to rank 0 and return", "[cluster]") {
  // matmul of 256^2 floats in 16 row blocks: B alone is 256 KiB, all the
  // buffers 768 KiB, each node's device may hold 400 KiB.
  for (std::string queue : {"device-less", "per-device"}) {
    INFO(queue);
    auto app = application({env("UNICL_SAMPLES") + "/matmul", "--size", "256", "--blocks", "16", "--queue", queue});
    app.vars["UNICL_VENDORS"] = "";
    app.vars["UNICL_DEVICE_MEM_LIMIT"] = "400K";
    app.vars["UNICL_LOG"] = "2";
    auto r = mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("result: OK"));
    CHECK_THAT(r.err, Catch::Contains("evicted") && Catch::Contains(" @ ") && Catch::Contains("(limit 409600)"));
  }
}

namespace {

// Network namespaces joined by a bridge, for the length of a test
// (tests/cluster_netns.sh): separate "hosts" with addresses of their own.
struct Namespaces {
  explicit Namespaces(int n) : count(n) {
    const int id = static_cast<int>(getpid());
    tag = "uc" + std::to_string(id % 100000);
    net = "10.77." + std::to_string(20 + id % 200);
    auto r = child_process::run({"sh", env("UNICL_NETNS_SCRIPT"), "up", tag, net, std::to_string(n)}, {}, 30);
    up = r.exit_code == 0;
    if (!up) why = r.err, down();
  }
  ~Namespaces() {
    if (up) down();
  }
  Namespaces(const Namespaces &) = delete;
  Namespaces &operator=(const Namespaces &) = delete;
  void down() { child_process::run({"sh", env("UNICL_NETNS_SCRIPT"), "down", tag, std::to_string(count)}, {}, 30); }
  // This host's address on the bridge (0), or namespace i's.
  std::string address(int i) const { return net + "." + std::to_string(i + 1); }

  int count;
  std::string tag, net, why;
  bool up = false;
};

}  // namespace

TEST_CASE("nodes in network namespaces of their own: separate addresses, TCP between them", "[cluster]") {
  Namespaces ns(2);
  if (!ns.up) {
    WARN("network namespaces are not available here; not run: " << ns.why);
    return;
  }
  // Each namespace is a host of the job: Open MPI starts its daemon there
  // through the namespace agent instead of ssh, and every rank talks TCP
  // on the bridge's network only (shared memory cannot join ranks of
  // different hosts).
  Ranks app = application({env("UNICL_TRANSFER_APP"), "8"});
  app.vars["UNICL_VENDORS"] = "";
  app.vars["UNICL_LOG"] = "1";  // the networks measured: the route's first guess, shown on failure
  app.hosts = ns.address(0);
  Ranks two = nodes(2, {{"POCL_DEVICES", "pthread"}});
  two.hosts = ns.address(1) + "," + ns.address(2);
  const std::string subnet = ns.net + ".0/24";
  auto r = mpirun({app, two}, 120,
                  {"--mca", "plm_rsh_agent", env("UNICL_NETNS_AGENT"), "--mca", "oob_tcp_if_include", subnet, "--mca",
                   "btl", "self,tcp", "--mca", "btl_tcp_if_include", subnet,
                   // Daemons on one machine writing their topology to shared
                   // memory at once crashed one in five runs (hwloc_shmem_topology_write).
                   "--mca", "rtc", "^hwloc"},
                  {{"UNICL_NETNS_TAG", ns.tag},
                   // The daemons' hwloc would load its OpenCL plugin (hence
                   // the ICD loader and PoCL) into the topology they share.
                   {"HWLOC_PLUGINS_BLACKLIST", "hwloc_opencl,hwloc_gl"}});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
  CHECK_THAT(r.out, Catch::Contains("rank0 bytes 0\n"));
  CHECK_THAT(r.out, Catch::Contains("moved bytes 8388608\n"));
  CHECK_THAT(r.out, Catch::Contains("devices on two nodes: " + ns.tag + "-1 and " + ns.tag + "-2"));
}

TEST_CASE("a node killed in the middle of a run: its commands fail, the others go on, the run ends", "[cluster]") {
  // Open MPI 4.1 ends the whole job when a rank dies, unless told to recover.
  check_lost_node(faulty_run("KILL", {"--enable-recovery", "--mca", "orte_abort_on_non_zero_status", "0"}));
}

TEST_CASE("a node stopped in the middle of a run: its commands fail, the others go on, the job ends", "[cluster]") {
  // The stopped rank never exits: UniCL ends the job at exit (MPI_Abort)
  // rather than wait for it in MPI_Finalize.
  // Over TCP (loopback), as between hosts.
  auto r = faulty_run("STOP", {"--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"});
  check_lost_node(r);
  CHECK_THAT(r.err, Catch::Contains("ending the MPI job"));
}

TEST_CASE("a node lost with commands posted to it: each fails with CL_DEVICE_NOT_AVAILABLE, nothing hangs",
          "[cluster]") {
  // 8 launches a round, each with an event and none waited for: the node
  // dies with some of them posted and not run.
  auto r = faulty_run("KILL", {"--enable-recovery", "--mca", "orte_abort_on_non_zero_status", "0"}, 8);
  check_lost_node(r);
  for (auto &[device, result] : lanes(r))
    if (device.size() > 2 && device.compare(device.size() - 2, 2, ":2") == 0) {
      INFO(result);
      const int in_flight = std::stoi(result.substr(result.rfind(' ') + 1));
      CHECK(in_flight > 0);  // launches posted, then failed by the loss
    }
}

TEST_CASE("unicl run --nodes starts the program and its nodes as one Open MPI job", "[cluster]") {
  // The tool adds mpirun's own root flag when it runs as root. No leak
  // check in the ranks, as in mpirun() above.
  const char *asan = std::getenv("ASAN_OPTIONS");
  auto r = child_process::run({env("UNICL_TOOL"), "run", "--vendors", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd",
                               "--nodes", "localhost:2", "--", env("UNICL_PROBE")},
                              {{"POCL_DEVICES", "pthread"},
                               {"XDG_CACHE_HOME", env("XDG_CACHE_HOME")},
                               {"ASAN_OPTIONS", (asan ? std::string(asan) + ":" : std::string()) + "detect_leaks=0"}},
                              120);
  check_local_and_two_nodes(r);
}

namespace {

// A program started without mpirun, UniCL alone before the loader, PoCL's
// pthread device local; UNICL_NODES as given. No leak check in the ranks,
// as in mpirun() above.
child_process::Result without_mpirun(const std::vector<std::string> &argv, const std::string &nodes) {
  const char *asan = std::getenv("ASAN_OPTIONS");
  return child_process::run(argv,
                            {{"OCL_ICD_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-exclusive"},
                             {"UNICL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd"},
                             {"POCL_DEVICES", "pthread"},
                             {"UNICL_NODES", nodes},
                             {"XDG_CACHE_HOME", env("XDG_CACHE_HOME")},
                             {"ASAN_OPTIONS", (asan ? std::string(asan) + ":" : std::string()) + "detect_leaks=0"}},
                            120);
}

}  // namespace

TEST_CASE("unicl info lists every node's devices and each node's hardware", "[cluster]") {
  Ranks app = application({env("UNICL_TOOL"), "info"});
  app.vars.erase("OCL_ICD_VENDORS");  // the tool sets up its own exclusive mode
  app.vars["POCL_DEVICES"] = "pthread";
  auto r = mpirun({app, nodes(2, {{"POCL_DEVICES", "pthread"}})});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("devices     : 3"));
  for (std::string rank : {"1", "2"}) {
    CHECK_THAT(r.out, Catch::Contains(":" + rank + " (served by its unicl-node)"));
    CHECK_THAT(r.out, Catch::Contains(":" + rank + " topology (hwloc): "));
  }
  // Each node's network to the other two ranks, measured at start.
  size_t networks = 0;
  for (auto &line : r.out_lines())
    if (line.rfind("  network (one way, measured at start): rank ", 0) == 0 && line.find("not measured") == std::string::npos &&
        line.find(" GB/s; rank ") != std::string::npos)
      ++networks;
  CHECK(networks == 2);
  CHECK_THAT(r.out, Catch::Contains("Host topology (hwloc): "));
}

TEST_CASE("UNICL_NODES: a program not started by mpirun starts its nodes and sees their devices", "[cluster]") {
  auto r = without_mpirun({env("UNICL_PROBE")}, "localhost:2");
  check_local_and_two_nodes(r);
  // A bare count: that many nodes on this machine. The devices compute.
  r = without_mpirun({env("UNICL_SAMPLES") + "/matmul", "--queue", "per-device"}, "2");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("result: OK"));
  CHECK_THAT(r.out, Catch::Contains(" @ ") && Catch::Contains(":2: "));
}

TEST_CASE("a node list naming an unknown host: a message, and the other devices work", "[cluster]") {
  // UNICL_NODES: the known host's node still joins.
  auto r = without_mpirun({env("UNICL_PROBE")}, "no-such-host.invalid:2,localhost");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("unknown host 'no-such-host.invalid'"));
  CHECK(unicl_devices(r).size() == 2);
  // unicl run --nodes with no known host: the program runs on this machine.
  r = child_process::run({env("UNICL_TOOL"), "run", "--vendors", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd",
                          "--nodes", "no-such-host.invalid:2", "--", env("UNICL_PROBE")},
                         {{"POCL_DEVICES", "pthread"}, {"XDG_CACHE_HOME", env("XDG_CACHE_HOME")}}, 120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("unknown host 'no-such-host.invalid'"));
  CHECK(unicl_devices(r).size() == 1);
}

TEST_CASE("nodes serving PoCL and the simulated accelerator: the samples' results are right", "[cluster]") {
  // Each node: PoCL's pthread device and the simulator's two devices, in
  // correctness mode (its kernels run on PoCL and take their modeled time).
  const std::map<std::string, std::string> both = {
      {"UNICL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd:" + env("UNICL_SIM_ICD")},
      {"POCL_DEVICES", "pthread"},
      {"UNICL_SIM_CONFIG", env("UNICL_SIM_CORRECTNESS")},
      {"UNICL_SIM_POCL_VENDORS", env("UNICL_BUILD_ROOT") + "/vendors-test/pocl.icd"}};
  for (std::string name : {"matmul", "cholesky"})
    for (std::string queue : {"per-device", "device-less"}) {
      INFO(name << ", " << queue);
      auto app = application({env("UNICL_SAMPLES") + "/" + name, "--queue", queue});
      app.vars["UNICL_VENDORS"] = "";  // the nodes' devices alone
      auto r = mpirun({app, nodes(2, both)});
      INFO(r.out << r.err);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.out, Catch::Contains("result: OK"));
      CHECK_THAT(r.out, Catch::Contains("gpu0 @ ") && Catch::Contains("cpu0 @ "));
    }
}
