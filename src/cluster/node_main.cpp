// unicl-node: serves this machine's OpenCL devices to the UniCL of rank 0
// of an MPI job (`mpirun -np 1 ./app : -np K unicl-node`). It loads the
// vendors as UniCL does (UNICL_VENDORS, OCL_ICD_FILENAMES, OCL_ICD_VENDORS,
// /etc/OpenCL/vendors), never UniCL itself, and answers rank 0's requests
// until rank 0 says goodbye.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "cluster/protocol.hpp"
#include "vendor_discovery.hpp"

using namespace unicl;
using namespace unicl::cluster;

namespace {

#ifndef UNICL_VERSION
#define UNICL_VERSION "unknown"
#endif

InfoAnswers answers(auto &&query, const std::vector<cl_uint> &params) {
  InfoAnswers out;
  for (cl_uint p : params) {
    size_t n = 0;
    if (query(p, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<char> value(n);
    if (n && query(p, n, value.data(), nullptr) != CL_SUCCESS) continue;
    out[p] = std::move(value);
  }
  return out;
}

NodeDescription describe(bool verbose) {
  NodeDescription d;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  d.host = host;
  d.unicl_version = UNICL_VERSION;
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
    p.info = answers([&](cl_uint q, size_t n, void *value, size_t *ret) { return vendor_info(v.platform, q, n, value, ret); },
                     platform_params());
    for (cl_device_id dev : vendor_devices(v.platform)) {
      auto &rd = p.devices.emplace_back();
      rd.id = reinterpret_cast<uint64_t>(dev);
      rd.info = answers([&](cl_uint q, size_t n, void *value, size_t *ret) { return vendor_info(dev, q, n, value, ret); },
                        device_params());
    }
    if (p.devices.empty()) d.platforms.pop_back();
  }
  return d;
}

void reply(MPI_Comm comm, int to, uint64_t call, cl_int status, const std::vector<char> &payload) {
  Writer w;
  w.put(ReplyHeader{call, status});
  std::vector<char> message = w.take();
  message.insert(message.end(), payload.begin(), payload.end());
  MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, to, kReplyTag, comm);
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
  // UniCL's own communicator, made collectively with rank 0's UniCL.
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const NodeDescription self = describe(verbose);
  // UNICL_NODE_PROTOCOL (for tests): the protocol version this node claims,
  // as a node of another UniCL would.
  const char *claimed = std::getenv("UNICL_NODE_PROTOCOL");
  const uint32_t protocol = claimed ? static_cast<uint32_t>(std::atoi(claimed)) : kProtocolVersion;
  if (self.platforms.empty()) std::fprintf(stderr, "unicl-node (rank %d, %s): no OpenCL device\n", rank, self.host.c_str());

  for (bool serving = true; serving;) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, kRequestTag, comm, &status);
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> message(static_cast<size_t>(bytes));
    MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kRequestTag, comm, MPI_STATUS_IGNORE);
    Reader r(message);
    RequestHeader header{};
    try {
      header = r.get<RequestHeader>();
      switch (header.op) {
        case Op::kHello: {
          const auto magic = r.get<uint32_t>(), version = r.get<uint32_t>();
          Writer w;
          w.put(kMagic).put(protocol);
          if (magic != kMagic || version != protocol) {
            std::fprintf(stderr, "unicl-node (rank %d): rank %d speaks protocol %u, this node %u: not serving it\n",
                         rank, status.MPI_SOURCE, version, protocol);
            reply(comm, status.MPI_SOURCE, header.call, CL_INVALID_VALUE, w.take());
            break;
          }
          write(w, self);
          reply(comm, status.MPI_SOURCE, header.call, CL_SUCCESS, w.take());
          break;
        }
        case Op::kBye:
          reply(comm, status.MPI_SOURCE, header.call, CL_SUCCESS, {});
          serving = false;
          break;
        default:
          reply(comm, status.MPI_SOURCE, header.call, CL_INVALID_OPERATION, {});
      }
    } catch (const Truncated &) {
      reply(comm, status.MPI_SOURCE, header.call, CL_INVALID_VALUE, {});
    }
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
