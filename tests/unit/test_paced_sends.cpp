// Rank 0's paced sends (src/cluster/client/paced_sends.hpp), on a real
// Open MPI communicator of this one process (MPI_COMM_SELF, MPI started as a
// singleton): a send to itself that is not yet received stays in flight, as
// one to a node does until the node takes it, so what is in flight and
// what waits can be seen.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "cluster/client/paced_sends.hpp"

using unicl::cluster::PacedSends;

namespace {

// MPI for the whole program: started by the first test that needs it,
// finalized when the program ends.
struct Mpi {
  Mpi() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  }
  ~Mpi() { MPI_Finalize(); }
};
MPI_Comm self() {
  static Mpi mpi;
  return MPI_COMM_SELF;
}

constexpr int kBulkTag = 7, kRequestTag = 8;
constexpr size_t kPart = size_t{1} << 20;  // far above any eager limit: in flight until received

}  // namespace

TEST_CASE("Bulk parts go at most two at a time, in the order posted, and requests at once beside them") {
  MPI_Comm comm = self();
  PacedSends sends(comm);
  constexpr int kParts = 5;
  std::vector<std::shared_ptr<std::vector<char>>> parts;
  for (int i = 0; i < kParts; ++i) {
    parts.push_back(std::make_shared<std::vector<char>>(kPart, static_cast<char>('a' + i)));
    sends.bulk(0, kBulkTag, parts.back()->data(), kPart, parts.back());
  }
  sends.progress();
  // Nobody received yet: two parts are on their way, the others wait.
  CHECK(sends.bulk_in_flight() == PacedSends::kBulkInFlight);
  CHECK(sends.bulk_waiting() == kParts - PacedSends::kBulkInFlight);

  // A request posted after them is not held behind them.
  sends.request(0, kRequestTag, {'r', 'q'});
  MPI_Status status;
  int found = 0;
  for (int i = 0; i < 100 && !found; ++i) MPI_Iprobe(0, kRequestTag, comm, &found, &status);
  REQUIRE(found);
  std::vector<char> request(2);
  MPI_Recv(request.data(), 2, MPI_BYTE, 0, kRequestTag, comm, MPI_STATUS_IGNORE);
  CHECK(request == std::vector<char>{'r', 'q'});
  CHECK(sends.bulk_waiting() == kParts - PacedSends::kBulkInFlight);

  // Received in posting order (MPI matches one sender's messages of one tag
  // in the order they were sent): the i-th receive gets the i-th part.
  std::vector<std::vector<char>> received(kParts, std::vector<char>(kPart));
  std::vector<MPI_Request> receives(kParts);
  for (int i = 0; i < kParts; ++i)
    MPI_Irecv(received[i].data(), static_cast<int>(kPart), MPI_BYTE, 0, kBulkTag, comm, &receives[i]);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (int all = 0; !all && std::chrono::steady_clock::now() < give_up;) {
    sends.progress();
    CHECK(sends.bulk_in_flight() <= PacedSends::kBulkInFlight);
    MPI_Testall(kParts, receives.data(), &all, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < kParts; ++i) {
    INFO("part " << i);
    CHECK(std::all_of(received[i].begin(), received[i].end(), [&](char c) { return c == 'a' + i; }));
  }
  sends.progress();
  CHECK(sends.idle());
}
