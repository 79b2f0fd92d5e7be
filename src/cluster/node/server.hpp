// unicl-node's side of the protocol (protocol/messages.hpp): it runs rank 0's
// requests on this node's vendors, in the order they come, and reports the
// ends of commands to rank 0 in batches. One thread (serve()) makes every
// MPI call; vendor callbacks only queue what is to be sent.
//
// The class is one, its concerns are in files of their own:
//   loop.cpp          the serving loop and transport: batches of requests,
//                     replies, bulk bytes, flushes
//   objects.cpp       creations, releases, queries (NamedObjects holds what
//                     rank 0 named)
//   programs.cpp      builds, compilations, links and what rank 0 keeps of
//                     their programs (ProgramFacts)
//   commands.cpp      commands: wait lists, kernel arguments, held writes
//   enqueues.cpp      each command's enqueue, one handler per message
//   arrivals.cpp      writes whose bytes arrive while the loop serves on
//   peer_copies.cpp   copies between nodes
//   reports.cpp       the ends of commands, and when they are reported
//   end_order.hpp     the order of the ends reported
//   mapped.cpp        large transfers through maps of the buffer
//   staged_bytes.hpp  the staged copies of read-only buffers
#pragma once
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backend/vendor.hpp"
#include "backend/vendor_commands.hpp"
#include "cluster/node/delayed_calls.hpp"
#include "cluster/node/end_order.hpp"
#include "cluster/node/queue_order.hpp"
#include "cluster/node/staged_bytes.hpp"
#include "cluster/node/objects.hpp"
#include "cluster/protocol/doorbell.hpp"
#include "cluster/protocol/messages.hpp"

namespace unicl::cluster {

// A vendor handle the node described itself with (a device), back from the
// wire.
template <class H>
H as(uint64_t v) {
  return reinterpret_cast<H>(v);
}

// The event of a command enqueued in parts (`parts`, the parts' events,
// released here): the one part's, or a marker after them all.
cl_int join_parts(cl_command_queue queue, std::vector<cl_event> &parts, cl_event *event);

class NodeServer {
 public:
  // Serves on `comm` as `rank`, describing itself with `self` and claiming
  // protocol version `protocol`; returns when rank 0 says goodbye.
  // Its doorbell (protocol/doorbell.hpp) rings from now on; `self` is
  // answered with where.
  NodeServer(MPI_Comm comm, int rank, NodeDescription self, uint32_t protocol);
  void serve();
  // For tests: raise `signal` (SIGKILL, SIGSTOP) on itself after handling
  // `requests` requests.
  void fail_after(size_t requests, int signal) { signal_after_ = requests, signal_ = signal; }
  // For tests: the end of each read whose bytes go back to rank 0 is
  // recorded `delay` after its vendor callback, on a thread of its own.
  void slow_read_ends(std::chrono::microseconds delay) { slow_read_ends_ = std::make_unique<DelayedCalls>(delay); }

 private:
  // ---- the serving loop and transport (loop.cpp) ----
  // One turn's sending: the parts of writes that arrived let go, copies'
  // parts and the ends due sent; true if any was. `wake`: when a held
  // report is due.
  bool send_due(std::chrono::steady_clock::time_point &wake);
  // A part of a copy from another node taken, if one came; a batch of
  // requests from rank 0 served and the queues that got commands flushed,
  // if one came.
  bool receive_peer_part();
  bool receive_batch(bool &serving);
  // Nothing came: a yield (`pause` zero) or a sleep of `pause`, not past
  // `wake`, that a vendor callback or the doorbell ends early. True when
  // rank 0 rang meanwhile (a request is on its way).
  bool pause(std::chrono::microseconds pause, std::chrono::steady_clock::time_point wake);
  // A message went to rank 0 (a reply, a report): rang for, if nothing
  // crossed between them for a while (its thread may sleep: doorbell.hpp).
  void sent_to_rank0();
  // Runs every request of a batch from `from`, in order, answering those
  // that carry a call number.
  void serve_batch(const std::vector<char> &message, int from, bool &serving);
  // One request: its status and result (the reply's payload, if wanted).
  cl_int handle(Op op, Reader &args, Writer &result, int from, bool &serving);
  // Bulk bytes a request announced (protocol/messages.hpp, payload): their size,
  // and the inline bytes (null: they follow as kDataTag parts).
  struct Payload {
    size_t size = 0;
    const char *inline_bytes = nullptr;
    bool later = false;  // PayloadAt::kLater: they come with a kWriteBytes
  };
  static Payload read_payload(Reader &args);
  // Takes `p`'s bytes into `into`, part by part (kChunk); adds how long
  // the parts took to arrive to `trip_ns`. Every part is taken off the
  // wire, whatever the caller does with it.
  void receive_payload(const Payload &p, char *into, uint64_t &trip_ns);
  // The same when nobody learns from the trip.
  void receive_payload(const Payload &p, char *into) {
    uint64_t trip_ns = 0;
    receive_payload(p, into, trip_ns);
  }
  // The vendor queues that got commands since the last flush, flushed once
  // a batch is done: rank 0 never asks (its clFlush sends nothing), and some
  // vendors (oclgrind) run commands only once flushed.
  std::unordered_set<cl_command_queue> to_flush_;
  void flush_queues();

