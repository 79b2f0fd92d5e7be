// What the node client's commands share (enqueue.cpp, launch.cpp,
// maps.cpp): each is checked on rank 0 (what the specification makes
// the call check, from what rank 0 knows) and posted to the node under an
// event rank 0 named, or none when nobody can name it; nothing waits for the
// node. Its end comes later in a report (events.cpp), failed if the
// node's vendor could not run it. Written bytes travel with the request
// (inline when small), or after it; read bytes with the end.
#pragma once
#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cluster/client/checks.hpp"
#include "cluster/client/refusal.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/protocol/steady_clock.hpp"

namespace unicl::cluster {


// A write's bytes in rank 0's memory, read when they are sent: from where
// they are (`direct`, held there by `keep`), or packed into `size` bytes by
// `pack` (the rows of a rectangle, an image's pixels).
struct HostBytes {
  size_t size = 0;
  const void *direct = nullptr;
  std::function<void(char *)> pack;
  std::shared_ptr<const void> keep;
};

// What a command moves between rank 0's memory and the node: a read's
// bytes go to `read_into` (read_size of them) or through `deliver`; a
// write's are `write` (size 0: none).
struct Transfer {
  void *read_into = nullptr;
  size_t read_size = 0;
  std::function<void(const char *, size_t)> deliver;
  HostBytes write;
};

// Appends `b`'s payload, as the bytes are now, to `w`; what follows the
// batch (when not inline) in `after`.
void put_bytes(Writer &w, const HostBytes &b, BulkBytes &after);

// What a write on `q` after `wait` must see end at rank 0 before its bytes
// are read there, as a vendor reads a write's memory only when the write
// runs: the reads and maps of an in-order queue still in flight (they fill
// rank 0's memory when they end) and, in the wait list, those and user
// events not set yet (the application may fill the memory first). Each
// retained.
std::vector<RemoteEvent *> bytes_follow(RemoteQueue *q, cl_uint n, const cl_event *wait);

// Opened when a write's bytes have left rank 0's memory (the last part of
// them sent), or when the write ended (a lost node's never finish).
class BytesSent {
 public:
  void open();
  void wait();

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

// A gate `after`'s bytes open once sent (they hold it as they hold their
// memory); null when no bytes follow the request (inline ones left with it).
std::shared_ptr<BytesSent> open_when_sent(BulkBytes &after);

// A command nobody can name (no event handed out, no wait, nothing to bring
// back) is not followed one by one: the node reports nothing of it, and a
// wait on its queue covers it with a marker (clFinish). A stream of launches
// then costs neither side an event each. Posts it so unless the queue was
// waited for since its last command (the call's result); nullopt: not posted.
std::optional<cl_int> post_untracked(RemoteQueue *q, Op op, CommandHeader &header, const Writer &args);

// A blocking write's wait for its bytes to leave (`sent`: null when they
// left with the request), and any command's for its end; the call's result.
cl_int wait_until_sent(RemoteEvent *e, const std::shared_ptr<BytesSent> &sent);
cl_int wait_until_ended(RemoteEvent *e);

// Sends the bytes of write `id` on node `rank` (kWriteBytes) once every
// event of `blockers` (retained; released here) has ended, or its failure
// if one failed. The ends are asked for now.
void send_bytes_later(int rank, uint64_t id, HostBytes bytes, std::vector<RemoteEvent *> blockers);

// Checks the queue and wait list, then `body` (the command's own arguments
// and checks), and posts the command with its header; a write's bytes last
// (its payload), or, when they may not be ready yet, later. `blocking`:
// returns once the command ended, or, a write whose bytes go with it and
// that neither waits for events nor hands one out, once they are sent: the
// spec promises a blocking write only that `ptr` may be reused, so the
// application's next command travels while the write runs on the node
// instead of one report and one request later. (With an event, the
// application may ask its status or times at once, and vendors have it
// complete then: the call waits for the end.)
template <class Body>
cl_int enqueue(RemoteQueue *q, Op op, cl_command_type type, cl_uint num_wait, const cl_event *wait,
               cl_event *event, bool blocking, Body &&body, Transfer &&transfer = {}) {
  if (!live(q, ObjectKind::kQueue))
    return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  if ((num_wait && !wait) || (!num_wait && wait))
    return cluster::refuse(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list and event_wait_list disagree (0 or NULL)");
  CommandHeader header;
  header.queue = q->id;
  for (cl_uint i = 0; i < num_wait; ++i) {
    const RemoteEvent *waited = remote(wait[i]);
    // Of any of the client's contexts on the queue's node: libunicl lists
    // one device's commands in another's of the same node
    // (_cl_context::events_reach), and the node stands one of the queue's
    // context in for it (node/commands.cpp).
    if (!live(waited, ObjectKind::kEvent) || waited->rank != q->rank)
      return cluster::refuse(CL_INVALID_EVENT_WAIT_LIST, "an event of the wait list is not a live event of command_queue's node");
    header.wait.push_back(waited->id);
  }
  Writer args;
  if (cl_int err = body(args); err != CL_SUCCESS) return err;
  if (node_lost(q->rank)) return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the queue's node was lost");
  std::vector<RemoteEvent *> blockers;
  BulkBytes after;
  if (transfer.write.size) {
    blockers = bytes_follow(q, num_wait, wait);
    if (blockers.empty()) put_bytes(args, transfer.write, after);
    else args.put<uint64_t>(transfer.write.size).put(PayloadAt::kLater);
  }
  // A blocking call says its wait list's failure: with one, it waits for
  // the end to know it.
  const bool until_sent = blocking && !event && transfer.write.size && blockers.empty() && num_wait == 0;
  std::shared_ptr<BytesSent> sent = until_sent ? open_when_sent(after) : nullptr;
  // Nobody can name it: not followed (post_untracked).
  if (!event && !blocking && !transfer.read_into && !transfer.deliver && !transfer.write.size)
    if (std::optional<cl_int> posted = post_untracked(q, op, header, args)) return *posted;
  // Reported at once when someone will wait for its end.
  const Promptness promptness =
      until_sent ? Promptness::kHeld : (blocking || event) ? Promptness::kPrompt : Promptness::kAfterWait;
  RemoteEvent *e = new_command_event(q, type, promptness);
  e->read_into = transfer.read_into, e->read_size = transfer.read_size, e->deliver = std::move(transfer.deliver);
  if (transfer.write.size && blockers.empty()) e->posted_ns = steady_ns();
  header.event = e->id;
  header.flags = e->prompt ? kPrompt : 0;
  Writer w;
  write(w, header);
  w.raw(args.buffer().data(), args.size());
  if (!post(q->rank, op, w, after.data, after.size, std::move(after.keep))) {
    for (RemoteEvent *b : blockers) release(b);
    forget_command_event(e);
    return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the queue's node was lost");
  }
  if (!blockers.empty()) send_bytes_later(q->rank, e->id, std::move(transfer.write), std::move(blockers));
  const cl_event ended = handle(e);
  const cl_int status = until_sent ? wait_until_sent(e, sent) : blocking ? wait_until_ended(e) : CL_SUCCESS;
  if (event) *event = ended;
  else release(e);
  return status;
}

// A memory object of `q`'s node.
inline bool ours(RemoteMemory *m, RemoteQueue *q) {
  return live(m, ObjectKind::kMemory) && live(q, ObjectKind::kQueue) && m->rank == q->rank;
}
inline bool is_image(RemoteMemory *m, RemoteQueue *q) { return ours(m, q) && m->type != CL_MEM_OBJECT_BUFFER; }

// A memory object a command of `q` names: a buffer (or an image, `image`)
// of the queue's context.
cl_int object_error(RemoteMemory *m, RemoteQueue *q, bool image = false);

// ---- host memory laid out in rows (rectangles, images): it travels packed ----

struct HostLayout {
  size_t origin[3], row, slice;
};
// The host layout's pitches, defaulted as the spec says; false when they
// are below the region's.
bool host_layout(const size_t *origin, const size_t *region, size_t row, size_t slice, HostLayout &out);
// Calls fn(host offset, packed offset) for each row of the region.
template <class Fn>
void each_row(const HostLayout &h, const size_t *region, Fn &&fn) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      fn(h.origin[0] + (h.origin[1] + y) * h.row + (h.origin[2] + z) * h.slice, (z * region[1] + y) * region[0]);
}
// A region of `rows` (bytes per row, rows, slices) of the application's
// memory at `ptr`, laid out as `h`: packed one row after another (a write's
// pack), and unpacked from the bytes a read brought back (its delivery; a
// size that is not the region's is dropped).
inline std::function<void(char *)> packs_rows(const HostLayout &h, const std::array<size_t, 3> &rows,
                                              const void *ptr) {
  return [h, rows, ptr](char *packed) {
    each_row(h, rows.data(), [&](size_t host, size_t at) {
      std::memcpy(packed + at, static_cast<const char *>(ptr) + host, rows[0]);
    });
  };
}
inline std::function<void(const char *, size_t)> unpacks_rows(const HostLayout &h, const std::array<size_t, 3> &rows,
                                                              void *ptr) {
  return [h, rows, ptr](const char *packed, size_t size) {
    if (size != rows[0] * rows[1] * rows[2]) return;
    each_row(h, rows.data(), [&](size_t host, size_t at) {
      std::memcpy(static_cast<char *>(ptr) + host, packed + at, rows[0]);
    });
  };
}
inline bool valid_region(const size_t *origin, const size_t *region) {
  return origin && region && region[0] && region[1] && region[2];
}

}  // namespace unicl::cluster
