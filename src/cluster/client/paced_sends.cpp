#include "cluster/client/paced_sends.hpp"

#include <algorithm>

namespace unicl::cluster {

void PacedSends::request(int rank, int tag, std::vector<char> message) {
  auto s = std::make_unique<Send>();
  s->rank = rank, s->tag = tag, s->message = std::move(message);
  s->data = s->message.data(), s->size = s->message.size();
  start(*s);
  in_flight_.push_back(std::move(s));
}

void PacedSends::bulk(int rank, int tag, const void *data, size_t size, std::shared_ptr<const void> keep) {
  auto s = std::make_unique<Send>();
  s->rank = rank, s->tag = tag, s->data = data, s->size = size, s->keep = std::move(keep), s->bulk = true;
  queued_.push_back(std::move(s));
  start_bulk();
}

void PacedSends::start(Send &s) {
  MPI_Isend(s.data, static_cast<int>(s.size), MPI_BYTE, s.rank, s.tag, comm_, &s.request);
}

void PacedSends::start_bulk() {
  while (bulk_in_flight_ < kBulkInFlight && !queued_.empty()) {
    std::unique_ptr<Send> s = std::move(queued_.front());
    queued_.pop_front();
    start(*s);
    ++bulk_in_flight_;
    in_flight_.push_back(std::move(s));
  }
}

bool PacedSends::progress() {
  const size_t finished = std::erase_if(in_flight_, [&](const std::unique_ptr<Send> &s) {
    int done = 0;
    // A send to a node that is gone may fail: done with, either way.
    const bool over = MPI_Test(&s->request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done != 0;
    if (over && s->bulk) --bulk_in_flight_;
    return over;
  });
  start_bulk();
  return finished > 0;
}

void PacedSends::cancel() {
  for (auto &s : in_flight_) MPI_Cancel(&s->request), MPI_Request_free(&s->request);
  in_flight_.clear();
  queued_.clear();
  bulk_in_flight_ = 0;
}

}  // namespace unicl::cluster
