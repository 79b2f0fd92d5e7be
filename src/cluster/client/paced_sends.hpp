// Rank 0's MPI sends in flight, with the bulk bytes paced.
//
// Why: a large send progresses inside whichever MPI call comes next (the
// shared-memory transport copies it then, about 2.6 GB/s on this machine).
// With every 4 MiB part of a 16 MiB write in flight at once, one round of
// MPI_Test calls copied them all and held the communication thread for
// 5-16 ms, while the requests to other nodes and their reports waited: a
// copy from one node to another started 16 ms late, behind a write to a
// third node. Bulk parts therefore go at most kBulkInFlight at a time, in
// the order they were posted (each node posts its receives of them in that
// order: node/arrivals.cpp), and requests go at once, beside them: between
// two parts, the thread sends and receives everything else.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

namespace unicl::cluster {

class PacedSends {
 public:
  static constexpr size_t kBulkInFlight = 2;

  explicit PacedSends(MPI_Comm comm) : comm_(comm) {}
  // A batch of requests, sent now.
  void request(int rank, int tag, std::vector<char> message);
  // `size` bytes at `data` (held by `keep` until sent), sent once the bulk
  // parts posted before them are on their way.
  void bulk(int rank, int tag, const void *data, size_t size, std::shared_ptr<const void> keep);
  // Forgets the sends that finished, and starts the bulk parts next in line.
  // True when some finished.
  bool progress();
  // Nothing in flight nor waiting.
  bool idle() const { return in_flight_.empty() && queued_.empty(); }
  // Bulk parts on their way, and those waiting for their turn.
  size_t bulk_in_flight() const { return bulk_in_flight_; }
  size_t bulk_waiting() const { return queued_.size(); }
  // Sends to a node that no longer receives never finish: dropped.
  void cancel();

 private:
  struct Send {
    int rank = 0, tag = 0;
    const void *data = nullptr;
    size_t size = 0;
    std::vector<char> message;         // a request's own bytes
    std::shared_ptr<const void> keep;  // a bulk part's
    MPI_Request request = MPI_REQUEST_NULL;
    bool bulk = false;
  };
  void start(Send &s);
  void start_bulk();

  MPI_Comm comm_;
  std::vector<std::unique_ptr<Send>> in_flight_;
  std::deque<std::unique_ptr<Send>> queued_;  // bulk parts, in posting order
  size_t bulk_in_flight_ = 0;
};

}  // namespace unicl::cluster
