// The `unicl` command: `unicl info` describes the UniCL platform, its
// devices and the host; `unicl run` starts an unmodified OpenCL program in
// exclusive mode.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/protocol/hwloc_plugins.hpp"
#include "cluster/protocol/node_list.hpp"
#include "core/config.hpp"
#include "schedulers/perf_model.hpp"
#include "exclusive_mode.hpp"
#include "opencl_cpp.hpp"
#include "platform_report.hpp"
#include "tool_config.hpp"
#include "topology.hpp"

namespace {

constexpr const char *kUsage =
    "usage: unicl info [--vendors LIST] [--log N] [--models]\n"
    "       unicl run [--vendors LIST] [--log N] [--scheduler NAME] [--schedule-all]\n"
    "                 [--granularity NAME] [--mem-limit SPEC] [--trace FILE] [--socl]\n"
    "                 [--nodes HOSTS] [--composite[=NAMES]]\n"
    "                 [--] PROGRAM [ARGS...]\n"
    "       unicl analyze FILE.cl [BUILD OPTIONS...]\n"
    "       unicl --help | --version\n"
    "\n"
    "info  the UniCL platform, its devices with their vendor platforms, and the\n"
    "      host topology, as an OpenCL program sees them in exclusive mode\n"
    "run   runs PROGRAM in exclusive mode: the ICD loader sees only UniCL and\n"
    "      UniCL loads the vendors\n"
    "analyze  what UniCL will do with each kernel of FILE.cl built with BUILD\n"
    "      OPTIONS (-D, -I, -cl-std): the dimension its launches split along and\n"
    "      each argument's window, or why it runs whole\n"
    "\n"
    "--vendors LIST  vendors for UniCL (UNICL_VENDORS): folders of .icd files,\n"
    "                .icd files or libraries, colon-separated. Default: UNICL_VENDORS\n"
    "                if set, else OCL_ICD_FILENAMES and OCL_ICD_VENDORS, else\n"
    "                /etc/OpenCL/vendors\n"
    "--log N         UNICL_LOG for UniCL (1: vendors that fail to load, 2: discovery)\n"
    "--models        (info) the performance models UniCL has learnt, instead\n"
    "--scheduler P   UNICL_SCHEDULER: policy of device-less queues (heft, eager, ws,\n"
    "                random, round-robin)\n"
    "--schedule-all  UNICL_SCHEDULE_ALL=1: every queue of the program is scheduled over\n"
    "                all devices of its context, not only device-less ones\n"
    "--mem-limit S   UNICL_DEVICE_MEM_LIMIT: memory UniCL may use per device (e.g. 256M,\n"
    "                or per device: pthread=1G,Oclgrind=64M)\n"
    "--trace FILE    UNICL_TRACE: write a Chrome trace of every command and transfer\n"
    "--granularity S UNICL_GRANULARITY: how divided launches learn their factor\n"
    "                (climb, each-once)\n"
    "--socl          UNICL_SOCL_COMPAT=1: the platform answers StarPU SOCL's name and\n"
    "                vendor, and program builds define SOCL_DEVICE_TYPE_<type> per device,\n"
    "                so that programs written for SOCL run unchanged\n"
    "--composite[=NAMES]\n"
    "                UNICL_COMPOSITE: the platform lists one device standing for all\n"
    "                of them (or for those whose names contain one of NAMES, comma-\n"
    "                separated): a program that takes one device uses every one, its\n"
    "                launches split across them where the analysis of the kernel allows\n"
    "--nodes HOSTS   the devices of these machines join the platform: PROGRAM runs as\n"
    "                rank 0 of an Open MPI job (mpirun) and unicl-node on each host\n"
    "                (host or host:count, comma-separated; e.g. localhost:2); hosts\n"
    "                that do not resolve are left out. Programs not started this way:\n"
    "                UNICL_NODES=HOSTS (UniCL starts the nodes itself)\n";


struct Command {
  std::string name;
  unicl_tool::ExclusiveOptions options;
  int program = -1;  // argv index of PROGRAM for `run`
  bool models = false;
  std::string nodes;  // run --nodes: hosts of the unicl-node ranks
};

// Parses `unicl COMMAND [options] [--] ...`; throws std::invalid_argument.
Command parse(int argc, char **argv) {
  if (argc < 2) throw std::invalid_argument("missing command");
  Command c;
  c.name = argv[1];
  if (c.name != "info" && c.name != "run") throw std::invalid_argument("unknown command '" + c.name + "'");
  int i = 2;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &flag) -> std::string {
      if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
      if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
      return argv[++i];
    };
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--vendors" || arg.rfind("--vendors=", 0) == 0) {
      c.options.vendors = value("--vendors");
    } else if (arg == "--log" || arg.rfind("--log=", 0) == 0) {
      c.options.log = value("--log");
    } else if (arg == "--models" && c.name == "info") {
      c.models = true;
    } else if (arg == "--scheduler" || arg.rfind("--scheduler=", 0) == 0) {
      setenv("UNICL_SCHEDULER", value("--scheduler").c_str(), 1);
    } else if (arg == "--schedule-all") {
      setenv("UNICL_SCHEDULE_ALL", "1", 1);
    } else if (arg == "--granularity" || arg.rfind("--granularity=", 0) == 0) {
      setenv("UNICL_GRANULARITY", value("--granularity").c_str(), 1);
    } else if ((arg == "--nodes" || arg.rfind("--nodes=", 0) == 0) && c.name == "run") {
      c.nodes = value("--nodes");
    } else if (arg == "--socl" && c.name == "run") {
      setenv("UNICL_SOCL_COMPAT", "1", 1);
    } else if (arg == "--composite" || arg.rfind("--composite=", 0) == 0) {
      setenv("UNICL_COMPOSITE", arg == "--composite" ? "1" : value("--composite").c_str(), 1);
    } else if (arg == "--mem-limit" || arg.rfind("--mem-limit=", 0) == 0) {
      setenv("UNICL_DEVICE_MEM_LIMIT", value("--mem-limit").c_str(), 1);
    } else if (arg == "--trace" || arg.rfind("--trace=", 0) == 0) {
      setenv("UNICL_TRACE", value("--trace").c_str(), 1);
    } else if (arg.rfind("-", 0) == 0) {
      throw std::invalid_argument("unknown option '" + arg + "'");
    } else {
      break;  // PROGRAM: options end here even without "--"
    }
  }
  if (c.name == "run") {
    if (i >= argc) throw std::invalid_argument("run needs a PROGRAM");
    c.program = i;
  } else if (i < argc) {
    throw std::invalid_argument("info takes no arguments");
  }
  return c;
}

