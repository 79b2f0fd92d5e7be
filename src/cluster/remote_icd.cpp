// libunicl-remote.so: UniCL's node client, an ICD vendor library whose
// platforms are those of the nodes of the MPI job (one per node and vendor
// platform). UniCL loads it like any vendor when it runs as rank 0 of such
// a job (core/config.hpp, cluster_job), or when UNICL_NODES asks it to start
// the nodes itself (spawn_nodes), so the nodes' devices join the UniCL
// platform with no second path in the core.
//
// At the first platform query it joins the job (mpi_link.hpp), greets every
// node rank (protocol.hpp: version check, then the node's description),
// keeps the answers and measures the network to each node; at exit it says
// goodbye to each node, which then finalizes MPI and exits.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <thread>
#include <mutex>
#include <sstream>

#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include "cluster/mpi_link.hpp"
#include "cluster/node_list.hpp"
#include "cluster/ping_pong.hpp"
#include "cluster/remote_objects.hpp"
#include "remote_api_decls.hpp"

namespace unicl::api {
extern const cl_icd_dispatch dispatch_table;
}

namespace unicl::cluster {

const cl_icd_dispatch &client_dispatch() { return api::dispatch_table; }

std::string node_label(const std::string &host, int rank) { return " @ " + host + ":" + std::to_string(rank); }

cl_int answer(const void *value, size_t n, size_t size, void *out, size_t *size_ret) {
  if (out && size < n) return CL_INVALID_VALUE;
  if (out && n) std::memcpy(out, value, n);
  if (size_ret) *size_ret = n;
  return CL_SUCCESS;
}

namespace {

// How long a node may take to answer the greeting (it loads its vendors
// first, and PoCL's first load compiles its kernel library cache).
constexpr auto kHelloTimeout = std::chrono::seconds(60);
constexpr auto kByeTimeout = std::chrono::seconds(5);

// Appends `label` to a string info answer (NUL-terminated bytes).
void append_to_text(std::vector<char> &answer, const std::string &label) {
  answer.erase(std::find(answer.begin(), answer.end(), '\0'), answer.end());
  answer.insert(answer.end(), label.begin(), label.end());
  answer.push_back('\0');
}

// UNICL_NODES ("host[:count],..." or a count) in a process outside a larger
// MPI job (core/config.hpp, spawn_nodes): the nodes this process starts.
bool spawn_request(MpiLink::Spawn &out) {
  const char *nodes = std::getenv("UNICL_NODES");
  const char *world = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!nodes || !*nodes || (world && std::atoi(world) > 1)) return false;
  for (auto &h : resolvable_hosts(parse_node_list(nodes), "UniCL cluster (UNICL_NODES)")) {
    out.count += h.count;
    // Open MPI's host list names a host once per process placed there.
    for (int i = 0; i < h.count; ++i) out.hosts += (out.hosts.empty() ? "" : ",") + h.host;
  }
  // unicl-node beside this library: in the build tree, or installed.
  Dl_info self{};
  std::string dir = ".";
  if (dladdr(reinterpret_cast<void *>(&spawn_request), &self) && self.dli_fname) {
    dir = self.dli_fname;
    dir = dir.substr(0, dir.find_last_of('/'));
  }
  out.program = node_program_in(dir, {"src/cluster/unicl-node", "../bin/unicl-node", "../../bin/unicl-node"});
  return out.count > 0;
}

// A node's device as rank 0 can use it: a native kernel is a function of
// this process, which the node cannot call, and sub-devices are not
// forwarded; the device says it has neither, as the spec lets a device.
void hide_what_is_not_forwarded(InfoAnswers &info) {
  auto it = info.find(CL_DEVICE_EXECUTION_CAPABILITIES);
  if (it != info.end() && it->second.size() == sizeof(cl_device_exec_capabilities)) {
    cl_device_exec_capabilities caps = 0;
    std::memcpy(&caps, it->second.data(), sizeof caps);
    caps &= ~cl_device_exec_capabilities{CL_EXEC_NATIVE_KERNEL};
    std::memcpy(it->second.data(), &caps, sizeof caps);
  }
  const cl_device_partition_property none = 0;
  const cl_uint zero = 0;
  info[CL_DEVICE_PARTITION_PROPERTIES].assign(reinterpret_cast<const char *>(&none),
                                               reinterpret_cast<const char *>(&none) + sizeof none);
  info[CL_DEVICE_PARTITION_MAX_SUB_DEVICES].assign(reinterpret_cast<const char *>(&zero),
                                                    reinterpret_cast<const char *>(&zero) + sizeof zero);
  info[CL_DEVICE_PARTITION_AFFINITY_DOMAIN].assign(sizeof(cl_device_affinity_domain), 0);
}

// `count` plain MPI round trips of `bytes` with node `rank`, made from the
// communication thread on UniCL's communicator: their total seconds.
double raw_round_trips(MpiLink &link, int rank, size_t bytes, size_t count) {
  double seconds = 0;
  link.run_on_thread([&](void *comm) {
    seconds = start_ping_pong(*static_cast<MPI_Comm *>(comm), rank, bytes, count);
  });
  return seconds;
}

class Cluster {
 public:
  static Cluster &get() {
    // Immortal, as UniCL's runtime is: UniCL's threads may still release
    // objects of the nodes while the process exits. At exit (atexit, see
    // join) it says goodbye to the nodes and finalizes MPI; calls after that
    // fail with CL_DEVICE_NOT_AVAILABLE.
    static Cluster *instance = std::make_unique<Cluster>().release();
    return *instance;
  }
  const std::vector<cl_platform_id> &platforms() {
    std::call_once(joined_, [this] { join(); });
    return handles_;
  }
  void shutdown() {
    if (!link_) return;
    if (const char *level = std::getenv("UNICL_LOG"); level && std::atoi(level) >= 1) {
      const auto c = link_->counts();
      std::fprintf(stderr,
                   "UniCL cluster: rank 0 sent %llu messages (%llu bytes) to the nodes and received %llu (%llu "
                   "bytes); %llu calls waited for a reply\n",
                   static_cast<unsigned long long>(c.messages_sent), static_cast<unsigned long long>(c.bytes_sent),
                   static_cast<unsigned long long>(c.messages_received),
                   static_cast<unsigned long long>(c.bytes_received), static_cast<unsigned long long>(c.calls_waited));
    }
    say_goodbye();
    link_->close();
    stop_callbacks();
  }

