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
constexpr uint32_t kProtocolVersion = 1;

constexpr int kRequestTag = 7101;
constexpr int kReplyTag = 7102;

enum class Op : uint32_t {
  kHello = 1,  // args: magic, version. Result: magic, version, NodeDescription
  kBye = 2,    // no args, no result; the node finalizes MPI and exits
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
  std::vector<RemotePlatformInfo> platforms;
};

// The parameters a node answers for each of its platforms and devices.
const std::vector<cl_uint> &platform_params();
const std::vector<cl_uint> &device_params();

void write(Writer &w, const NodeDescription &d);
NodeDescription read_node(Reader &r);

}  // namespace unicl::cluster