  // ---- objects (objects.cpp) ----
  // The posted creations (their failure is kept: NamedObjects), one handler
  // per message; user events' statuses, kernels' arguments, image formats
  // (a query).
  cl_int create_context(Reader &args);
  cl_int create_queue(Reader &args);
  cl_int create_buffer(Reader &args);
  cl_int create_sub_buffer(Reader &args);
  cl_int create_image(Reader &args);
  cl_int create_sampler(Reader &args);
  cl_int create_program(Reader &args);
  cl_int create_kernel(Reader &args);
  cl_int create_user_event(Reader &args);
  cl_int set_user_event_status(Reader &args);
  cl_int set_kernel_args(Reader &args);
  cl_int image_formats(Reader &args, Writer &result);
  void release(ObjectKind kind, uint64_t id);
  cl_int info(Reader &args, Writer &result);
  NamedObjects objects_;

  // ---- programs (programs.cpp) ----
  // A build's or compilation's program, device and options (asking the
  // vendor for the kernels' argument information: with_arg_info).
  struct BuildTarget {
    cl_program program = nullptr;
    cl_device_id device = nullptr;
    std::string options;
  };
  BuildTarget build_target(uint64_t program, uint64_t device, const std::string &options, cl_int &err) const;
  cl_int build_program(Reader &args, Writer &result);
  cl_int compile_program(Reader &args, Writer &result);
  cl_int link_program(Reader &args, Writer &result);
  cl_int program_from_binary(Reader &args, Writer &result);
  // What rank 0 keeps of `program` as built for `device`; its kernels'
  // too, when it has an executable.
  ProgramFacts facts_of(cl_program program, cl_device_id device, bool with_kernels) const;

  // ---- commands (commands.cpp) ----
  void command(Op op, Reader &args);
  // The vendor events of a wait list's ids (an id not here ended well),
  // for a command on `queue`: an event of another of this node's contexts
  // gets a user event of the queue's standing in for it, kept in `held`;
  // `err`: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when one failed.
  std::vector<cl_event> wait_list(const std::vector<uint64_t> &ids, cl_command_queue queue,
                                  std::vector<VendorRef<cl_event>> &held, cl_int &err) const;
  // Sets the changed arguments rank 0 sent on `kernel`.
  cl_int set_args(cl_kernel kernel, const std::vector<std::pair<cl_uint, KernelArg>> &args);
  // A command that could not be enqueued: its end, failed with `err`.
  void report_failed_enqueue(const CommandHeader &h, cl_int err);
  // A write whose bytes come later (PayloadAt::kLater): `on`'s wait list and
  // a gate, opened once they are in `bytes` (kWriteBytes), in `list`.
  VendorEnqueue hold_for_bytes(const VendorEnqueue &on, uint64_t id, std::shared_ptr<std::vector<char>> bytes,
                               std::vector<cl_event> &list, cl_int &err);
  // The packed bytes of a rectangle or image write (`packed` of them, the
  // payload next in `args`) into `bytes`, taken off the wire or to come
  // (then `on` with the gate, in `list`); `err` set if they do not fit.
  VendorEnqueue packed_write(const VendorEnqueue &on, uint64_t id, Reader &args, size_t packed,
                             std::shared_ptr<std::vector<char>> &bytes, std::vector<cl_event> &list, cl_int &err);
  // kWriteBytes: the bytes of write `id` into its staging, and its gate
  // opened (or failed with `status`).
  void write_bytes(Reader &args);
  struct HeldWrite {
    VendorRef<cl_event> gate;
    std::shared_ptr<std::vector<char>> bytes;
    // A write of all of a buffer: its bytes, once here, become the buffer's
    // staged copy, if nothing changed the buffer meanwhile (staged_bytes.hpp).
    cl_mem whole = nullptr;
    uint64_t changes = 0;
  };
  std::unordered_map<uint64_t, HeldWrite> held_writes_;

