// The node client's session with the nodes: rank 0's place in the MPI job.
// At the first platform query it joins the job (mpi_link.hpp), greets every
// node rank (protocol/messages.hpp: version check, then the node's description),
// keeps the answers as platforms and devices and measures the network to
// each node; at exit it says goodbye to each node, which then finalizes MPI
// and exits. It also runs the client's callback thread.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cluster/client/mpi_link.hpp"
#include "cluster/client/objects.hpp"

namespace unicl::cluster {

class Session {
 public:
  // Immortal, as UniCL's runtime is: UniCL's threads may still release
  // objects of the nodes while the process exits. At exit (atexit, see
  // join) it says goodbye to the nodes and finalizes MPI; calls after that
  // fail with CL_DEVICE_NOT_AVAILABLE.
  static Session &get();
  // The nodes' platforms (joining the job the first time).
  const std::vector<RemotePlatform *> &platforms();
  void shutdown();
  MpiLink *link() { return link_.get(); }

  // The network to node `rank`, and from it to each rank of the job in rank
  // order (CL_DEVICE_NODE_LINKS_UNICL), as measured when the nodes joined.
  NetworkLink network(int rank) const;
  std::vector<NetworkLink> networks(int rank) const;

  void run_later(std::function<void()> fn);

 private:
  void join();
  void say_goodbye();
  void measure_link(int rank);
  void measure_clock(int rank);
  void measure_node_pairs();
  void add_node(int rank, NodeDescription node);
  void run_callbacks();
  void stop_callbacks();

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
  std::vector<std::unique_ptr<RemotePlatform>> owned_;
  std::vector<RemotePlatform *> handles_;
};

// `count` plain MPI round trips of `bytes` with node `rank`, made from the
// communication thread on UniCL's communicator: their total seconds.
double raw_round_trips(MpiLink &link, int rank, size_t bytes, size_t count);

}  // namespace unicl::cluster