// unicl-node beside this tool: installed in the same bin/, or in the build
// tree's src/cluster/.
std::string node_program() {
  char self[4096] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string(".");
  return unicl::cluster::node_program_in(dir.substr(0, dir.find_last_of('/')),
                                         {"unicl-node", "../src/cluster/node/unicl-node"});
}

int run_program(const Command &c, char **argv) {
  execvp(argv[c.program], argv + c.program);
  std::cerr << "unicl: cannot run " << argv[c.program] << ": " << std::strerror(errno) << "\n";
  return errno == ENOENT ? 127 : 126;
}

int run(const Command &c, char **argv) {
  unicl_tool::enter_exclusive_mode(c.options);
  // A cluster job's (--nodes, or UNICL_NODES): its MPI_Init's hwloc must not
  // load the OpenCL plugin (cluster/hwloc_plugins.hpp). Set before the
  // program starts (no thread of it yet), the library then changes nothing
  // in the program's environment.
  const char *nodes_variable = std::getenv("UNICL_NODES");
  if (!c.nodes.empty() || (nodes_variable && *nodes_variable))
    if (std::string value = unicl::cluster::hwloc_blacklist_with_ours(std::getenv(unicl::cluster::kHwlocBlacklistVariable));
        !value.empty())
      setenv(unicl::cluster::kHwlocBlacklistVariable, value.c_str(), 1);
  if (!c.nodes.empty()) {
    // The program as rank 0 of an Open MPI job, the nodes beside it, which
    // inherit this environment (UniCL's vendor list: they never load UniCL).
    auto listed = unicl::cluster::parse_node_list(c.nodes);
    if (listed.empty()) {
      std::cerr << "unicl: --nodes names no host\n";
      return 2;
    }
    // Unknown hosts would stop Open MPI's start of the job: left out, and
    // with none left the program runs on this machine's devices alone.
    auto hosts = unicl::cluster::resolvable_hosts(listed, "unicl run --nodes");
    const int nodes = unicl::cluster::node_count(hosts);
    std::string host_list;
    for (auto &h : hosts) host_list += (host_list.empty() ? "" : ",") + h.host + ":" + std::to_string(h.count);
    if (nodes == 0) return run_program(c, argv);
    std::vector<std::string> args = {"mpirun", "--oversubscribe"};
    if (geteuid() == 0) args.push_back("--allow-run-as-root");
    args.insert(args.end(), {"-np", "1", "--host", "localhost"});
    // Exclusive mode for the program only: mpirun's own hwloc may load the
    // ICD loader (its OpenCL plugin), which must not find UniCL there.
    if (const char *exclusive = std::getenv("OCL_ICD_VENDORS")) {
      args.insert(args.end(), {"-x", std::string("OCL_ICD_VENDORS=") + exclusive});
      unsetenv("OCL_ICD_VENDORS");
    }
    for (int i = c.program; argv[i]; ++i) args.push_back(argv[i]);
    args.insert(args.end(), {":", "-np", std::to_string(nodes), "--host", host_list, node_program()});
    std::vector<char *> raw;
    for (auto &a : args) raw.push_back(a.data());
    raw.push_back(nullptr);
    execvp("mpirun", raw.data());
    std::cerr << "unicl: cannot run mpirun (Open MPI's openmpi-bin): " << std::strerror(errno) << "\n";
    return errno == ENOENT ? 127 : 126;
  }
  return run_program(c, argv);
}