  // ---- a write's bytes arriving while the loop serves on (arrivals.cpp) ----
  // kWriteBuffer's bytes that follow the request (PayloadAt::kAfter) are
  // not waited for: each part gets its receive (MPI_Irecv) and its vendor
  // write, held by a gate that the serving loop opens once the part is in
  // (take_arrivals). Meanwhile the loop takes the next requests and sends
  // the ends of commands: a 16 MiB write takes milliseconds to arrive, and
  // the node's other devices would wait for their next commands that long.
  struct Awaited;
  struct Arrival {
    MPI_Request request = MPI_REQUEST_NULL;
    VendorRef<cl_event> gate;  // null: the write was refused, the part is dropped
    uint64_t write_id = 0;     // the write's event id
    bool last = false;         // its last part
    std::shared_ptr<std::vector<char>> bytes;  // where the parts go, kept until they are in
    std::chrono::steady_clock::time_point posted;  // when its first part's receive was posted
    // All of a read-only buffer: kept as its staged copy once in, if nothing
    // changed the buffer meanwhile (staged_bytes.hpp).
    cl_mem whole = nullptr;
    uint64_t changes = 0;
    std::shared_ptr<Awaited> write;  // the write's record (finish_enqueue): its bytes' trip
  };
  std::deque<Arrival> arrivals_;  // in the order they were posted, which is the order they arrive
  // Enqueues the write of `size` bytes at `offset` of `buffer` from `bytes`
  // part by part, each after its part arrives; the command's event in
  // *on.event. `refuse`: receive the parts only, then fail with it.
  cl_int write_arriving(const VendorEnqueue &on, cl_mem buffer, size_t offset, size_t size,
                        std::shared_ptr<std::vector<char>> bytes, cl_int refuse, uint64_t id);
  // Opens the gates of the parts that arrived; true if any did.
  bool take_arrivals();
  // The write `id`'s record, for its trip (after report_when_done).
  void arriving_for(uint64_t id, const std::shared_ptr<Awaited> &write);

