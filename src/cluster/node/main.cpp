// unicl-node: serves this machine's OpenCL devices to the UniCL of rank 0
// of an MPI job (`mpirun -np 1 ./app : -np K unicl-node`). It loads the
// vendors as UniCL does (UNICL_VENDORS, OCL_ICD_FILENAMES, OCL_ICD_VENDORS,
// /etc/OpenCL/vendors), never UniCL itself, and answers rank 0's requests
// until rank 0 says goodbye.
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "cluster/node/server.hpp"
#include "cluster/protocol/topology_text.hpp"
#include "cluster/protocol/messages.hpp"
#include "backend/vendor_discovery.hpp"

using namespace unicl;
using namespace unicl::cluster;

namespace {

#ifndef UNICL_VERSION
#define UNICL_VERSION "unknown"
#endif

NodeDescription describe(bool verbose) {
  NodeDescription d;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  d.host = host;
  d.unicl_version = UNICL_VERSION;
  d.topology = topology_text();
  auto env = [](const char *name) { return std::getenv(name); };
  VendorSources sources;
  if (const char *v = env("UNICL_VENDORS")) sources.unicl_vendors = v;
  if (const char *v = env("OCL_ICD_FILENAMES")) sources.icd_filenames = v;
  if (const char *v = env("OCL_ICD_VENDORS")) sources.icd_vendors = v;
  // UniCL (and its node client) listed among the vendors would serve this
  // node's devices twice, or the cluster to itself.
  sources.skip_libraries = {"libunicl.so", "libunicl-remote.so"};
  auto log = [verbose](int level, const std::string &line) {
    if (verbose || level <= 1) std::fprintf(stderr, "unicl-node: %s\n", line.c_str());
  };
  for (auto &v : load_vendor_platforms(sources, log)) {
    auto &p = d.platforms.emplace_back();
    p.id = reinterpret_cast<uint64_t>(v.platform);
    p.info = answers(platform_params(),
                     [&](cl_uint q, size_t n, void *value, size_t *ret) { return vendor_info(v.platform, q, n, value, ret); });
    for (cl_device_id dev : vendor_devices(v.platform)) {
      auto &rd = p.devices.emplace_back();
      rd.id = reinterpret_cast<uint64_t>(dev);
      rd.info = answers(device_params(),
                        [&](cl_uint q, size_t n, void *value, size_t *ret) { return vendor_info(dev, q, n, value, ret); });
    }
    if (p.devices.empty()) d.platforms.pop_back();
  }
  return d;
}

}  // namespace

int main(int argc, char **argv) {
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--verbose")) verbose = true;
    else if (!std::strcmp(argv[i], "--version")) {
      std::printf("unicl-node %s (protocol %u)\n", UNICL_VERSION, kProtocolVersion);
      return 0;
    } else {
      std::fprintf(stderr, "usage: unicl-node [--verbose] [--version]\n  run by mpirun beside the application: "
                           "mpirun -np 1 ./app : -np K unicl-node\n");
      return 2;
    }
  }
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "unicl-node: MPI_Init_thread failed\n");
    return 1;
  }
  // UniCL's own communicator, made collectively with rank 0's UniCL: a
  // duplicate of the job's, or joined with the process that started the
  // nodes (UNICL_NODES).
  MPI_Comm comm, parent = MPI_COMM_NULL;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    MPI_Intercomm_merge(parent, 1, &comm);
    MPI_Comm_free(&parent);
  } else {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  }
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const NodeDescription self = describe(verbose);
  // UNICL_NODE_PROTOCOL (for tests): the protocol version this node claims,
  // as a node of another UniCL would.
  const char *claimed = std::getenv("UNICL_NODE_PROTOCOL");
  const uint32_t protocol = claimed ? static_cast<uint32_t>(std::atoi(claimed)) : kProtocolVersion;
  if (self.platforms.empty()) std::fprintf(stderr, "unicl-node (rank %d, %s): no OpenCL device\n", rank, self.host.c_str());

  NodeServer server(comm, rank, self, protocol);
  // UNICL_NODE_FAULT=N:KILL|STOP (for tests): the node kills or stops itself
  // after N requests, as a crashed or hung machine would.
  if (const char *fault = std::getenv("UNICL_NODE_FAULT")) {
    std::string f = fault;
    auto colon = f.find(':');
    if (colon != std::string::npos)
      server.fail_after(std::stoul(f.substr(0, colon)), f.substr(colon + 1) == "STOP" ? SIGSTOP : SIGKILL);
  }
  // UNICL_NODE_SLOW_READ_ENDS=US (for tests): a read's end is recorded US
  // microseconds after its vendor callback, as a preempted callback's would.
  if (const char *slow = std::getenv("UNICL_NODE_SLOW_READ_ENDS"))
    server.slow_read_ends(std::chrono::microseconds(std::atol(slow)));
  server.serve();
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