int info(const Command &c, char **argv) {
  if (c.models) {
    const std::string cache_dir = unicl::Config::from_environment().cache_dir;
    std::cout << unicl::PerfModels::describe(unicl::PerfModels::file_in(cache_dir));
    return 0;
  }
  // The ICD loader reads its variables once, on the first OpenCL call, and
  // some loaders earlier: a fresh process is the only sure way to have it
  // read the exclusive-mode environment.
  if (unicl_tool::enter_exclusive_mode(c.options)) {
    execv("/proc/self/exe", argv);
    std::cerr << "unicl: cannot re-run itself: " << std::strerror(errno) << "\n";
    return 1;
  }
  bool ok = true;
  try {
    ok = unicl_tool::print_platforms(std::cout);
    if (!ok) std::cout << "No UniCL platform: is " << unicl_tool::exclusive_folder() << "/unicl.icd valid?\n";
  } catch (const cl::Error &e) {
    std::cout << "OpenCL error " << e.err() << " in " << e.what() << "\n";
    ok = false;
  }
  std::cout << "\n";
  if (!unicl_tool::print_topology(std::cout)) std::cout << "Host topology: hwloc could not read it\n";
  return ok ? 0 : 1;
}

}  // namespace

// `unicl analyze FILE [OPTIONS...]`: the analyser's verdicts, from the
// analyser itself (beside the tool in the build tree, else installed), so
// that the tool never loads Clang and LLVM.
int analyze(int argc, char **argv) {
  if (argc < 3 || argv[2][0] == '-') throw std::invalid_argument("analyze needs a FILE.cl");
  std::string analyzer = unicl_tool::from_build_tree() ? UNICL_TOOL_BUILD_ANALYZER : UNICL_TOOL_INSTALL_ANALYZER;
  std::vector<char *> args = {analyzer.data(), const_cast<char *>("--describe")};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(analyzer.c_str(), args.data());
  std::cerr << "unicl: cannot run the kernel analyser " << analyzer << ": " << std::strerror(errno) << "\n";
  return errno == ENOENT ? 127 : 126;
}

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "analyze") == 0) {
    try {
      return analyze(argc, argv);
    } catch (const std::invalid_argument &e) {
      std::cerr << "unicl: " << e.what() << "\n" << kUsage;
      return 2;
    }
  }
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::cout << kUsage;
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
    std::cout << "unicl " << UNICL_TOOL_VERSION << "\n";
    return 0;
  }
  try {
    Command c = parse(argc, argv);
    return c.name == "run" ? run(c, argv) : info(c, argv);
  } catch (const std::invalid_argument &e) {
    std::cerr << "unicl: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const std::runtime_error &e) {
    std::cerr << "unicl: " << e.what() << "\n";
    return 1;
  }
}