  NetworkLink network(int rank) {
    auto it = links_.find(rank);
    return it == links_.end() ? NetworkLink{} : it->second;
  }
  // The network between node `rank` and each rank of the job, in rank
  // order (CL_DEVICE_NODE_LINKS_UNICL).
  std::vector<NetworkLink> networks(int rank) {
    std::vector<NetworkLink> out(link_ ? static_cast<size_t>(link_->size()) : 0);
    for (size_t r = 0; r < out.size(); ++r) {
      if (static_cast<int>(r) == rank) continue;
      if (r == 0) out[r] = network(rank);
      else if (auto it = pair_links_.find({rank, static_cast<int>(r)}); it != pair_links_.end()) out[r] = it->second;
    }
    return out;
  }

  MpiLink *link() { return link_.get(); }

  void run_later(std::function<void()> fn) {
    {
      std::lock_guard lock(callbacks_mutex_);
      callbacks_.push_back(std::move(fn));
    }
    callbacks_changed_.notify_one();
  }

 private:
  // Each node finalizes MPI and exits when told goodbye; a node that does
  // not answer within kByeTimeout is left to mpirun.
  void say_goodbye() {
    std::call_once(said_goodbye_, [this] {
      std::vector<std::future<void>> byes;
      for (int r : nodes_)
        byes.push_back(std::async(std::launch::async, [this, r] {
          std::vector<char> reply;
          link_->call(r, Op::kBye, {}, reply, kByeTimeout);
        }));
    });  // the futures wait for every goodbye (each bounded)
  }

