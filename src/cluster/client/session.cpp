// The node client's session with the nodes (session.hpp), and the
// calls every entry point makes to them: post (queued, not waited for) and
// rpc (waited for).
#include "cluster/client/session.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>

#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include "cluster/protocol/node_list.hpp"
#include "cluster/protocol/ping_pong.hpp"
#include "cluster/protocol/steady_clock.hpp"
#include "cluster/client/log.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
extern const cl_icd_dispatch dispatch_table;
}

namespace unicl::cluster {
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
  out.program = node_program_in(dir, {"src/cluster/node/unicl-node", "../bin/unicl-node", "../../bin/unicl-node"});
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

// A link from plain MPI round trips (`round_trip(bytes)`: one's seconds,
// negative when it failed) of 8 bytes and of 1 MiB, the quickest of
// several (nodes still starting share the cores); {0, 0} when one failed.
NetworkLink measured_link(const std::function<double(size_t)> &round_trip) {
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

// With UNICL_LOG=1: what the transfer models start from (a route through
// the host copy or straight between nodes is first chosen on these).
void log_link(int from, int to, const NetworkLink &l) {
  if (log_level() >= 1)
    std::fprintf(stderr, "UniCL cluster: network rank %d <-> rank %d: latency %.1f us, %.2f GB/s\n", from, to,
                 l.latency * 1e6, l.bandwidth / 1e9);
}

}  // namespace

double raw_round_trips(MpiLink &link, int rank, size_t bytes, size_t count) {
  double seconds = 0;
  link.run_on_thread([&](void *comm) {
    seconds = start_ping_pong(*static_cast<MPI_Comm *>(comm), rank, bytes, count);
  });
  return seconds;
}

Session &Session::get() {
  static Session *instance = std::make_unique<Session>().release();
  return *instance;
}

const std::vector<RemotePlatform *> &Session::platforms() {
  std::call_once(joined_, [this] { join(); });
  return handles_;
}

void Session::shutdown() {
  if (!link_) return;
  if (log_level() >= 1) {
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

NetworkLink Session::network(int rank) const {
  auto it = links_.find(rank);
  return it == links_.end() ? NetworkLink{} : it->second;
}

std::vector<NetworkLink> Session::networks(int rank) const {
  std::vector<NetworkLink> out(link_ ? static_cast<size_t>(link_->size()) : 0);
  for (size_t r = 0; r < out.size(); ++r) {
    if (static_cast<int>(r) == rank) continue;
    if (r == 0) out[r] = network(rank);
    else if (auto it = pair_links_.find({rank, static_cast<int>(r)}); it != pair_links_.end()) out[r] = it->second;
  }
  return out;
}

void Session::run_later(std::function<void()> fn) {
  {
    std::lock_guard lock(callbacks_mutex_);
    callbacks_.push_back(std::move(fn));
  }
  callbacks_changed_.notify_one();
}

// Each node finalizes MPI and exits when told goodbye; a node that does
// not answer within kByeTimeout is left to mpirun.
void Session::say_goodbye() {
  std::call_once(said_goodbye_, [this] {
    std::vector<std::future<void>> byes;
    for (int r : nodes_)
      byes.push_back(std::async(std::launch::async, [this, r] {
        std::vector<char> reply;
        link_->call(r, Op::kBye, Writer{}, reply, kByeTimeout);
      }));
  });  // the futures wait for every goodbye (each bounded)
}

void Session::join() {
  std::string why;
  MpiLink::Spawn spawn;
  link_ = MpiLink::open(why, spawn_request(spawn) ? &spawn : nullptr);
  if (!link_) {
    std::fprintf(stderr, "UniCL cluster: not joining the MPI job: %s\n", why.c_str());
    return;
  }
  link_->before_finalize([this] { say_goodbye(); });
  std::atexit([] { Session::get().shutdown(); });
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
      write(w, Hello{});
      write(w, link_->doorbell_at());
      std::vector<char> reply;
      cl_int status = link_->call(r, Op::kHello, w, reply, kHelloTimeout);
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
      const auto [magic, version] = read_message<Hello>(r);
      if (status != CL_SUCCESS || magic != kMagic || version != kProtocolVersion) {
        std::fprintf(stderr, "UniCL cluster: rank %d runs a unicl-node of protocol %u, this UniCL speaks %u; its "
                             "devices are left out\n", rank, version, kProtocolVersion);
        continue;
      }
      add_node(rank, read_node(r));
      measure_link(rank);
      measure_clock(rank);
    } catch (const Truncated &) {
      std::fprintf(stderr, "UniCL cluster: rank %d answered with a malformed description; left out\n", rank);
    }
  }
  measure_node_pairs();
}

// The network between this rank and node `rank`, measured once at the
// start: the first guess of the transfer models for its devices, which
// timed transfers then refine.
void Session::measure_link(int rank) {
  links_[rank] = measured_link([&](size_t bytes) { return raw_round_trips(*link_, rank, bytes, 1); });
  log_link(0, rank, links_[rank]);
}

// How far node `rank`'s steady clock is ahead of this rank's: from the
// quickest of a few pings, whose answer is taken to be read halfway
// through it (on one machine: zero, within a few microseconds).
void Session::measure_clock(int rank) {
  double best_trip = -1;
  int64_t offset = 0;
  for (int i = 0; i < 5; ++i) {
    std::vector<char> reply;
    const uint64_t sent = steady_ns();
    if (link_->call(rank, Op::kPing, Writer{}, reply, kHelloTimeout) != CL_SUCCESS) return;
    const uint64_t back = steady_ns();
    if (reply.size() < sizeof(uint64_t)) return;
    const auto node_ns = Reader(reply).get<uint64_t>();
    const double trip = static_cast<double>(back - sent);
    if (best_trip >= 0 && trip >= best_trip) continue;
    best_trip = trip;
    offset = static_cast<int64_t>(node_ns - (sent + (back - sent) / 2));
  }
  link_->clock_offset(rank, offset);
  if (log_level() >= 1)
    std::fprintf(stderr, "UniCL cluster: rank %d's clock is %+.1f us from this rank's (round trip %.1f us)\n", rank,
                 static_cast<double>(offset) / 1e3, best_trip / 1e3);
}

// The network between every two nodes that joined, measured in the same
// way (node i makes the round trips with node j): the first guess of the
// transfer models for copies straight between their devices.
void Session::measure_node_pairs() {
  std::vector<int> joined;
  for (auto &[rank, link] : links_) joined.push_back(rank);
  for (size_t i = 0; i < joined.size(); ++i)
    for (size_t j = i + 1; j < joined.size(); ++j) {
      const int from = joined[i], to = joined[j];
      const NetworkLink l = measured_link([&](size_t bytes) {
        Writer w;
        write(w, PingPongWith{to, bytes, 1});
        std::vector<char> reply;
        if (link_->call(from, Op::kRawPingPongWith, w, reply, kHelloTimeout) != CL_SUCCESS ||
            reply.size() < sizeof(double))
          return -1.0;
        Reader r(reply);
        return r.get<double>();
      });
      if (l.bandwidth > 0) pair_links_[{from, to}] = pair_links_[{to, from}] = l;
      log_link(from, to, l);
    }
}

void Session::add_node(int rank, NodeDescription node) {
  const std::string label = node_label(node.host, rank);
  link_->doorbell(rank, Doorbell(node.doorbell));
  if (node.platforms.empty())
    std::fprintf(stderr, "UniCL cluster: node%s has no OpenCL device\n", label.c_str());
  for (auto &p : node.platforms) {
    auto platform = std::make_unique<RemotePlatform>();
    platform->dispatch = &api::dispatch_table;
    platform->rank = rank;
    platform->handle = p.id;
    platform->info = std::move(p.info);
    append_to_text(platform->info[CL_PLATFORM_NAME], label);
    for (auto &d : p.devices) {
      auto device = std::make_unique<RemoteDevice>();
      device->dispatch = &api::dispatch_table;
      device->platform = platform.get();
      device->rank = rank;
      device->handle = d.id;
      device->host = node.host;
      device->topology = node.topology;
      device->info = std::move(d.info);
      append_to_text(device->info[CL_DEVICE_NAME], label);
      hide_what_is_not_forwarded(device->info);
      platform->devices.push_back(std::move(device));
    }
    if (log_level() >= 1)
      std::fprintf(stderr, "UniCL cluster: node%s: a platform joins\n", label.c_str());
    handles_.push_back(platform.get());
    owned_.push_back(std::move(platform));
  }
}

void Session::run_callbacks() {
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
void Session::stop_callbacks() {
  {
    std::lock_guard lock(callbacks_mutex_);
    stop_callbacks_ = true;
  }
  callbacks_changed_.notify_one();
  if (callback_thread_.joinable()) callback_thread_.join();
}

// How long a call may take: a program build is the longest.
constexpr auto kCallTimeout = std::chrono::minutes(10);

cl_int rpc(int rank, Op op, const Writer &args, std::vector<char> *reply) {
  MpiLink *link = Session::get().link();
  if (!link) return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the node client has no MPI link (the job was not joined)");
  std::vector<char> ignored;
  return link->call(rank, op, args, reply ? *reply : ignored, kCallTimeout);
}
bool post(int rank, Op op, const Writer &args, const void *bulk, size_t bulk_size, std::shared_ptr<const void> keep) {
  MpiLink *link = Session::get().link();
  return link && link->post(rank, op, args, {bulk, bulk_size, std::move(keep)});
}
void expect_event(int rank) {
  if (MpiLink *link = Session::get().link()) link->expect_event(rank);
}
bool node_lost(int rank) {
  MpiLink *link = Session::get().link();
  return !link || link->lost(rank);
}
void run_later(std::function<void()> fn) { Session::get().run_later(std::move(fn)); }

}  // namespace unicl::cluster
