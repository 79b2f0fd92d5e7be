// What rank 0 (the application's UniCL) and a node (unicl-node) say to each
// other. Every request is one MPI message on UniCL's own communicator with
// tag kRequestTag: a header (call number, operation) and the operation's
// arguments; the node answers with one message of tag kReplyTag: the call
// number, a status (an OpenCL error code or CL_SUCCESS) and the results.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "backend/cl_headers.hpp"
#include "cluster/wire.hpp"

namespace unicl::cluster {

// Both ends check this at start-up: a node of another UniCL protocol (or of
// the other byte order, which reads the magic reversed) is refused.
constexpr uint32_t kMagic = 0x554e434c;  // "UNCL"
constexpr uint32_t kProtocolVersion = 7;

constexpr int kRequestTag = 7101;
constexpr int kReplyTag = 7102;
// Node to rank 0, unasked: an event of the node ended (EventEnded below).
constexpr int kEventTag = 7103;
// Bulk bytes travel as a message of their own, right after the request or
// event message they belong to, straight from and into the memory that
// holds them: a write's bytes after its request, a read's after its event.
constexpr int kDataTag = 7105;
// Bulk bytes go in messages of at most this many, in order: the node writes
// each part of a write into the device while the next one travels.
constexpr size_t kChunk = size_t{4} << 20;
// Calls fn(offset, size) for each part of `total` bytes, in order.
template <class Fn>
void for_each_part(size_t total, Fn &&fn) {
  for (size_t at = 0; at < total; at += kChunk) fn(at, total - at < kChunk ? total - at : kChunk);
}
// Node to node: a PeerHeader (kPeerTag), then, when it says so, the bytes
// (kPeerDataTag) of a copy between two nodes (kPeerSend, kPeerReceive).
constexpr int kPeerTag = 7106;
constexpr int kPeerDataTag = 7107;

// Handles are the node's own (its vendors' objects, as 64-bit values), but
// events are named by rank 0 (an id it chose before asking), so that an
// enqueue's event exists on rank 0 before the node can report its end.
enum class Op : uint32_t {
  kHello = 1,  // args: magic, version. Result: magic, version, NodeDescription
  kBye = 2,    // no args, no result; the node finalizes MPI and exits

  // Objects. Results: the new object's handle.
  kCreateContext = 10,      // device
  kCreateQueue = 11,        // context, device, properties (cl_command_queue_properties)
  kCreateBuffer = 12,       // context, flags, size, bytes (initial content, or none)
  kCreateSubBuffer = 13,    // buffer, flags, origin, size
  kCreateProgram = 14,      // context, source text
  kCreateProgramBinary = 15,// context, device, binary bytes
  kBuildProgram = 16,       // program, device, options. Result: none (the status is the build's)
  kCreateKernel = 17,       // program, name
  kSetKernelArg = 18,       // kernel, index, kind (0 bytes, 1 memory object, 2 local size, 3 sampler), its value
  kRelease = 19,            // kind (ObjectKind), handle: one reference of the node's
  kInfo = 20,               // kind, handle, param, second handle or index. Result: the bytes
  kCreateUserEvent = 21,    // context, event id
  kSetUserEventStatus = 22, // event id, status
  kFlush = 23,              // queue
  kFinish = 24,             // queue

  // Commands, each with (queue, wait list of event ids, event id) first.
  kWriteBuffer = 30,   // buffer, offset, size; the bytes follow (kDataTag)
  kReadBuffer = 31,    // buffer, offset, size: the bytes follow the event's end (kDataTag)
  kCopyBuffer = 32,    // source, destination, source offset, destination offset, size
  kFillBuffer = 33,    // buffer, pattern bytes, offset, size
  kNDRange = 34,       // kernel, dims, offsets[3], global[3], local[3] (all 0: none), has offset, has local
  kMarker = 35,        // (wait list only)
  // A copy from a buffer of one node (kPeerSend to it) to a buffer of
  // another (kPeerReceive to it, first), straight between them. The
  // receiving node enqueues its write at once, held by an event of its own
  // until the bytes come; the sending node reads its bytes once its wait
  // list allows and sends them (or the read's failure) to the receiver.
  kPeerReceive = 41,   // buffer, offset, size, then 1 and the source buffer and offset when the source is on
                       // the same node (else 0). The event: the write's
  kPeerSend = 42,      // buffer, offset, size, destination rank, the receiver's event id. The event: the read's
                       // (rank 0 never sees it)
  kBarrier = 36,
  kWriteBufferRect = 37,  // buffer, buffer origin[3], region[3], buffer row and slice pitch, the bytes packed
  kReadBufferRect = 38,   // buffer, buffer origin[3], region[3], buffer row and slice pitch: bytes packed
  kCopyBufferRect = 39,   // source, destination, both origins[3], region[3], both row and slice pitches
  kCreateSampler = 40,    // context, normalized, addressing, filter (not a command: no header)
  kCompileProgram = 43,   // program, device, options, header count, (header program, include name) each.
                          // Result: none (the status is the compilation's)
  kLinkProgram = 44,      // context, device, options, input count, input programs. Result: the new
                          // program's handle (0: none), then the link's status
  // Images. Host-side bytes always travel packed: rows of region[0] x the
  // image's element size, one after another.
  kImageFormats = 45,     // context, flags, image type. Result: the formats (bytes of cl_image_format[])
  kCreateImage = 46,      // context, flags, format, desc (its buffer as a handle), packed initial bytes (or
                          // none). Result: the handle, the element size
  kWriteImage = 47,       // command: image, origin[3], region[3], packed bytes
  kReadImage = 48,        // command: image, origin[3], region[3]: packed bytes follow the end (kDataTag)
  kCopyImage = 49,        // command: source, destination, both origins[3], region[3]
  kFillImage = 54,        // command: image, fill color (16 bytes), origin[3], region[3]
  kCopyImageToBuffer = 55,// command: image, buffer, origin[3], region[3], buffer offset
  kCopyBufferToImage = 56,// command: buffer, image, buffer offset, origin[3], region[3]

