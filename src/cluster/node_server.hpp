// unicl-node's side of the protocol: it runs rank 0's requests on this
// node's vendors, in the order they come, and reports each event's end to
// rank 0 as it happens (protocol.hpp). One thread makes every MPI call:
// vendor callbacks only queue what is to be sent.
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
#include "cluster/host_copies.hpp"
#include "cluster/protocol.hpp"

namespace unicl::cluster {

class NodeServer {
 public:
  // Serves on `comm` as `rank`, describing itself with `self` and claiming
  // protocol version `protocol`; returns when rank 0 says goodbye.
  NodeServer(MPI_Comm comm, int rank, NodeDescription self, uint32_t protocol)
      : comm_(comm), rank_(rank), self_(std::move(self)), protocol_(protocol) {}
  void serve();
  // For tests: raise `signal` (SIGKILL, SIGSTOP) on itself after handling
  // `requests` requests (before replying to the last).
  void fail_after(size_t requests, int signal) { signal_after_ = requests, signal_ = signal; }

 private:
  // One request: its status and result (the reply's payload).
  cl_int handle(Op op, Reader &args, Writer &result, int from, bool &serving);
  cl_int enqueue(Op op, Reader &args);
  // kWriteBuffer's bytes, received in parts into `bytes` and written to
  // `buffer` at `offset` part by part; the command's event in *on.event.
  // `refuse`: take the bytes off the wire, then fail.
  // `trip_ns`: how long the parts took to arrive, in all.
  cl_int write_in_parts(const VendorEnqueue &on, cl_mem buffer, size_t offset, std::vector<char> &bytes, bool refuse,
                        uint64_t &trip_ns);
  // Receives the `size` bytes that follow a kWriteBuffer request from rank 0
  // into `into`, part by part (kChunk), calling after_part(offset, size)
  // once each part is there; adds the time the parts took to arrive to
  // `trip_ns`.
  void receive_write_parts(char *into, size_t size, uint64_t &trip_ns,
                           const std::function<void(size_t, size_t)> &after_part = {});
  cl_int info(Reader &args, Writer &result);

  // Large transfers on a device that shares this machine's memory (CL_DEVICE_
  // HOST_UNIFIED_MEMORY) map the buffer and move the bytes straight between
  // MPI and the device's memory, with no staging copy (node_mapped.cpp).
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
  // Whether a write of `size` bytes on `queue` after `wait` can map its
  // buffer at once: the device shares this memory, the transfer is large,
  // and nothing it must follow is left to run.
  bool maps_at_once(cl_command_queue queue, const std::vector<cl_event> &wait, size_t size) const;
  // A buffer's region mapped for a write at once (maps_at_once held): null
  // when the vendor refuses.
  void *map_for_write(cl_command_queue queue, cl_mem buffer, size_t offset, size_t size);
  // kWriteBuffer through a map (its bytes taken off the wire into it): the
  // command's status, or none (nothing done) when the vendor refuses the
  // map, for the staging path to give the error.
  std::optional<cl_int> write_mapped(cl_command_queue queue, cl_mem buffer, size_t offset, size_t size, cl_event *event,
                                     uint64_t &trip_ns);
  // kReadBuffer through a map (after `on`'s wait list, its event the
  // map's): the mapping whose bytes the read's report sends, or null when
  // the device does not share this memory, the read is small or the vendor
  // refuses (the staging path then).
  std::shared_ptr<Mapping> read_mapped(const VendorEnqueue &on, cl_mem buffer, size_t offset, size_t size);
  // A command enqueued on `queue` (maps_at_once reads the last one).
  void enqueued(cl_command_queue queue, cl_event event) { last_on_queue_[queue] = VendorRef<cl_event>::share(event); }
  std::unordered_set<cl_command_queue> unified_;  // the queues whose device shares this memory
  std::unordered_map<cl_command_queue, VendorRef<cl_event>> last_on_queue_;
  // kPeerReceive and kPeerSend, in parts of kChunk bytes (protocol.hpp).
  cl_int peer_receive(cl_command_queue queue, const std::vector<cl_event> &wait, uint64_t id, Reader &args);
  cl_int peer_send(cl_command_queue queue, const std::vector<cl_event> &wait, uint64_t id, Reader &args);
  // A user event of `queue`'s context that completes once every event of
  // `wait` has (or fails once one fails): what a copy from a host copy waits
  // for. Not a marker: a device may run markers in turn with its kernels (the
  // simulator's does), holding the copy until kernels it does not need end.
  VendorRef<cl_event> after_all(cl_command_queue queue, const std::vector<cl_event> &wait, cl_int &err);
  // Reports `id`'s end to rank 0 once `event` completes; `read` (if any)
  // holds the bytes a read brought, sent with it.
  // `to` (kPeerSend): the node a part of the read's bytes goes to instead,
  // for its event `to.id`. Returns the event's record.
  struct PeerPart {
    int rank = -1;
    uint64_t id = 0;
    size_t offset = 0, size = 0;  // the part of the copy
    size_t from = 0;              // where the copy's first byte is in `read` (a host copy: the source offset)
  };
  struct Awaited;
  std::shared_ptr<Awaited> report_when_done(uint64_t id, cl_event event, std::shared_ptr<std::vector<char>> read,
                                            std::shared_ptr<std::vector<char>> keep_alive, PeerPart to,
                                            uint64_t before_ns = 0, std::shared_ptr<Mapping> mapped = nullptr);
  // Sends what vendor callbacks queued; true if there was anything.
  bool send_reports();
  // An event whose end is not reported yet.
  struct Awaited {
    cl_event event;
    std::shared_ptr<std::vector<char>> read, keep_alive;
    std::shared_ptr<Mapping> mapped;  // a read's bytes in the device's memory, in place of `read`
    std::atomic<bool> reported{false};
    // A part of a read for another node (kPeerSend): its bytes go there,
    // not to rank 0.
    PeerPart to;
    // A write of bytes from another node (kPeerReceive: the read there and
    // the bytes' trip) or from rank 0 (their trip): counted
    // into the reported duration.
    std::atomic<uint64_t> before_ns{0};
  };
  void report(uint64_t id, Awaited &a, cl_int status);
  // Vendors may never call back for a command that failed because its wait
  // list did (PoCL 3.1): the awaited events' statuses are also read now and
  // then.
  void check_failed();
  // Copies between nodes: the header (and bytes) of one arrived from
  // another node; the outgoing ones that completed are let go.
  void receive_peer_bytes(const MPI_Status &status);
  void finish_peer_sends();
  // Lets part `part` of the write of copy `id` go on (CL_COMPLETE) or fail
  // (status < 0); every part still closed when `part` is npos.
  void open_gate(uint64_t id, size_t part, cl_int status);

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
  std::chrono::steady_clock::time_point last_check_{};
  size_t signal_after_ = 0, handled_ = 0;
  int signal_ = 0;

