// The node client's platforms and devices: what each node described when
// it joined (session.hpp), named with its node, and the functions
// libunicl-remote.so exports beside its dispatch table (the loader's entry
// point, and counts and baselines for the tests and benchmarks).
#include <algorithm>
#include <cstring>

#include <mpi.h>

#include "cluster/client/session.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
extern const cl_icd_dispatch dispatch_table;
}

namespace unicl::cluster {

const cl_icd_dispatch &client_dispatch() { return api::dispatch_table; }

std::string node_label(const std::string &host, int rank) { return " @ " + host + ":" + std::to_string(rank); }

cl_int answer(const void *value, size_t n, size_t size, void *out, size_t *size_ret) {
  if (out && size < n) return cluster::refuse(CL_INVALID_VALUE, "param_value_size is below the size of the answer");
  if (out && n) std::memcpy(out, value, n);
  if (size_ret) *size_ret = n;
  return CL_SUCCESS;
}

cl_int node_info(const Proxy *p, ObjectKind kind, cl_uint param, uint64_t second, size_t size, void *value,
                 size_t *size_ret) {
  Writer w;
  write(w, InfoQuery{kind, p->id, param, second});
  std::vector<char> reply;
  if (cl_int err = rpc(p->rank, Op::kInfo, w, &reply); err != CL_SUCCESS) return err;
  auto bytes = Reader(reply).bytes();
  return answer(bytes.data(), bytes.size(), size, value, size_ret);
}

cl_int answer_from(const InfoAnswers &info, cl_uint param, size_t size, void *out, size_t *size_ret) {
  auto it = info.find(param);
  if (it == info.end()) return cluster::refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  return answer(it->second.data(), it->second.size(), size, out, size_ret);
}

bool is_platform(const RemotePlatform *p) {
  auto &all = Session::get().platforms();
  return p && std::find(all.begin(), all.end(), p) != all.end();
}
// Looked for among the platforms' devices: a handle that is not one is not
// read.
bool is_device(const RemoteDevice *d) {
  if (!d) return false;
  for (const RemotePlatform *p : Session::get().platforms())
    for (auto &mine : p->devices)
      if (mine.get() == d) return true;
  return false;
}

}  // namespace unicl::cluster

namespace unicl::api {
using namespace unicl::cluster;

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return cluster::refuse(CL_INVALID_VALUE, "num_entries is 0 with platforms given, or both platforms and num_platforms are NULL");
  auto &all = Session::get().platforms();
  if (num_platforms) *num_platforms = static_cast<cl_uint>(all.size());
  for (cl_uint i = 0; platforms && i < num_entries && i < all.size(); ++i) platforms[i] = handle(all[i]);
  return all.empty() ? CL_PLATFORM_NOT_FOUND_KHR : CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform_handle, cl_platform_info param, size_t size, void *value,
                                     size_t *size_ret) {
  auto *platform = remote(platform_handle);
  if (!is_platform(platform)) return cluster::refuse(CL_INVALID_PLATFORM, "platform is not the node client's");
  if (param == CL_PLATFORM_ICD_SUFFIX_KHR) return answer("UNICLNODE", 10, size, value, size_ret);
  auto it = platform->info.find(param);
  if (it == platform->info.end()) return cluster::refuse(CL_INVALID_VALUE, "param_name is not a query the platform answers");
  return answer(it->second.data(), it->second.size(), size, value, size_ret);
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform_handle, cl_device_type type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  auto *platform = remote(platform_handle);
  if (!is_platform(platform)) return cluster::refuse(CL_INVALID_PLATFORM, "platform is not the node client's");
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return cluster::refuse(CL_INVALID_VALUE, "num_entries is 0 with devices given, or both devices and num_devices are NULL");
  std::vector<RemoteDevice *> matching;
  for (auto &d : platform->devices) {
    cl_device_type t = 0;
    if (auto it = d->info.find(CL_DEVICE_TYPE); it != d->info.end() && it->second.size() == sizeof t)
      std::memcpy(&t, it->second.data(), sizeof t);
    if (type == CL_DEVICE_TYPE_ALL || (type & t) || (type == CL_DEVICE_TYPE_DEFAULT && matching.empty()))
      matching.push_back(d.get());
  }
  if (type == CL_DEVICE_TYPE_DEFAULT && matching.size() > 1) matching.resize(1);
  if (num_devices) *num_devices = static_cast<cl_uint>(matching.size());
  for (cl_uint i = 0; devices && i < num_entries && i < matching.size(); ++i) devices[i] = handle(matching[i]);
  return matching.empty() ? CL_DEVICE_NOT_FOUND : CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device_handle, cl_device_info param, size_t size, void *value,
                                   size_t *size_ret) {
  auto *device = remote(device_handle);
  if (!is_device(device)) return cluster::refuse(CL_INVALID_DEVICE, "device is not a device of the node client");
  switch (param) {
    case CL_DEVICE_PLATFORM: return answer_value(handle(device->platform), size, value, size_ret);
    case CL_DEVICE_NODE_UNICL: return answer_value(static_cast<cl_uint>(device->rank), size, value, size_ret);
    case CL_DEVICE_NODE_HOST_UNICL:
      return answer(device->host.c_str(), device->host.size() + 1, size, value, size_ret);
    case CL_DEVICE_NODE_LINK_UNICL: {
      const NetworkLink l = Session::get().network(device->rank);
      const cl_double link[2] = {l.latency, l.bandwidth};
      return answer(link, sizeof link, size, value, size_ret);
    }
    case CL_DEVICE_NODE_LINKS_UNICL: {
      std::vector<cl_double> links;
      for (const NetworkLink &l : Session::get().networks(device->rank)) links.push_back(l.latency), links.push_back(l.bandwidth);
      return answer(links.data(), links.size() * sizeof(cl_double), size, value, size_ret);
    }
    case CL_DEVICE_NODE_TOPOLOGY_UNICL:
      return answer(device->topology.c_str(), device->topology.size() + 1, size, value, size_ret);
    case CL_DEVICE_AVAILABLE:
      if (node_lost(device->rank)) return answer_value(cl_bool{CL_FALSE}, size, value, size_ret);
      break;
    case CL_DEVICE_PARENT_DEVICE: {
      cl_device_id none = nullptr;
      return answer(&none, sizeof none, size, value, size_ret);
    }
    default: break;
  }
  auto it = device->info.find(param);
  if (it == device->info.end()) return cluster::refuse(CL_INVALID_VALUE, "param_name is not a query the device answers");
  return answer(it->second.data(), it->second.size(), size, value, size_ret);
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device_handle) {
  auto *device = remote(device_handle);
  return is_device(device) ? CL_SUCCESS : cluster::refuse(CL_INVALID_DEVICE, "device is not the node client's");
}
cl_int CL_API_CALL clReleaseDevice(cl_device_id device_handle) {
  auto *device = remote(device_handle);
  return is_device(device) ? CL_SUCCESS : cluster::refuse(CL_INVALID_DEVICE, "device is not the node client's");
}