  // Large transfers on a device that shares this machine's memory (CL_DEVICE_
  // HOST_UNIFIED_MEMORY) map the buffer and move the bytes straight between
  // MPI and the device's memory, with no staging copy (mapped.cpp).
  // A mapped region of a buffer, unmapped (on the queue it was mapped on)
  // when the last holder lets go: a read's report, once its bytes are sent.
  struct Mapping {
    VendorRef<cl_command_queue> queue;
    VendorRef<cl_mem> buffer;
    char *data = nullptr;
    size_t size = 0;
    Mapping(cl_command_queue q, cl_mem b, void *p, size_t n);
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    ~Mapping();
  };
  // Whether a transfer of `size` bytes on `queue` goes through a map: the
  // queue's device shares this memory and the transfer is large.
  bool maps(cl_command_queue queue, size_t size) const;
  // Whether a write of `size` bytes on `queue` (rank 0's `queue_id`) after
  // `wait` can map its buffer at once: the device shares this memory, the
  // transfer is large, and nothing it must follow is left to run, nor any
  // command of the device: a blocking map may wait for those (an
  // out-of-order queue's, the simulator's copy engine's of every queue),
  // and held this loop and every device of the node for tens of
  // milliseconds behind commands queued ahead (bench-cluster-scaling's
  // Cholesky: 20-54 ms).
  bool maps_at_once(cl_command_queue queue, uint64_t queue_id, const std::vector<cl_event> &wait, size_t size) const;
  // No command of the device of rank 0's queue `queue_id` is left to end.
  bool device_drained(uint64_t queue_id) const;
  // A buffer's region mapped for a write at once (maps_at_once held): null
  // when the vendor refuses.
  void *map_for_write(cl_command_queue queue, cl_mem buffer, size_t offset, size_t size);
  // kWriteBuffer through a map (its bytes taken off the wire into it): the
  // command's status, or none (nothing done) when the vendor refuses the
  // map, for the staging path to give the error.
  std::optional<cl_int> write_mapped(cl_command_queue queue, cl_mem buffer, size_t offset, const Payload &p,
                                     cl_event *event, uint64_t &trip_ns);
  // kReadBuffer through a map (after `on`'s wait list, its event the
  // map's): the mapping whose bytes the read's report sends, or null when
  // the device does not share this memory, the read is small or the vendor
  // refuses (the staging path then).
  std::shared_ptr<Mapping> read_mapped(const VendorEnqueue &on, cl_mem buffer, size_t offset, size_t size);
  // A command enqueued on `queue` (maps_at_once reads the last one; none
  // when rank 0 did not follow it: the queue is then taken as busy).
  void enqueued(cl_command_queue queue, cl_event event) {
    if (event) last_on_queue_[queue] = VendorRef<cl_event>::share(event);
    else last_on_queue_.erase(queue), untracked_on_.insert(queue);
    if (event) untracked_on_.erase(queue);
    to_flush_.insert(queue);
  }
  std::unordered_set<cl_command_queue> untracked_on_;  // queues whose last command has no event
  std::unordered_set<cl_command_queue> unified_;  // the queues whose device shares this memory
  std::unordered_map<uint64_t, cl_device_id> queue_devices_;  // rank 0's queue ids: the queue's device
  std::unordered_map<cl_command_queue, VendorRef<cl_event>> last_on_queue_;
  std::unordered_map<cl_command_queue, QueueOrder> queue_order_;  // what each queue's commands follow

