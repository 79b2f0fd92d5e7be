// Plain MPI round trips on UniCL's communicator, for bench-cluster's
// baseline and the network measured when a node joins: the starting side
// asks its peer with a kRawPingPong request (no reply), then the two send
// the same `bytes` back and forth `count` times (tag kRawTag).
#pragma once
#include <mpi.h>

#include <chrono>
#include <vector>

#include "cluster/protocol/messages.hpp"

namespace unicl::cluster {

// The starting side: the total seconds of the `count` round trips.
inline double start_ping_pong(MPI_Comm comm, int peer, size_t bytes, size_t count) {
  // A batch of this one request (messages.hpp).
  Writer args;
  write(args, PingPong{bytes, count});
  Writer w;
  w.put(RequestHeader{0, Op::kRawPingPong, static_cast<uint32_t>(args.size())}).raw(args.buffer().data(), args.size());
  std::vector<char> request = w.take();
  MPI_Send(request.data(), static_cast<int>(request.size()), MPI_BYTE, peer, kRequestTag, comm);
  std::vector<char> buffer(bytes);
  // One trip more than counted, first: the peer's serving loop may be
  // asleep (idle_backoff.hpp) when the request comes.
  auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i <= count; ++i) {
    if (i == 1) start = std::chrono::steady_clock::now();
    MPI_Send(buffer.data(), static_cast<int>(bytes), MPI_BYTE, peer, kRawTag, comm);
    MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_BYTE, peer, kRawTag, comm, MPI_STATUS_IGNORE);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The answering side, once the request came: returns each message.
inline void answer_ping_pong(MPI_Comm comm, int peer, size_t bytes, size_t count) {
  std::vector<char> buffer(bytes);
  for (size_t i = 0; i <= count; ++i) {  // with the uncounted first trip
    MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_BYTE, peer, kRawTag, comm, MPI_STATUS_IGNORE);
    MPI_Send(buffer.data(), static_cast<int>(bytes), MPI_BYTE, peer, kRawTag, comm);
  }
}

}  // namespace unicl::cluster