  // The objects rank 0 holds references to, by handle (or, for events, by
  // rank 0's id).
  std::unordered_map<uint64_t, VendorRef<cl_context>> contexts_;
  std::unordered_map<uint64_t, VendorRef<cl_command_queue>> queues_;
  std::unordered_map<uint64_t, VendorRef<cl_mem>> memory_;
  std::unordered_map<uint64_t, VendorRef<cl_program>> programs_;
  std::unordered_map<uint64_t, VendorRef<cl_kernel>> kernels_;
  std::unordered_map<uint64_t, VendorRef<cl_event>> events_;
  std::unordered_map<uint64_t, VendorRef<cl_sampler>> samplers_;

  // Filled by vendor callbacks, sent by serve().
  std::mutex reports_mutex_;
  std::condition_variable reports_changed_;  // reports_ grew: wakes serve()
  struct Report {
    std::vector<char> message;
    std::shared_ptr<std::vector<char>> bytes;  // a read's, sent after it (kDataTag)
    size_t bytes_offset = 0, bytes_size = 0;    // peer reports: the part of `bytes` sent
    int peer_rank = -1;                         // a PeerHeader for that node (and its bytes), not rank 0's
    uint64_t read_id = 0;                       // the read (kPeerSend) whose event it ends
    std::shared_ptr<Mapping> mapped;            // a read's bytes mapped, sent after it (kDataTag); unmapped
                                                // once sent, on the serving thread
  };
  std::deque<Report> reports_;
  std::unordered_map<uint64_t, std::shared_ptr<Awaited>> awaited_;  // reports_mutex_

  // Serve thread only. Copies from other nodes awaiting their bytes, by the
  // write's event id: the user event holding the write, where the bytes go
  // and the write's record.
  struct PeerGate {
    std::vector<VendorRef<cl_event>> gates;  // one per part; empty once opened
    size_t closed = 0;
    // Where the bytes go: `staging` (written to the device part by part),
    // or the buffer itself, mapped (its unmap, after every gate, the write).
    char *into = nullptr;
    size_t size = 0;
    std::shared_ptr<std::vector<char>> staging;
    // A source on this node with a host copy (host_copies.hpp): the parts
    // are written from it, at `source_from` on, and the sending side only
    // opens the gates once its wait list allows.
    HostCopies::Bytes source;
    size_t source_from = 0;
    std::shared_ptr<Awaited> write;
  };
  std::unordered_map<uint64_t, PeerGate> peer_gates_;
  HostCopies host_copies_;  // serve thread only
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
};

}  // namespace unicl::cluster