  void join() {
    std::string why;
    MpiLink::Spawn spawn;
    link_ = MpiLink::open(why, spawn_request(spawn) ? &spawn : nullptr);
    if (!link_) {
      std::fprintf(stderr, "UniCL cluster: not joining the MPI job: %s\n", why.c_str());
      return;
    }
    link_->before_finalize([this] { say_goodbye(); });
    std::atexit([] { Cluster::get().shutdown(); });
    callback_thread_ = std::thread([this] { run_callbacks(); });
    link_->on_event(event_ended, read_destination);
    // UNICL_NODE_TIMEOUT: seconds a node awaited may stay silent (pinged
    // meanwhile) before it is taken as lost; default 30 (a node answers
    // nothing while a vendor compiles a program for it).
    const char *timeout = std::getenv("UNICL_NODE_TIMEOUT");
    const double seconds = timeout && std::atof(timeout) > 0 ? std::atof(timeout) : 30.0;
    link_->watch(std::chrono::milliseconds(static_cast<long long>(seconds * 1000)), [](int rank) {
      std::fprintf(stderr, "UniCL cluster: node rank %d stopped answering; its commands fail and its devices are "
                           "unavailable\n", rank);
      fail_events_of(rank, CL_DEVICE_NOT_AVAILABLE);
    });
    // Every rank but this one: UniCL loads this library only as rank 0,
    // alone in its application context (core/config.hpp, cluster_job).
    for (int r = 1; r < link_->size(); ++r) nodes_.push_back(r);
    // Greet the nodes at once: each loads its vendors before it answers.
    std::vector<std::future<std::pair<cl_int, std::vector<char>>>> hellos;
    for (int r : nodes_)
      hellos.push_back(std::async(std::launch::async, [this, r] {
        Writer w;
        w.put(kMagic).put(kProtocolVersion);
        std::vector<char> reply;
        cl_int status = link_->call(r, Op::kHello, w.take(), reply, kHelloTimeout);
        return std::make_pair(status, std::move(reply));
      }));
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const int rank = nodes_[i];
      auto [status, reply] = hellos[i].get();
      if (status == CL_DEVICE_NOT_AVAILABLE) {
        std::fprintf(stderr, "UniCL cluster: rank %d did not answer within %lld s (is it unicl-node?); its devices "
                             "are left out\n", rank, static_cast<long long>(kHelloTimeout.count()));
        continue;
      }
      try {
        Reader r(reply);
        const auto magic = r.get<uint32_t>(), version = r.get<uint32_t>();
        if (status != CL_SUCCESS || magic != kMagic || version != kProtocolVersion) {
          std::fprintf(stderr, "UniCL cluster: rank %d runs a unicl-node of protocol %u, this UniCL speaks %u; its "
                               "devices are left out\n", rank, version, kProtocolVersion);
          continue;
        }
        add_node(rank, read_node(r));
        measure_link(rank);
      } catch (const Truncated &) {
        std::fprintf(stderr, "UniCL cluster: rank %d answered with a malformed description; left out\n", rank);
      }
    }
    measure_node_pairs();
  }

  // The network between this rank and node `rank`, measured once at the
  // start: the first guess of the transfer models for its devices, which
  // timed transfers then refine.
  void measure_link(int rank) {
    links_[rank] = measured_link([&](size_t bytes) { return raw_round_trips(*link_, rank, bytes, 1); });
  }

