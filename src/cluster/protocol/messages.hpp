// What rank 0 (the application's UniCL) and a node (unicl-node) say to each
// other, on UniCL's own communicator.
//
// Rank 0 to a node: one message (kRequestTag) carries every request queued
// for that node since the last one, each a RequestHeader and its
// arguments. Most requests are posted: nobody waits for them, and the node
// answers nothing. A request that rank 0 cannot answer itself (a program
// build, an info query it has not cached) carries a call number, and the
// node answers it alone (kReplyTag: the call number, a status, the result).
//
// Every object rank 0 makes on a node is named by rank 0 (an id from one
// counter), so that a creation need not wait for the node's handle: the node
// maps ids to its vendors' objects. A creation that fails on the node is kept
// under its id with its error, and the commands that use it fail with that
// error as their event's status.
//
// The node to rank 0: the ends of commands, in batches (kEventTag): every
// end since the last report, in one message.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/cl_headers.hpp"
#include "cluster/protocol/wire.hpp"

namespace unicl::cluster {

// Both ends check this at start-up: a node of another UniCL protocol (or of
// the other byte order, which reads the magic reversed) is refused.
constexpr uint32_t kMagic = 0x554e434c;  // "UNCL"
constexpr uint32_t kProtocolVersion = 10;

constexpr int kRequestTag = 7101;  // rank 0 -> node: a batch of requests
constexpr int kReplyTag = 7102;    // node -> rank 0: the reply to one request that carried a call number
constexpr int kEventTag = 7103;    // node -> rank 0: a report, the ends of commands (write_report)
constexpr int kRawTag = 7104;      // the plain MPI baselines (kRawPingPong)
// Bulk bytes too large to travel inside a request or a report go as
// messages of their own, right after the message that announces them, in
// the order it announces them, straight from and into the memory that holds
// them (a write's bytes after its batch, a read's after its report).
constexpr int kDataTag = 7105;
// Node to node: a PeerHeader (kPeerTag), then, when it says so, the bytes
// (kPeerDataTag) of a copy between two nodes (kPeerSend, kPeerReceive).
constexpr int kPeerTag = 7106;
constexpr int kPeerDataTag = 7107;

// Bulk bytes up to this size travel inside their request or report: one
// message instead of two.
constexpr size_t kInlineBytes = size_t{64} << 10;
// Larger bulk bytes go in messages of at most this many, in order: the node
// writes each part of a write into the device while the next one travels.
constexpr size_t kChunk = size_t{4} << 20;
// Calls fn(offset, size) for each part of `total` bytes, in order.
template <class Fn>
void for_each_part(size_t total, Fn &&fn) {
  for (size_t at = 0; at < total; at += kChunk) fn(at, total - at < kChunk ? total - at : kChunk);
}

// "payload" below: bulk bytes, as write_payload puts them: their size, then
// where they are (PayloadAt), then (inline) the bytes.
enum class PayloadAt : uint8_t {
  kAfter = 0,   // they follow the batch as kDataTag parts
  kInline = 1,  // right here
  // A write's bytes, not yet known: rank 0 sends them (kWriteBytes) once
  // what the write follows has ended there (a read into the memory they
  // come from, say), as a vendor reads a write's memory when it runs.
  kLater = 2,
};
inline bool inline_payload(size_t size) { return size <= kInlineBytes; }
// Bulk bytes a request announced (PayloadAt::kAfter), sent right after its
// batch from where they are: `keep` holds them there until they are sent.
struct BulkBytes {
  const void *data = nullptr;
  size_t size = 0;
  std::shared_ptr<const void> keep;
};
inline void write_payload(Writer &w, const void *data, size_t size) {
  w.put<uint64_t>(size).put(inline_payload(size) ? PayloadAt::kInline : PayloadAt::kAfter);
  if (inline_payload(size)) w.raw(data, size);
}

// What a request asks. "id": a new object's, named by rank 0; objects are
// named by their ids everywhere, devices by the node's own handles (from its
// description at start-up). W: waited for (the request carries a call
// number and gets a reply); every other request is posted.
enum class Op : uint32_t {
  kHello = 1,  // W. Hello. Result: Hello (the node's), NodeDescription
  kBye = 2,    // W. The node finalizes MPI and exits
  kPing = 3,   // W. Liveness (any answer will do). Result: the node's steady clock, ns (protocol/steady_clock.hpp)
  // For bench-cluster: PingPong. No reply: the node then receives and
  // returns `count` messages of `size` bytes (tag kRawTag), plain MPI, as
  // the baseline UniCL's transfers are measured against. Sent alone.
  kRawPingPong = 4,
  // W. For bench-cluster, node to node: PingPongWith. The node
  // sends the peer a kRawPingPong, makes the `count` round trips with it,
  // and answers with their total seconds (a double).
  kRawPingPongWith = 5,