  // ---- copies between nodes (peer_copies.cpp) ----
  // `err`: what failed already (the queue, an event waited for): the copy
  // is refused, its parts dropped when they come.
  cl_int peer_receive(const CommandHeader &h, cl_command_queue queue, const std::vector<cl_event> &wait, cl_int err,
                      Reader &args);
  void refuse_copy(uint64_t id, size_t size);
  // `err`: what failed already (the queue, an event waited for): every
  // part of the copy goes to the receiver failed with it.
  void peer_send(cl_command_queue queue, const std::vector<cl_event> &wait, uint64_t id, cl_int err, Reader &args);
  // A copy's receiving side (peer_receive): a gate per part holding its
  // write from `entry.into`, or holding the unmap of `mapped` (the copy's
  // event in *on.event); then the copy awaited (its record, the parts that
  // came before it).
  struct PeerGate;
  cl_int gate_parts(const VendorEnqueue &on, cl_mem buffer, size_t offset, void *mapped, PeerGate &entry);
  void await_parts(const CommandHeader &h, cl_command_queue queue, cl_event event, PeerGate entry);
  // A copy's sending side (peer_send): copy `id`'s bytes [offset, offset +
  // size) of this node's buffer, going to `peer_id` on `peer_rank` (this
  // node, or another), part by part. Each part is followed here under its
  // own key: rank 0's id with the part's number above the bits rank 0's
  // ids use.
  struct OutgoingCopy {
    uint64_t id = 0;
    size_t offset = 0, size = 0;
    int peer_rank = 0;
    uint64_t peer_id = 0;
    uint64_t part_key(size_t at) const { return id | (uint64_t{at / kChunk + 1} << 48); }
  };
  // Parts from `first_failed` on go as failures: their bytes will not come.
  void fail_parts(const OutgoingCopy &c, size_t first_failed, cl_int status);
  // Every part goes once `ready` ends, from `bytes` (at `from`) or `mapping`.
  void send_parts_when(const OutgoingCopy &c, const VendorRef<cl_event> &ready, StagedBytes::Bytes bytes, size_t from,
                       const std::shared_ptr<Mapping> &mapping);
  // Through one map of a device that shares this memory; false when the
  // buffer is not mapped (mapped.cpp).
  bool send_mapped(const OutgoingCopy &c, const VendorEnqueue &after, cl_mem buffer);
  // A read per part into `bytes`, each part going as soon as it is read.
  void read_parts(const OutgoingCopy &c, const VendorEnqueue &after, cl_mem buffer,
                  std::shared_ptr<std::vector<char>> bytes);
  // A user event of `queue`'s context that completes once every event of
  // `wait` has (or fails once one fails): what a copy from a staged copy waits
  // for. Not a marker: a device may run markers in turn with its kernels (the
  // simulator's does), holding the copy until kernels it does not need end.
  VendorRef<cl_event> after_all(cl_command_queue queue, const std::vector<cl_event> &wait, cl_int &err);
  // The header (and bytes) of a part of a copy arrived from another node;
  // the outgoing ones that completed are let go.
  void receive_peer_bytes(const MPI_Status &status);
  void finish_peer_sends();
  // A part for the copy of receiver's event `id` (from this node or
  // another): into its write and the write let go on, or kept until the
  // copy's kPeerReceive comes (rank 0's request to this node may come after
  // the sender's bytes). `travel_ns`: its bytes' trip, which ended at
  // `arrived_ns` (this node's steady clock).
  void arrived_part(PeerHeader h, const char *bytes, uint64_t travel_ns, uint64_t arrived_ns);
  // Lets part `part` of the write of copy `id` go on (CL_COMPLETE) or fail
  // (status < 0); every part still closed when `part` is npos.
  void open_gate(uint64_t id, size_t part, cl_int status);
  // Sends the parts of copies that vendor callbacks finished reading (to
  // other nodes, or into a write of this node).
  bool send_peer_parts();

  // Copies from other nodes awaiting their bytes, by the write's event id:
  // the user events holding the write, where the bytes go and the write's
  // record.
  struct PeerGate {
    std::vector<VendorRef<cl_event>> gates;  // one per part; empty once opened
    size_t closed = 0;
    // Where the bytes go: `staging` (written to the device part by part),
    // or the buffer itself, mapped (its unmap, after every gate, the write).
    char *into = nullptr;
    size_t size = 0;
    std::shared_ptr<std::vector<char>> staging;
    // A source on this node with a staged copy (staged_bytes.hpp): the parts
    // are written from it, at `source_from` on, and the sending side only
    // opens the gates once its wait list allows.
    StagedBytes::Bytes source;
    size_t source_from = 0;
    std::shared_ptr<Awaited> write;
  };
  std::unordered_map<uint64_t, PeerGate> peer_gates_;
  // Parts that came before their copy's kPeerReceive, by its id; and the
  // ids of copies whose receiving write could not be enqueued, whose parts
  // are dropped (with how many are still to come).
  struct EarlyPart {
    PeerHeader header;
    std::shared_ptr<std::vector<char>> bytes;  // staging memory (none for a part of no bytes)
    uint64_t travel_ns, arrived_ns;
  };
  std::unordered_map<uint64_t, std::vector<EarlyPart>> early_parts_;
  std::unordered_map<uint64_t, size_t> refused_copies_;
  StagedBytes staged_bytes_;  // serve thread only
  // What a copy from `buffer`'s [offset, offset + size) may take its bytes
  // from instead of reading the device: its staged copy, or the bytes of a
  // write of all of it from rank 0 still arriving, which become that copy
  // once in (a copy relayed from a device still receiving them waits for
  // that write's end: the bytes are in by then). Null: read the device.
  StagedBytes::Bytes copy_source(cl_mem buffer, size_t offset, size_t size) const;
  // Copies to other nodes on their way: sent without blocking, since the
  // receiver may be sending to this node at the same time.
  struct PeerSend {
    MPI_Request requests[2];
    int count;
    std::vector<char> header;
    std::shared_ptr<std::vector<char>> bytes;
    uint64_t read_id;
    std::shared_ptr<Mapping> mapped;  // the bytes, when `bytes` is null: unmapped once every part is sent
  };
  std::deque<PeerSend> peer_sends_;

