// A write's bytes arriving from rank 0 while the serving loop goes on
// (server.hpp, Arrival). The parts of one write, and of every write, are
// received in the order rank 0 sent them: MPI matches receives of one
// source and tag in the order they were posted, the blocking receives of
// other requests (receive_payload) included.
#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {

cl_int NodeServer::write_arriving(const VendorEnqueue &on, cl_mem buffer, size_t offset, size_t size,
                                  std::shared_ptr<std::vector<char>> bytes, cl_int refuse, uint64_t id) {
  if (size == 0 && refuse == CL_SUCCESS) return CL_INVALID_VALUE;
  cl_int err = refuse;
  cl_context context = err == CL_SUCCESS ? vendor_value<cl_context>(on.queue, CL_QUEUE_CONTEXT) : nullptr;
  const auto posted = std::chrono::steady_clock::now();
  const uint64_t changes = staged_bytes_.changes(buffer);
  std::vector<cl_event> parts;
  for_each_part(size, [&](size_t at, size_t n) {
    Arrival a;
    a.write_id = id, a.bytes = bytes, a.posted = posted, a.last = at + n == size;
    if (err == CL_SUCCESS) {
      a.gate = vendor_user_event(context, err);
      std::vector<cl_event> list(on.wait, on.wait + on.num_wait);
      list.push_back(a.gate.get());
      cl_event part = nullptr;
      if (err == CL_SUCCESS)
        err = vendor_enqueue::WriteBuffer({on.queue, static_cast<cl_uint>(list.size()), list.data(), &part}, buffer,
                                          cl_bool(CL_FALSE), offset + at, n,
                                          static_cast<const void *>(bytes->data() + at));
      if (err == CL_SUCCESS) parts.push_back(part);
    }
    if (a.last && offset == 0 && err == CL_SUCCESS) a.whole = buffer, a.changes = changes;
    MPI_Irecv(bytes->data() + at, static_cast<int>(n), MPI_BYTE, 0, kDataTag, comm_, &a.request);
    arrivals_.push_back(std::move(a));
  });
  if (err == CL_SUCCESS) return join_parts(on.queue, parts, on.event);
  // Refused, maybe after some parts were enqueued: they fail at once, and
  // every part is still taken off the wire (its gate dropped).
  for (Arrival &a : arrivals_)
    if (a.write_id == id && a.gate) vendor_set_user_event_status(a.gate.get(), err), a.gate = {};
  for (cl_event part : parts) VendorRef<cl_event>::adopt(part);  // released at once
  return err;
}

void NodeServer::arriving_for(uint64_t id, const std::shared_ptr<Awaited> &write) {
  for (Arrival &a : arrivals_)
    if (a.write_id == id) a.write = write;
}

bool NodeServer::take_arrivals() {
  bool any = false;
  while (!arrivals_.empty()) {
    Arrival &a = arrivals_.front();
    int done = 0;
    MPI_Test(&a.request, &done, MPI_STATUS_IGNORE);
    if (!done) break;
    any = true;
    if (a.last && a.write) {
      // The write's time counts its bytes' trip (finish_enqueue).
      a.write->before_ns = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - a.posted).count());
    }
    if (a.whole && staged_bytes_.changes(a.whole) == a.changes) staged_bytes_.keep(a.whole, a.bytes);
    if (a.gate) vendor_set_user_event_status(a.gate.get(), CL_COMPLETE);
    arrivals_.pop_front();
  }
  return any;
}

}  // namespace unicl::cluster