  // The network between every two nodes that joined, measured in the same
  // way (node i makes the round trips with node j): the first guess of the
  // transfer models for copies straight between their devices.
  void measure_node_pairs() {
    std::vector<int> joined;
    for (auto &[rank, link] : links_) joined.push_back(rank);
    for (size_t i = 0; i < joined.size(); ++i)
      for (size_t j = i + 1; j < joined.size(); ++j) {
        const int from = joined[i], to = joined[j];
        const NetworkLink l = measured_link([&](size_t bytes) {
          Writer w;
          w.put(int32_t{to}).put(uint64_t{bytes}).put(uint64_t{1});
          std::vector<char> reply;
          if (link_->call(from, Op::kRawPingPongWith, w.take(), reply, kHelloTimeout) != CL_SUCCESS ||
              reply.size() < sizeof(double))
            return -1.0;
          Reader r(reply);
          return r.get<double>();
        });
        if (l.bandwidth > 0) pair_links_[{from, to}] = pair_links_[{to, from}] = l;
      }
  }

  // A link from plain MPI round trips (`round_trip(bytes)`: one's seconds,
  // negative when it failed) of 8 bytes and of 1 MiB, the quickest of
  // several (nodes still starting share the cores); {0, 0} when one failed.
  static NetworkLink measured_link(const std::function<double(size_t)> &round_trip) {
    constexpr size_t kSmall = 8, kLarge = size_t{1} << 20;
    auto one_way = [&](size_t bytes, int tries) {
      double best = -1;
      for (int i = 0; i < tries; ++i) {
        const double t = round_trip(bytes);
        if (t < 0) return -1.0;
        if (best < 0 || t < best) best = t;
      }
      return best / 2;
    };
    NetworkLink l;
    const double latency = one_way(kSmall, 10);
    const double large = latency < 0 ? -1 : one_way(kLarge, 4);
    if (large < 0) return l;
    l.latency = latency;
    l.bandwidth = static_cast<double>(kLarge) / std::max(large - latency, latency);
    return l;
  }

  void add_node(int rank, NodeDescription node) {
    const std::string label = node_label(node.host, rank);
    if (node.platforms.empty())
      std::fprintf(stderr, "UniCL cluster: node%s has no OpenCL device\n", label.c_str());
    for (auto &p : node.platforms) {
      auto platform = std::make_unique<_cl_platform_id>();
      platform->dispatch = &api::dispatch_table;
      platform->rank = rank;
      platform->remote = p.id;
      platform->info = std::move(p.info);
      append_to_text(platform->info[CL_PLATFORM_NAME], label);
      for (auto &d : p.devices) {
        auto device = std::make_unique<_cl_device_id>();
        device->dispatch = &api::dispatch_table;
        device->platform = platform.get();
        device->rank = rank;
        device->remote = d.id;
        device->host = node.host;
        device->topology = node.topology;
        device->info = std::move(d.info);
        append_to_text(device->info[CL_DEVICE_NAME], label);
        hide_what_is_not_forwarded(device->info);
        platform->devices.push_back(std::move(device));
      }
      if (const char *level = std::getenv("UNICL_LOG"); level && std::atoi(level) >= 1)
        std::fprintf(stderr, "UniCL cluster: node%s: a platform joins\n", label.c_str());
      handles_.push_back(platform.get());
      owned_.push_back(std::move(platform));
    }
  }

  void run_callbacks() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(callbacks_mutex_);
        callbacks_changed_.wait(lock, [&] { return stop_callbacks_ || !callbacks_.empty(); });
        if (callbacks_.empty()) return;
        fn = std::move(callbacks_.front());
        callbacks_.pop_front();
      }
      fn();
    }
  }
  void stop_callbacks() {
    {
      std::lock_guard lock(callbacks_mutex_);
      stop_callbacks_ = true;
    }
    callbacks_changed_.notify_one();
    if (callback_thread_.joinable()) callback_thread_.join();
  }

  std::thread callback_thread_;
  std::mutex callbacks_mutex_;
  std::condition_variable callbacks_changed_;
  std::deque<std::function<void()>> callbacks_;
  bool stop_callbacks_ = false;
  std::once_flag joined_, said_goodbye_;
  std::unique_ptr<MpiLink> link_;
  std::vector<int> nodes_;
  std::map<int, NetworkLink> links_;  // by node rank, measured at the start
  std::map<std::pair<int, int>, NetworkLink> pair_links_;  // between two nodes, both ways, measured at the start
  std::vector<std::unique_ptr<_cl_platform_id>> owned_;
  std::vector<cl_platform_id> handles_;
};

}  // namespace