  // ---- the ends of commands (reports.cpp) ----
  // Where a part of a read goes instead of rank 0 (kPeerSend): the node and
  // its copy's event, and which part.
  struct PeerPart {
    int rank = -1;
    uint64_t id = 0;
    size_t offset = 0, size = 0;  // the part of the copy
    size_t from = 0;              // where the copy's first byte is in `read` (a staged copy: the source offset)
  };
  // An event whose end is not reported yet.
  struct Awaited {
    cl_event event;
    uint64_t queue = 0;  // rank 0's id of its queue (kReportNow)
    std::shared_ptr<std::vector<char>> read, keep_alive;
    std::shared_ptr<Mapping> mapped;  // a read's bytes in the device's memory, in place of `read`
    std::atomic<bool> reported{false}, prompt{false};
    PeerPart to;
    // A write of bytes from rank 0: their trip, counted into the reported
    // duration.
    std::atomic<uint64_t> before_ns{0};
    // A copy from another node or device (kPeerReceive): when its first
    // part's read began there, on this node's steady clock (0: unknown).
    std::atomic<uint64_t> began_ns{0};
  };
  struct Watch {
    uint64_t queue = 0;
    bool prompt = false;
    std::shared_ptr<std::vector<char>> read, keep_alive;
    PeerPart to;
    uint64_t before_ns = 0;
    std::shared_ptr<Mapping> mapped;
    std::vector<uint64_t> follows;  // its end is reported after theirs (predecessors)
  };
  // Reports `id`'s end once `event` completes (to rank 0, or as a part of a
  // copy to `w.to`). Returns its record.
  std::shared_ptr<Awaited> report_when_done(uint64_t id, cl_event event, Watch w);
  void report(uint64_t id, Awaited &a, cl_int status);
  // The commands whose ends rank 0 must learn before that of command `h` on
  // `queue` (end_order.hpp): those of its wait list and those it follows on
  // its queue (queue_order.hpp; `all_before`, `barrier`: as there). Called
  // for every named command, and for an unnamed barrier.
  std::vector<uint64_t> predecessors(const CommandHeader &h, cl_command_queue queue, bool all_before = false,
                                     bool barrier = false);
  // Rank 0 waits for the ends of `queue`'s commands (0: every queue's).
  void report_now(uint64_t queue);
  // Sends the ends gathered so far to rank 0 in one report, when one of them
  // is awaited (prompt), rank 0 asked, or the oldest has waited kHold;
  // true if it sent one. `wake`: when the next one is due otherwise.
  bool send_reports(std::chrono::steady_clock::time_point &wake);
  // The same between two parts of bytes being received (receive_payload):
  // a large transfer (16 MiB: milliseconds) would otherwise hold the ends
  // of every command of the node that long, and rank 0 places the next
  // commands on what they tell. The events of every report are let go by
  // the serving loop once its turn has sent (forget_reported): one sent
  // meanwhile may be in the wait list of the request being served.
  void send_reports_meanwhile();
  void forget_reported();
  std::vector<EventEnded> reported_;  // sent, not yet forgotten
  // How long an end nobody awaits may wait for others to share its report.
  static constexpr std::chrono::microseconds kHold{1000};
  // Vendors may never call back for a command that failed because its wait
  // list did (PoCL 3.1): the awaited events' statuses are also read now and
  // then.
  void check_failed();
  std::chrono::steady_clock::time_point last_check_{};

