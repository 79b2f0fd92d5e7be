// The node client's objects on rank 0: ICD objects (their first member the
// dispatch table) standing for objects of a node. Platforms and devices
// answer from what the node described at start-up; the others name the
// node's object (its handle, or for events an id rank 0 chose) and keep
// what rank 0 can answer itself (the objects they belong to, references,
// an event's status).
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/protocol.hpp"

namespace unicl::cluster {

// The network between rank 0 and a node: one-way latency (seconds) and
// bandwidth (bytes per second); 0 when unknown.
struct NetworkLink {
  double latency = 0, bandwidth = 0;
};

struct Proxy {
  const cl_icd_dispatch *dispatch;
  ObjectKind kind;
  int rank = 0;         // the node's rank on UniCL's communicator
  uint64_t remote = 0;  // the node's handle (events: rank 0's id)
  std::atomic<cl_uint> refs{1};
};

}  // namespace unicl::cluster

struct _cl_device_id {
  const cl_icd_dispatch *dispatch;
  cl_platform_id platform;
  int rank;
  uint64_t remote;
  std::string host;      // the node's host name
  std::string topology;  // the node's hardware (cluster/topology_text.hpp)
  unicl::cluster::InfoAnswers info;
};

struct _cl_platform_id {
  const cl_icd_dispatch *dispatch;
  int rank;
  uint64_t remote;
  unicl::cluster::InfoAnswers info;
  std::vector<std::unique_ptr<_cl_device_id>> devices;
};

struct _cl_context : unicl::cluster::Proxy {
  cl_device_id device = nullptr;
  std::vector<cl_context_properties> properties;  // as the application gave them, 0-terminated (or empty)
};

struct _cl_command_queue : unicl::cluster::Proxy {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
  // Commands enqueued whose end has not come: clFinish waits for them.
  std::mutex mutex;
  std::condition_variable ended;
  size_t in_flight = 0;
};

struct _cl_mem : unicl::cluster::Proxy {
  cl_context context = nullptr;
  cl_mem parent = nullptr;  // sub-buffers
  cl_mem_flags flags = 0;   // as the application gave them
  size_t size = 0, origin = 0;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  size_t element = 0;  // images: bytes per pixel
  void *host_ptr = nullptr;
  struct Destructor {
    void(CL_CALLBACK *fn)(cl_mem, void *);
    void *user_data;
  };
  std::vector<Destructor> destructors;  // run last first, when the object goes
  // Mapped regions: the host memory a map handed out (storage empty for a
  // USE_HOST_PTR buffer, whose maps are in the application's memory).
  struct Mapping {
    size_t offset, size;
    cl_map_flags flags;
    std::vector<char> storage;
    size_t origin[3] = {0, 0, 0}, region[3] = {0, 0, 0};  // images: the mapped pixels (storage packed)
  };
  std::mutex maps_mutex;
  std::vector<std::pair<void *, Mapping>> maps;
};

struct _cl_program : unicl::cluster::Proxy {
  cl_context context = nullptr;
  std::string source;
};

struct _cl_kernel : unicl::cluster::Proxy {
  cl_program program = nullptr;
};

struct _cl_event : unicl::cluster::Proxy {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;  // null for user events
  int peer_source = -1;              // a copy from another node: that node's rank
  cl_command_type type = CL_COMMAND_USER;
  std::mutex mutex;
  std::condition_variable changed;
  cl_int status = CL_QUEUED;
  cl_ulong times[4] = {0, 0, 0, 0};  // QUEUED, SUBMIT, START, END, from the node
  struct Callback {
    cl_int level;
    void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *user_data;
  };
  std::vector<Callback> callbacks;  // not run yet
  // A read: where its bytes go (they are received there directly), or
  // what to do with them (a rectangle, unpacked); before the event completes.
  void *read_into = nullptr;
  size_t read_size = 0;
  std::function<void(const std::vector<char> &)> deliver;
};

struct _cl_sampler : unicl::cluster::Proxy {
  cl_context context = nullptr;
};

namespace unicl::cluster {

// The nodes' platforms and devices (remote_icd.cpp).
bool is_platform(cl_platform_id p);
bool is_device(cl_device_id d);

// Ownership of the proxies: each is registered while it has references;
// `live` tells a handle of ours of that kind from anything else.
void register_proxy(std::shared_ptr<Proxy> p);
bool live(const void *handle, ObjectKind kind);
void retain(Proxy *p);
// Drops a reference; the last one unregisters it, releases the node's
// object and the references it held on others.
void release(Proxy *p);

// The node client's dispatch table (generated from remote_entry_points.txt).
const cl_icd_dispatch &client_dispatch();

// clRetain<Object> and clRelease<Object>: `invalid` for a handle that is
// not a live object of ours of that kind.
template <ObjectKind kKind, cl_int kInvalid>
cl_int retain_handle(void *handle) {
  if (!live(handle, kKind)) return kInvalid;
  retain(static_cast<Proxy *>(handle));
  return CL_SUCCESS;
}
template <ObjectKind kKind, cl_int kInvalid>
cl_int release_handle(void *handle) {
  if (!live(handle, kKind)) return kInvalid;
  release(static_cast<Proxy *>(handle));
  return CL_SUCCESS;
}

template <class T>
T *make_proxy(ObjectKind kind, int rank, uint64_t remote) {
  auto p = std::make_shared<T>();
  p->dispatch = &client_dispatch();
  p->kind = kind;
  p->rank = rank;
  p->remote = remote;
  T *raw = p.get();
  register_proxy(std::move(p));
  return raw;
}

// Calls to the nodes (remote_icd.cpp). `rpc` waits for the node's status
// (and result, when `reply` is given); `post` does not wait.
cl_int rpc(int rank, Op op, const Writer &args, std::vector<char> *reply = nullptr, const void *data = nullptr,
           size_t data_size = 0);
void post(int rank, Op op, const Writer &args);
// Before an enqueue whose end node `rank` will report.
void expect_event(int rank);
// Whether node `rank` was lost (it stopped answering).
bool node_lost(int rank);
// Fails every command of node `rank` still awaited (remote_events.cpp).
void fail_events_of(int rank, cl_int status);
// Runs `fn` on the client's callback thread, in order: event callbacks may
// call back into OpenCL, which the communication thread must stay free for.
void run_later(std::function<void()> fn);

// Events (remote_events.cpp): a new event for a command of `queue`, with
// an id of its own; `end_of` handles a node's EventEnded message.
cl_event new_command_event(cl_command_queue queue, cl_command_type type);
void forget_command_event(cl_event e);  // its enqueue failed
// An id for a node's event rank 0 never sees (a copy's read on its source).
uint64_t new_event_id();
void event_ended(std::vector<char> &&message, std::vector<char> &&bytes);
// Where the bytes of event `id` go, if it is a plain read of at least `size`.
void *read_destination(uint64_t id, size_t size);

// Where a device or platform of a node says it is, in its names:
// " @ host:rank".
std::string node_label(const std::string &host, int rank);
// Copies an info answer out as clGet*Info does.
cl_int answer(const void *value, size_t n, size_t size, void *out, size_t *size_ret);
template <class T>
cl_int answer_value(const T &v, size_t size, void *out, size_t *size_ret) {
  return answer(&v, sizeof v, size, out, size_ret);
}

}  // namespace unicl::cluster