// How long a call may take: a program build is the longest.
constexpr auto kCallTimeout = std::chrono::minutes(10);

cl_int rpc(int rank, Op op, const Writer &args, std::vector<char> *reply, const void *data, size_t data_size) {
  MpiLink *link = Cluster::get().link();
  if (!link) return CL_DEVICE_NOT_AVAILABLE;
  std::vector<char> ignored;
  return link->call(rank, op, args.buffer(), reply ? *reply : ignored, kCallTimeout, data, data_size);
}
void post(int rank, Op op, const Writer &args) {
  if (MpiLink *link = Cluster::get().link()) link->post(rank, op, args.buffer());
}
void expect_event(int rank) {
  if (MpiLink *link = Cluster::get().link()) link->expect_event(rank);
}
bool node_lost(int rank) {
  MpiLink *link = Cluster::get().link();
  return !link || link->lost(rank);
}
void run_later(std::function<void()> fn) { Cluster::get().run_later(std::move(fn)); }

namespace {

bool ours(cl_platform_id p) {
  auto &all = Cluster::get().platforms();
  return p && std::find(all.begin(), all.end(), p) != all.end();
}
bool ours(cl_device_id d) { return d && ours(d->platform); }

}  // namespace

bool is_platform(cl_platform_id p) { return ours(p); }
bool is_device(cl_device_id d) { return ours(d); }

}  // namespace unicl::cluster

namespace unicl::api {
using namespace unicl::cluster;

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  auto &all = Cluster::get().platforms();
  if (num_platforms) *num_platforms = static_cast<cl_uint>(all.size());
  for (cl_uint i = 0; platforms && i < num_entries && i < all.size(); ++i) platforms[i] = all[i];
  return all.empty() ? CL_PLATFORM_NOT_FOUND_KHR : CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                                     size_t *size_ret) {
  if (!ours(platform)) return CL_INVALID_PLATFORM;
  if (param == CL_PLATFORM_ICD_SUFFIX_KHR) return answer("UNICLNODE", 10, size, value, size_ret);
  auto it = platform->info.find(param);
  if (it == platform->info.end()) return CL_INVALID_VALUE;
  return answer(it->second.data(), it->second.size(), size, value, size_ret);
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  if (!ours(platform)) return CL_INVALID_PLATFORM;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  std::vector<cl_device_id> matching;
  for (auto &d : platform->devices) {
    cl_device_type t = 0;
    if (auto it = d->info.find(CL_DEVICE_TYPE); it != d->info.end() && it->second.size() == sizeof t)
      std::memcpy(&t, it->second.data(), sizeof t);
    if (type == CL_DEVICE_TYPE_ALL || (type & t) || (type == CL_DEVICE_TYPE_DEFAULT && matching.empty()))
      matching.push_back(d.get());
  }
  if (type == CL_DEVICE_TYPE_DEFAULT && matching.size() > 1) matching.resize(1);
  if (num_devices) *num_devices = static_cast<cl_uint>(matching.size());
  for (cl_uint i = 0; devices && i < num_entries && i < matching.size(); ++i) devices[i] = matching[i];
  return matching.empty() ? CL_DEVICE_NOT_FOUND : CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void *value,
                                   size_t *size_ret) {
  if (!ours(device)) return CL_INVALID_DEVICE;
  switch (param) {
    case CL_DEVICE_PLATFORM: return answer(&device->platform, sizeof(cl_platform_id), size, value, size_ret);
    case CL_DEVICE_NODE_UNICL: return answer_value(static_cast<cl_uint>(device->rank), size, value, size_ret);
    case CL_DEVICE_NODE_HOST_UNICL:
      return answer(device->host.c_str(), device->host.size() + 1, size, value, size_ret);
    case CL_DEVICE_NODE_LINK_UNICL: {
      const NetworkLink l = Cluster::get().network(device->rank);
      const cl_double link[2] = {l.latency, l.bandwidth};
      return answer(link, sizeof link, size, value, size_ret);
    }
    case CL_DEVICE_NODE_LINKS_UNICL: {
      std::vector<cl_double> links;
      for (const NetworkLink &l : Cluster::get().networks(device->rank)) links.push_back(l.latency), links.push_back(l.bandwidth);
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
  if (it == device->info.end()) return CL_INVALID_VALUE;
  return answer(it->second.data(), it->second.size(), size, value, size_ret);
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) { return ours(device) ? CL_SUCCESS : CL_INVALID_DEVICE; }
cl_int CL_API_CALL clReleaseDevice(cl_device_id device) { return ours(device) ? CL_SUCCESS : CL_INVALID_DEVICE; }

void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  if (name && !std::strcmp(name, "clIcdGetPlatformIDsKHR")) return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  return extension_function_address(name);
}
void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name) {
  return ours(platform) ? extension_function_address(name) : nullptr;
}
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return ours(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

}  // namespace unicl::api