  // ---- each command's enqueue, one handler per message (enqueues.cpp) ----
  // A command being enqueued: its queue, the vendor call's wait list and
  // event (`on`; no event when rank 0 does not follow it), what its report
  // keeps, and the first failure (a command whose bytes follow still takes
  // them off the wire).
  struct Enqueue {
    const CommandHeader &header;
    cl_command_queue queue = nullptr;
    std::vector<cl_event> wait;
    std::vector<VendorRef<cl_event>> stand_ins;  // wait_list's, alive until the command is enqueued
    cl_event event = nullptr;
    VendorEnqueue on{};
    Watch watch;
    cl_int err = CL_SUCCESS;
    bool all_before = false, barrier = false;  // a marker or barrier (predecessors)
  };
  // The memory object `id` names (null, with c.err set, when none).
  cl_mem memory_of(Enqueue &c, uint64_t id);
  void enqueue_write_buffer(Enqueue &c, Reader &args);
  void enqueue_read_buffer(Enqueue &c, Reader &args);
  void enqueue_copy_buffer(Enqueue &c, Reader &args);
  void enqueue_fill_buffer(Enqueue &c, Reader &args);
  void enqueue_ndrange(Enqueue &c, Reader &args);
  void enqueue_write_buffer_rect(Enqueue &c, Reader &args);
  void enqueue_read_buffer_rect(Enqueue &c, Reader &args);
  void enqueue_copy_buffer_rect(Enqueue &c, Reader &args);
  void enqueue_write_image(Enqueue &c, Reader &args);
  void enqueue_read_image(Enqueue &c, Reader &args);
  void enqueue_copy_image(Enqueue &c, Reader &args);
  void enqueue_fill_image(Enqueue &c, Reader &args);
  void enqueue_copy_image_to_buffer(Enqueue &c, Reader &args);
  void enqueue_copy_buffer_to_image(Enqueue &c, Reader &args);
  // After the handler: the event kept and watched, or the failure reported.
  void finish_enqueue(Enqueue &c);

  // Staging memory for transfers, reused: a fresh buffer costs its zeroing
  // and a page fault per page, as much as the copy itself at large sizes.
  std::shared_ptr<std::vector<char>> staging(size_t size);
  struct StagingPool {
    std::mutex mutex;
    std::vector<std::unique_ptr<std::vector<char>>> free;
    size_t bytes = 0;  // in `free`
  };
  std::shared_ptr<StagingPool> pool_ = std::make_shared<StagingPool>();

  MPI_Comm comm_;
  int rank_;
  NodeDescription self_;
  uint32_t protocol_;
  size_t signal_after_ = 0, handled_ = 0;
  int signal_ = 0;

  // Filled by vendor callbacks, sent by serve().
  mutable std::mutex reports_mutex_;
  std::condition_variable reports_changed_;  // something to send: wakes serve()
  struct Report {
    EventEnded ended;
    bool prompt = false;
    std::chrono::steady_clock::time_point at;
    std::shared_ptr<std::vector<char>> bytes;  // a read's (or its mapping's, below)
    std::shared_ptr<Mapping> mapped;           // unmapped once sent, on the serving thread
  };
  std::deque<Report> ends_;            // for rank 0
  bool report_asked_ = false;          // kReportNow came: send what there is
  bool rung_ = false;                  // rank 0 rang since the loop last looked
  EndOrder end_order_;                 // which ends may go to rank 0 now
  std::unordered_map<uint64_t, Report> held_ends_;  // recorded before a predecessor's (end_order_)
  // Under reports_mutex_: queues for rank 0 the ends of `ids` (their
  // reports, held_ends_'s) and lets go of their records.
  void queue_ends(const std::vector<uint64_t> &ids);
  struct PeerReport {
    PeerHeader header;
    std::shared_ptr<std::vector<char>> bytes;
    size_t bytes_offset = 0;
    int peer_rank = -1;        // the receiving node (this one: a copy within it)
    uint64_t read_id = 0;      // the read (kPeerSend) whose record it ends
    std::shared_ptr<Mapping> mapped;
  };
  std::deque<PeerReport> peer_parts_;
  std::unordered_map<uint64_t, std::shared_ptr<Awaited>> awaited_;  // reports_mutex_
  // slow_read_ends (tests). Last: gone before what its calls touch.
  std::unique_ptr<DelayedCalls> slow_read_ends_;
  // Rank 0's doorbell, and when a message last crossed between it and this
  // node (the serving thread's).
  Doorbell rank0_bell_;
  Contact rank0_contact_;
  // Its thread sets rung_: gone before reports_mutex_.
  std::unique_ptr<DoorbellListener> doorbell_;
};

}  // namespace unicl::cluster
