// Whether a message has arrived, asked of MPI so that the answer counts
// what this very call brought in.
//
// Why not MPI_Iprobe alone: Open MPI's MPI_Iprobe looks among the messages
// already taken off the transport and only then, finding none, moves the
// transport on (ob1's iprobe: match, else opal_progress). A message that came
// while the asking thread slept is thus seen by the second probe after the
// wake, not the first: rank 0's communication thread, which sleeps up to
// 200 us between polls while a long transfer runs (idle_backoff.hpp), learnt
// a node's report 350-430 us after the node sent it (bench-cluster, a 16 MiB
// copy between nodes; the first probe after each sleep came back empty).
// MPI_Test has no such gap: it looks again after its progress.
#pragma once
#include <mpi.h>

namespace unicl::cluster {

// MPI_Iprobe of (source, tag) on `comm`, asked twice when the first finds
// nothing: the second sees what the first one's progress took in.
inline bool arrived(MPI_Comm comm, int source, int tag, MPI_Status &status) {
  int found = 0;
  MPI_Iprobe(source, tag, comm, &found, &status);
  if (!found) MPI_Iprobe(source, tag, comm, &found, &status);
  return found != 0;
}

}  // namespace unicl::cluster