  // For bench-cluster: size, count. No reply: the node then receives and
  // returns `count` messages of `size` bytes (tag kRawTag), plain MPI, as
  // the baseline UniCL's transfers are measured against.
  kRawPingPong = 50,
  // For bench-cluster, node to node: peer rank, size, count. The node sends
  // the peer a kRawPingPong, makes the `count` round trips with it, and
  // answers with their total seconds (a double).
  kRawPingPongWith = 53,
  // Liveness: rank 0 asks a node it awaits something from and has not heard
  // from lately; any answer will do.
  kPing = 51,
  // A copy between nodes will not come (its sender failed or was lost):
  // receiver's event id, status. The write fails with it.
  kPeerCancel = 52,
};
constexpr int kRawTag = 7104;

// What kRelease and kInfo name.
enum class ObjectKind : uint32_t {
  kContext = 1,
  kQueue,
  kMemory,
  kProgram,
  kKernel,
  kEvent,
  kProgramBuild,    // kInfo only: clGetProgramBuildInfo (second: device)
  kKernelWorkGroup, // kInfo only: clGetKernelWorkGroupInfo (second: device)
  kKernelArg,       // kInfo only: clGetKernelArgInfo (second: argument index)
  kEventProfiling,  // kInfo only: clGetEventProfilingInfo
  kSampler,
  kImage,           // kInfo only: clGetImageInfo
};

// The message of kEventTag: event id, its final status, its profiling
// times (0 when the queue does not profile), and the size of the bytes that
// follow (a read's; 0: none).
struct EventEnded {
  uint64_t id;
  cl_int status;
  cl_ulong queued, submit, start, end;
  uint64_t bytes;
};

// The message of kPeerTag, one per part (kChunk bytes) of a copy: the
// receiver's event id, the part's read status, its duration on the sender's
// device (ns), where the part starts, and the size of the bytes that follow
// (0 when the read failed). Each part is written on the receiver as soon as
// it is there, while the next ones are read and travel.
struct PeerHeader {
  uint64_t id;
  cl_int status;
  uint64_t read_ns;
  uint64_t offset;  // of the part within the copy (parts of kChunk bytes)
  uint64_t bytes;
};

struct RequestHeader {
  uint64_t call;
  Op op;
};
struct ReplyHeader {
  uint64_t call;
  cl_int status;
};

// An info answer per parameter, as the vendor gave it (the parameters a
// vendor refuses are absent).
using InfoAnswers = std::map<cl_uint, std::vector<char>>;

struct RemoteDeviceInfo {
  uint64_t id = 0;  // the node's handle: how later requests name the device
  InfoAnswers info;
};
struct RemotePlatformInfo {
  uint64_t id = 0;
  InfoAnswers info;
  std::vector<RemoteDeviceInfo> devices;
};
// A node as it describes itself in its answer to kHello.
struct NodeDescription {
  std::string host;  // the node's host name
  std::string unicl_version;
  std::string topology;  // its hardware, as topology_text() gives it
  std::vector<RemotePlatformInfo> platforms;
};

// The parameters a node answers for each of its platforms and devices.
const std::vector<cl_uint> &platform_params();
const std::vector<cl_uint> &device_params();

void write(Writer &w, const NodeDescription &d);
NodeDescription read_node(Reader &r);

}  // namespace unicl::cluster