#define UNICL_EXPORT extern "C" __attribute__((visibility("default")))

// For bench-cluster (found with dlopen(RTLD_NOLOAD) + dlsym): `count` plain
// MPI round trips of `bytes` with node `rank`, made from the communication
// thread on UniCL's communicator; their total time in `seconds`. 0 on
// success, -1 when there is no such node.
UNICL_EXPORT int unicl_cluster_raw_ping_pong(int rank, size_t bytes, size_t count, double *seconds) {
  using namespace unicl::cluster;
  auto &nodes = Cluster::get();
  nodes.platforms();
  MpiLink *link = nodes.link();
  if (!link || rank <= 0 || rank >= link->size()) return -1;
  *seconds = raw_round_trips(*link, rank, bytes, count);
  return 0;
}
// The same between two nodes, `from` starting each round trip with `to`.
UNICL_EXPORT int unicl_cluster_raw_ping_pong_between(int from, int to, size_t bytes, size_t count, double *seconds) {
  using namespace unicl::cluster;
  auto &nodes = Cluster::get();
  nodes.platforms();
  MpiLink *link = nodes.link();
  if (!link || from <= 0 || to <= 0 || from == to || from >= link->size() || to >= link->size()) return -1;
  Writer w;
  w.put(int32_t{to}).put(uint64_t{bytes}).put(uint64_t{count});
  std::vector<char> reply;
  if (rpc(from, Op::kRawPingPongWith, w, &reply) != CL_SUCCESS) return -1;
  Reader r(reply);
  *seconds = r.get<double>();
  return 0;
}
// For the tests (found as unicl_cluster_raw_ping_pong is): the bulk bytes
// rank 0 sent to or received from the nodes so far; 0 outside a job.
UNICL_EXPORT uint64_t unicl_cluster_bulk_bytes() {
  unicl::cluster::MpiLink *link = unicl::cluster::Cluster::get().link();
  return link ? link->bulk_bytes() : 0;
}
// For the tests and benchmarks (found as unicl_cluster_raw_ping_pong is):
// what crossed rank 0's link with the nodes so far (mpi_link.hpp, Counts),
// in `out`: messages sent, bytes sent, messages received, bytes received,
// calls that waited for a reply. All 0 outside a job.
UNICL_EXPORT void unicl_cluster_counts(uint64_t out[5]) {
  unicl::cluster::MpiLink *link = unicl::cluster::Cluster::get().link();
  const auto c = link ? link->counts() : unicl::cluster::MpiLink::Counts{};
  out[0] = c.messages_sent, out[1] = c.bytes_sent, out[2] = c.messages_received, out[3] = c.bytes_received;
  out[4] = c.calls_waited;
}
UNICL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms, cl_uint *count) {
  return unicl::api::clIcdGetPlatformIDsKHR(n, platforms, count);
}
UNICL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  return unicl::api::clGetExtensionFunctionAddress(name);
}