  // Objects, posted.
  kCreateContext = 10,     // CreateContext
  kCreateQueue = 11,       // CreateQueue
  kCreateBuffer = 12,      // CreateBuffer, payload (the initial content, or none: 0 bytes)
  kCreateSubBuffer = 13,   // CreateSubBuffer
  kCreateImage = 14,       // CreateImage, payload (packed initial pixels, or none)
  kCreateSampler = 15,     // CreateSampler
  kCreateProgram = 16,     // CreateProgram
  kCreateKernel = 17,      // CreateKernel
  kCreateUserEvent = 18,   // CreateUserEvent
  kSetUserEventStatus = 19,// SetUserEventStatus
  kRelease = 20,           // Release: rank 0 let go of it
  kSetKernelArgs = 21,     // kernel, KernelArgs: the arguments changed since the kernel's last launch (before a
                           // query whose answer depends on them)
  // Report every end of `queue`'s commands enqueued so far at once (0: of
  // every queue), and what has ended already now: rank 0 waits for them.
  kReportNow = 22,         // ReportNow
  // The bytes of a write sent before them (PayloadAt::kLater): WriteBytes
  // (the write's event id, the status of what it followed: an error fails
  // the write), payload.
  kWriteBytes = 23,

  // Objects and queries, waited for.
  kCreateProgramBinary = 30,// CreateProgramBinary. Result: the binary's status. The status: the creation's (a
                            // failed one leaves no object)
  kBuildProgram = 31,       // BuildProgram. Result: ProgramFacts. The status: the build's
  kCompileProgram = 32,     // CompileProgram. Result: ProgramFacts (build information only). The status: the
                            // compilation's
  kLinkProgram = 33,        // LinkProgram. Result: whether a program was made (uint8_t), then its ProgramFacts.
                            // The status: the link's
  kInfo = 34,               // InfoQuery. Result: the bytes
  kImageFormats = 35,       // ImageFormats. Result: the formats (bytes of cl_image_format[])