void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  if (name && !std::strcmp(name, "clIcdGetPlatformIDsKHR")) return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  return extension_function_address(name);
}
void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform_handle, const char *name) {
  auto *platform = remote(platform_handle);
  return is_platform(platform) ? extension_function_address(name) : nullptr;
}
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform_handle) {
  auto *platform = remote(platform_handle);
  return is_platform(platform) ? CL_SUCCESS : cluster::refuse(CL_INVALID_PLATFORM, "platform is not the node client's");
}

}  // namespace unicl::api

#define UNICL_EXPORT extern "C" __attribute__((visibility("default")))

// For bench-cluster (found with dlopen(RTLD_NOLOAD) + dlsym): `count` plain
// MPI round trips of `bytes` with node `rank`, made from the communication
// thread on UniCL's communicator; their total time in `seconds`. 0 on
// success, -1 when there is no such node.
UNICL_EXPORT int unicl_cluster_raw_ping_pong(int rank, size_t bytes, size_t count, double *seconds) {
  using namespace unicl::cluster;
  auto &nodes = Session::get();
  nodes.platforms();
  MpiLink *link = nodes.link();
  if (!link || rank <= 0 || rank >= link->size()) return -1;
  *seconds = raw_round_trips(*link, rank, bytes, count);
  return 0;
}
// The same between two nodes, `from` starting each round trip with `to`.
UNICL_EXPORT int unicl_cluster_raw_ping_pong_between(int from, int to, size_t bytes, size_t count, double *seconds) {
  using namespace unicl::cluster;
  auto &nodes = Session::get();
  nodes.platforms();
  MpiLink *link = nodes.link();
  if (!link || from <= 0 || to <= 0 || from == to || from >= link->size() || to >= link->size()) return -1;
  Writer w;
  write(w, PingPongWith{to, bytes, count});
  std::vector<char> reply;
  if (rpc(from, Op::kRawPingPongWith, w, &reply) != CL_SUCCESS) return -1;
  Reader r(reply);
  *seconds = r.get<double>();
  return 0;
}
// For the tests (found as unicl_cluster_raw_ping_pong is): the bulk bytes
// rank 0 sent to or received from the nodes so far; 0 outside a job.
UNICL_EXPORT uint64_t unicl_cluster_bulk_bytes() {
  unicl::cluster::MpiLink *link = unicl::cluster::Session::get().link();
  return link ? link->bulk_bytes() : 0;
}
// For the tests and benchmarks (found as unicl_cluster_raw_ping_pong is):
// what crossed rank 0's link with the nodes so far (mpi_link.hpp, Counts),
// in `out`: messages sent, bytes sent, messages received, bytes received,
// calls that waited for a reply, requests sent. All 0 outside a job.
UNICL_EXPORT void unicl_cluster_counts(uint64_t out[6]) {
  unicl::cluster::MpiLink *link = unicl::cluster::Session::get().link();
  const auto c = link ? link->counts() : unicl::cluster::MpiLink::Counts{};
  out[0] = c.messages_sent, out[1] = c.bytes_sent, out[2] = c.messages_received, out[3] = c.bytes_received;
  out[4] = c.calls_waited, out[5] = c.requests_sent;
}
UNICL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms, cl_uint *count) {
  return unicl::api::clIcdGetPlatformIDsKHR(n, platforms, count);
}
UNICL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  return unicl::api::clGetExtensionFunctionAddress(name);
}