  // Commands, each with a CommandHeader first.
  kWriteBuffer = 40,       // BufferWrite, payload
  kReadBuffer = 41,        // buffer, ByteSpan: the bytes come with the end (a report's payload)
  kCopyBuffer = 42,        // source, destination, SpanCopy
  kFillBuffer = 43,        // buffer, pattern bytes, ByteSpan
  kNDRange = 44,           // kernel, KernelArgs (changed since its last launch), LaunchShape
  kMarker = 45,            // (wait list only)
  kBarrier = 46,
  kWriteBufferRect = 47,   // buffer, BufferRect, payload (packed)
  kReadBufferRect = 48,    // buffer, BufferRect: packed bytes come back
  kCopyBufferRect = 49,    // source, destination, BufferRectCopy
  kWriteImage = 50,        // image, Box, payload (packed)
  kReadImage = 51,         // image, Box: packed bytes come back
  kCopyImage = 52,         // source, destination, BoxCopy
  kFillImage = 53,         // image, fill color (16 bytes), Box
  kCopyImageToBuffer = 54, // image, buffer, Box, buffer offset
  kCopyBufferToImage = 55, // buffer, image, buffer offset, Box
  // A copy from a buffer of one node (kPeerSend to it) to a buffer of
  // another (kPeerReceive to it, first), straight between them. The
  // receiving node enqueues its write at once, held by an event of its own
  // until the bytes come; the sending node reads its bytes once its wait
  // list allows and sends them (or its failure) to the receiver. The bytes
  // may reach the receiver before its request does: it keeps them until then.
  kPeerReceive = 56,       // PeerCopyIn. The event: the write's
  kPeerSend = 57,          // PeerCopyOut. The event: the read's (rank 0 never sees it)
  // Not a command: a copy between nodes will not come (its sender was
  // lost): PeerCancel. The write fails with its status.
  kPeerCancel = 58,
};

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

// The other requests of plain fields (the layouts of Op's comments).
struct Hello {  // waited for, then DoorbellAt: the answer is Hello too, then the NodeDescription
  uint32_t magic = kMagic, version = kProtocolVersion;
  auto fields() { return std::tie(magic, version); }
};
// Where a process's doorbell rings (doorbell.hpp): its host's name, its UDP
// port (0: it has none) and its machine's addresses. Rank 0's follows its
// Hello; a node's is in its description.
struct DoorbellAt {
  std::string host;
  uint16_t port = 0;
  std::vector<std::string> addresses;
  auto fields() { return std::tie(host, port, addresses); }
};
struct PingPong {  // kRawPingPong: the messages' size and how many round trips
  uint64_t size = 0, count = 0;
  auto fields() { return std::tie(size, count); }
};
struct PingPongWith {  // kRawPingPongWith: with which node
  int32_t peer = 0;
  uint64_t size = 0, count = 0;
  auto fields() { return std::tie(peer, size, count); }
};
struct PeerCancel {  // the receiving write's event id, the status it fails with
  uint64_t id = 0;
  cl_int status = CL_DEVICE_NOT_AVAILABLE;
  auto fields() { return std::tie(id, status); }
};
struct Release {
  ObjectKind kind{};
  uint64_t id = 0;
  auto fields() { return std::tie(kind, id); }
};
struct ReportNow {
  uint64_t queue = 0;  // 0: every queue
  auto fields() { return std::tie(queue); }
};
struct WriteBytes {  // then the payload
  uint64_t id = 0;     // the held write's event id
  cl_int status = 0;   // what it followed: an error fails it
  auto fields() { return std::tie(id, status); }
};
struct InfoQuery {
  ObjectKind kind{};
  uint64_t id = 0;
  cl_uint param = 0;
  uint64_t second = 0;  // a device handle or an index, as the query needs
  auto fields() { return std::tie(kind, id, param, second); }
};

struct RequestHeader {
  uint64_t call = 0;  // 0: posted (no reply)
  Op op{};
  uint32_t size = 0;  // of the arguments that follow
};
struct ReplyHeader {
  uint64_t call;
  cl_int status;
};

// The posted creations, each the new object's id (named by rank 0) first;
// then what its vendor call takes (devices by the node's own handles). A
// buffer's and an image's initial bytes follow as a payload.
struct CreateContext {
  uint64_t id = 0, device = 0;
  auto fields() { return std::tie(id, device); }
};
struct CreateQueue {
  uint64_t id = 0, context = 0, device = 0;
  cl_command_queue_properties properties = 0;
  auto fields() { return std::tie(id, context, device, properties); }
};
struct CreateBuffer {
  uint64_t id = 0, context = 0;
  cl_mem_flags flags = 0;
  uint64_t size = 0;
  auto fields() { return std::tie(id, context, flags, size); }
};
struct CreateSubBuffer {
  uint64_t id = 0, parent = 0;
  cl_mem_flags flags = 0;
  uint64_t origin = 0, size = 0;
  auto fields() { return std::tie(id, parent, flags, origin, size); }
};
struct CreateImage {
  uint64_t id = 0, context = 0;
  cl_mem_flags flags = 0;
  cl_image_format format{};
  cl_mem_object_type type = 0;
  uint64_t width = 0, height = 0, depth = 0, array_size = 0;
  uint64_t buffer = 0;  // an image of a buffer: the buffer's id (else 0)
  auto fields() { return std::tie(id, context, flags, format, type, width, height, depth, array_size, buffer); }
};
struct CreateSampler {
  uint64_t id = 0, context = 0;
  cl_bool normalized = CL_FALSE;
  cl_addressing_mode addressing = 0;
  cl_filter_mode filter = 0;
  auto fields() { return std::tie(id, context, normalized, addressing, filter); }
};
struct CreateProgram {
  uint64_t id = 0, context = 0;
  std::string source;
  auto fields() { return std::tie(id, context, source); }
};
struct CreateKernel {
  uint64_t id = 0, program = 0;
  std::string name;
  auto fields() { return std::tie(id, program, name); }
};
struct CreateUserEvent {
  uint64_t id = 0, context = 0;
  auto fields() { return std::tie(id, context); }
};
struct SetUserEventStatus {
  uint64_t id = 0;
  cl_int status = CL_COMPLETE;
  auto fields() { return std::tie(id, status); }
};
// kImageFormats, waited for: a context's formats for flags and an image type.
struct ImageFormats {
  uint64_t context = 0;
  cl_mem_flags flags = 0;
  cl_mem_object_type type = 0;
  auto fields() { return std::tie(context, flags, type); }
};

// Programs, waited for: from a binary, and a build, compilation or link
// on the node's device (headers and inputs: programs rank 0 named).
struct CreateProgramBinary {
  uint64_t id = 0, context = 0, device = 0;
  std::vector<char> binary;
  auto fields() { return std::tie(id, context, device, binary); }
};
struct BuildProgram {
  uint64_t program = 0, device = 0;
  std::string options;
  auto fields() { return std::tie(program, device, options); }
};
struct CompileProgram {
  uint64_t program = 0, device = 0;
  std::string options;
  std::vector<std::pair<uint64_t, std::string>> headers;  // each a program and its include name
  auto fields() { return std::tie(program, device, options, headers); }
};
struct LinkProgram {
  uint64_t id = 0, context = 0, device = 0;
  std::string options;
  std::vector<uint64_t> inputs;
  auto fields() { return std::tie(id, context, device, options, inputs); }
};

// Before a command's own arguments: its queue, the events it waits for
// (ids), its event's id and its flags.
constexpr uint32_t kPrompt = 1;  // report the end at once: rank 0 waits for it (else it may wait in a batch)
struct CommandHeader {
  uint64_t queue = 0;
  std::vector<uint64_t> wait;
  uint64_t event = 0;
  uint32_t flags = 0;
};
void write(Writer &w, const CommandHeader &h);
CommandHeader read_command_header(Reader &r);

// A kernel's arguments as a launch carries them: those changed since the
// kernel's previous launch, each its index, its kind and its value.
enum class ArgKind : uint8_t { kBytes = 0, kMemory = 1, kLocal = 2, kSampler = 3, kNullMemory = 4 };
struct KernelArg {
  ArgKind kind = ArgKind::kBytes;
  std::vector<char> bytes;  // kBytes
  uint64_t id = 0;          // kMemory, kSampler
  uint64_t size = 0;        // kLocal
  bool operator==(const KernelArg &) const = default;
};
void write_args(Writer &w, const std::vector<std::pair<cl_uint, const KernelArg *>> &changed);
std::vector<std::pair<cl_uint, KernelArg>> read_args(Reader &r);

// kNDRange after its kernel and arguments: the launch's shape, each of
// its three sizes as the spec defaults them past `dims` (offset 0, global
// and local 1), and whether the application gave an offset and a local size.
struct LaunchShape {
  cl_uint dims = 1;
  uint64_t offset[3] = {0, 0, 0}, global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  bool has_offset = false, has_local = false;
  bool operator==(const LaunchShape &) const = default;
  // From clEnqueueNDRangeKernel's arguments (offset and local may be null).
  static LaunchShape of(cl_uint dims, const size_t *offset, const size_t *global, const size_t *local);
};
void write(Writer &w, const LaunchShape &s);
LaunchShape read_launch_shape(Reader &r);

// kWriteBuffer: where its bytes go (its payload follows).
struct BufferWrite {
  uint64_t buffer = 0, offset = 0;
  auto fields() { return std::tie(buffer, offset); }
};

// Commands on a buffer's bytes, after their objects' ids: kReadBuffer's
// bytes read, kFillBuffer's bytes filled (after the pattern); kCopyBuffer's
// bytes from one offset to another.
struct ByteSpan {
  uint64_t offset = 0, size = 0;
  bool operator==(const ByteSpan &) const = default;
  auto fields() { return std::tie(offset, size); }
};
struct SpanCopy {
  uint64_t src_offset = 0, dst_offset = 0, size = 0;
  bool operator==(const SpanCopy &) const = default;
  auto fields() { return std::tie(src_offset, dst_offset, size); }
};

// A copy between two nodes' buffers (kPeerReceive, kPeerSend), after the
// command's header. The receiving side: its buffer and bytes, and, when the
// source is on the same node, the source buffer and offset (its staged
// copy may give the bytes). The sending side: its buffer and bytes, and
// where they go (the receiving node's rank and its write's event id).
struct PeerCopyIn {
  uint64_t buffer = 0, offset = 0, size = 0;
  bool source_here = false;
  uint64_t source = 0, source_offset = 0;  // source_here only
  bool operator==(const PeerCopyIn &) const = default;
};
void write(Writer &w, const PeerCopyIn &p);
PeerCopyIn read_peer_copy_in(Reader &r);
struct PeerCopyOut {
  uint64_t buffer = 0, offset = 0, size = 0;
  int32_t to_rank = 0;
  uint64_t to_event = 0;
  bool operator==(const PeerCopyOut &) const = default;
  auto fields() { return std::tie(buffer, offset, size, to_rank, to_event); }
};

// Commands on images and buffer rectangles, after their objects' ids.
// Three sizes (an origin, a region), each a uint64_t on the wire.
using Size3 = std::array<size_t, 3>;
Size3 size3(const size_t *v);  // from the application's three
// A box: where it starts and its extent (an image's in pixels, a buffer
// rectangle's in bytes). kWriteImage, kReadImage, kFillImage (after the
// fill color), kCopyImageToBuffer (then the buffer's offset),
// kCopyBufferToImage (after the buffer's offset).
struct Box {
  Size3 origin{}, region{};
  size_t volume() const { return region[0] * region[1] * region[2]; }
  bool operator==(const Box &) const = default;
  auto fields() { return std::tie(origin, region); }
};
// kWriteBufferRect, kReadBufferRect: the buffer's box and pitches (the
// host's side travels packed: rows of region[0] bytes).
struct BufferRect {
  Box box;
  uint64_t row_pitch = 0, slice_pitch = 0;
  bool operator==(const BufferRect &) const = default;
  auto fields() { return std::tie(box, row_pitch, slice_pitch); }
};
// kCopyImage, kCopyBufferRect: a region from one origin to another; a
// rectangle copy adds both sides' pitches.
struct BoxCopy {
  Size3 src_origin{}, dst_origin{}, region{};
  bool operator==(const BoxCopy &) const = default;
  auto fields() { return std::tie(src_origin, dst_origin, region); }
};
struct BufferRectCopy {
  BoxCopy boxes;
  uint64_t src_row = 0, src_slice = 0, dst_row = 0, dst_slice = 0;
  bool operator==(const BufferRectCopy &) const = default;
  auto fields() { return std::tie(boxes, src_row, src_slice, dst_row, dst_slice); }
};

// One entry of a report: a command's end. `bytes`: the size of the bytes a
// read brought back, inline after the entry or following the report as
// kDataTag parts. Times: the node's profiling times (0 when its queue does
// not profile).
// Its times are on the node's steady clock (protocol/steady_clock.hpp).
struct EventEnded {
  uint64_t id = 0;
  cl_int status = CL_COMPLETE;
  cl_ulong queued = 0, submit = 0, start = 0, end = 0;
  uint64_t bytes = 0;
  // Moves the times it has onto another clock, `by` later (unsigned: a
  // shift back is one past 2^64); an unknown time (0) stays unknown.
  void shift_times(uint64_t by) {
    for (cl_ulong *t : {&queued, &submit, &start, &end})
      if (*t) *t += by;
  }
  // The command began at `t`, before its START (a command made of parts,
  // whose bytes began moving before its last vendor command started):
  // START moves back to it, SUBMIT and QUEUED not after it, as the spec
  // orders them. Nothing changes for a `t` of 0 or not before START.
  void start_at(cl_ulong t) {
    if (!t || t >= start) return;
    start = t;
    submit = std::min(submit, start);
    queued = std::min(queued, submit);
  }
};
void write(Writer &w, const EventEnded &e);  // then, if inline_payload(e.bytes), the bytes (Writer::raw)
EventEnded read_event_ended(Reader &r);

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

// An info answer per parameter, as the vendor gave it (the parameters a
// vendor refuses are absent).
using InfoAnswers = std::map<cl_uint, std::vector<char>>;
void write(Writer &w, const InfoAnswers &info);
InfoAnswers read_info(Reader &r);
// Every answer of `query(param, size, value, size_ret)` (a clGet*Info of one
// object) to `params`, those it refuses left out.
template <class Query>
InfoAnswers answers(const std::vector<cl_uint> &params, Query &&query) {
  InfoAnswers out;
  for (cl_uint p : params) {
    size_t n = 0;
    if (query(p, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<char> value(n);
    if (n && query(p, n, value.data(), nullptr) != CL_SUCCESS) continue;
    out[p] = std::move(value);
  }
  return out;
}

// What rank 0 keeps of a built program, from the build's reply, to answer
// queries and check kernels and launches without asking the node: the
// build's information for the device, the program's kernels, and of each
// kernel its information, its work-group information on the device and each
// argument's information (empty where the vendor has none).
struct KernelFacts {
  std::string name;
  InfoAnswers info, work_group;
  std::vector<InfoAnswers> args;
};
struct ProgramFacts {
  InfoAnswers build, program;
  std::vector<KernelFacts> kernels;
};
void write(Writer &w, const ProgramFacts &f);
ProgramFacts read_program_facts(Reader &r);
// The queries ProgramFacts answers.
const std::vector<cl_uint> &build_params();
const std::vector<cl_uint> &program_params();
const std::vector<cl_uint> &kernel_params();
const std::vector<cl_uint> &work_group_params();
const std::vector<cl_uint> &arg_params();

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
  DoorbellAt doorbell;
};

// The parameters a node answers for each of its platforms and devices.
const std::vector<cl_uint> &platform_params();
const std::vector<cl_uint> &device_params();

void write(Writer &w, const NodeDescription &d);
NodeDescription read_node(Reader &r);

}  // namespace unicl::cluster
