// The node client's objects on rank 0: ICD objects (their first member the
// dispatch table) standing for objects of a node. Platforms and devices
// answer from what the node described at start-up; every other object has
// an id rank 0 chose (protocol/messages.hpp), and keeps what rank 0 can answer and
// check itself: the objects it belongs to, references, a program's build
// facts, a kernel's arguments until its launch, an event's status.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cluster/client/refusal.hpp"
#include "cluster/protocol/messages.hpp"

namespace unicl::cluster {

// The network between rank 0 and a node: one-way latency (seconds) and
// bandwidth (bytes per second); 0 when unknown.
struct NetworkLink {
  double latency = 0, bandwidth = 0;
};

struct RemotePlatform;
struct RemoteEvent;

// What every object of a node's that rank 0 names has in common (platforms
// and devices, described once at start-up, are not counted).
struct Proxy {
  const cl_icd_dispatch *dispatch;
  ObjectKind kind;
  int rank = 0;     // the node's rank on UniCL's communicator
  uint64_t id = 0;  // rank 0's name for the node's object
  std::atomic<cl_uint> refs{1};
};

// What rank 0 knows of a kernel argument from the build (KernelFacts):
// how clSetKernelArg must be called for it.
struct ArgShape {
  enum Kind { kUnknown, kValue, kMemory, kImage, kLocal, kSampler } kind = kUnknown;
  size_t size = 0;  // kValue: its size when its type is a built-in one; 0 when not known
};
ArgShape arg_shape(const InfoAnswers &arg_info);

// A fixed-size answer from `info` (`fallback` when absent).
template <class T>
T info_value(const InfoAnswers &info, cl_uint param, T fallback = T{}) {
  auto it = info.find(param);
  if (it == info.end() || it->second.size() < sizeof(T)) return fallback;
  T v;
  std::memcpy(&v, it->second.data(), sizeof v);
  return v;
}

struct RemoteDevice {
  using Handle = cl_device_id;
  const cl_icd_dispatch *dispatch;
  RemotePlatform *platform;
  int rank;
  uint64_t handle;       // the node's own handle of the device
  std::string host;      // the node's host name
  std::string topology;  // the node's hardware (cluster/topology_text.hpp)
  InfoAnswers info;
  // A fixed-size answer of the node's description (`fallback` when absent).
  template <class T>
  T value(cl_uint param, T fallback = T{}) const {
    return info_value<T>(info, param, fallback);
  }
};

struct RemotePlatform {
  using Handle = cl_platform_id;
  const cl_icd_dispatch *dispatch;
  int rank;
  uint64_t handle;
  InfoAnswers info;
  std::vector<std::unique_ptr<RemoteDevice>> devices;
};

struct RemoteContext : Proxy {
  using Handle = cl_context;
  RemoteDevice *device = nullptr;
  std::vector<cl_context_properties> properties;  // as the application gave them, 0-terminated (or empty)
  // The image formats the node's vendor supports, asked once per flags and
  // image type (clGetSupportedImageFormats, and every image creation).
  std::mutex formats_mutex;
  std::map<std::pair<cl_mem_flags, cl_mem_object_type>, std::vector<cl_image_format>> formats;
};

struct RemoteQueue : Proxy {
  using Handle = cl_command_queue;
  RemoteContext *context = nullptr;
  RemoteDevice *device = nullptr;
  cl_command_queue_properties properties = 0;
  // Commands enqueued whose end has not come: clFinish waits for them.
  // `unprompted`: how many of them the node may report in its own time
  // (kPrompt not set): a wait asks for those (kReportNow). `untracked`:
  // commands sent without an event since the last wait (nobody can name
  // them): a wait covers them with a marker. `waited`: a wait on this queue
  // came since its last command; its next command is likely waited for too,
  // and is sent with an event, prompt.
  std::mutex mutex;
  std::condition_variable ended;
  size_t in_flight = 0, unprompted = 0, untracked = 0;
  bool waited = true;
  // Its reads and maps in flight: they fill rank 0's memory when they end,
  // and a later write of the queue may send bytes from there.
  std::vector<RemoteEvent *> host_fills;
};

struct RemoteMemory : Proxy {
  using Handle = cl_mem;
  RemoteContext *context = nullptr;
  RemoteMemory *parent = nullptr;  // sub-buffers
  cl_mem_flags flags = 0;   // as the application gave them
  size_t size = 0, origin = 0;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  size_t element = 0;  // images: bytes per pixel
  cl_image_format format{};  // images
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
    std::shared_ptr<std::vector<char>> storage;
    size_t origin[3] = {0, 0, 0}, region[3] = {0, 0, 0};  // images: the mapped pixels (storage packed)
  };
  std::mutex maps_mutex;
  std::vector<std::pair<void *, Mapping>> maps;
};

struct RemoteProgram : Proxy {
  using Handle = cl_program;
  RemoteContext *context = nullptr;
  std::string source;
  // From the last build, compilation or link (the node's reply), and the
  // options the application gave it.
  std::mutex mutex;
  std::optional<ProgramFacts> facts;
  std::string options;
  size_t kernels_attached = 0;  // live kernels of it: a rebuild is refused meanwhile
};

struct RemoteKernel : Proxy {
  using Handle = cl_kernel;
  RemoteProgram *program = nullptr;
  KernelFacts facts;  // as built
  std::vector<ArgShape> shapes;
  // The arguments as the application set them, and as the node's kernel
  // has them (what the last launch sent): a launch sends the difference.
  std::mutex mutex;
  std::vector<std::optional<KernelArg>> args, sent;
  // A memory object or sampler argument's rank 0 object, to check at the
  // launch that it still lives (its id alone could be an old one).
  std::vector<const void *> arg_objects;
};

struct RemoteEvent : Proxy {
  using Handle = cl_event;
  RemoteContext *context = nullptr;
  RemoteQueue *queue = nullptr;  // null for user events
  int peer_source = -1;              // a copy from another node: that node's rank
  cl_command_type type = CL_COMMAND_USER;
  bool prompt = false;               // sent with kPrompt (or asked for since)
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
  std::vector<std::function<void(cl_int)>> on_end;  // the client's own, run at the end before `callbacks`
  // A read: where its bytes go (they are received there directly), or
  // what to do with them (a rectangle, unpacked); before the event completes.
  void *read_into = nullptr;
  size_t read_size = 0;
  std::function<void(const char *, size_t)> deliver;
  // A write whose bytes left with its request: when it was posted, on this
  // rank's steady clock (timed_here).
  uint64_t posted_ns = 0;
};

struct RemoteSampler : Proxy {
  using Handle = cl_sampler;
  RemoteContext *context = nullptr;
};

// Handles and objects. A handle the client hands out (cl_context, ...) is
// its object's address; to the application and to UniCL it is opaque:
// `struct _cl_context` and the others stay undefined here (libunicl has its
// own), and a handle becomes the client's object only through `remote`.
template <class Handle, class... Objects>
struct ObjectFor {
  using type = void;
};
template <class Handle, class Object, class... Others>
struct ObjectFor<Handle, Object, Others...> {
  using type = std::conditional_t<std::is_same_v<Handle, typename Object::Handle>, Object,
                                  typename ObjectFor<Handle, Others...>::type>;
};
template <class Handle>
using ObjectOf = typename ObjectFor<Handle, RemotePlatform, RemoteDevice, RemoteContext, RemoteQueue, RemoteMemory,
                                    RemoteProgram, RemoteKernel, RemoteEvent, RemoteSampler>::type;

// The object a handle names (not checked: `live` and `is_device` are).
template <class Handle>
ObjectOf<Handle> *remote(Handle h) {
  return reinterpret_cast<ObjectOf<Handle> *>(h);
}
// The handle the application and UniCL know `object` by.
template <class Object>
typename Object::Handle handle(Object *object) {
  return reinterpret_cast<typename Object::Handle>(object);
}


// The nodes' platforms and devices (platform.cpp).
bool is_platform(const RemotePlatform *p);
bool is_device(const RemoteDevice *d);

// Ownership of the proxies: each is registered while it has references;
// `live` tells a handle of ours of that kind from anything else.
void register_proxy(std::shared_ptr<Proxy> p);
bool live(const void *handle, ObjectKind kind);
void retain(Proxy *p);
// Drops a reference; the last one unregisters it, tells the node (posted)
// and drops the references it held on others.
void release(Proxy *p);

// The node client's dispatch table (generated from entry_points.txt).
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

// A new id: every object and event rank 0 names on the nodes.
uint64_t new_id();

template <class T>
T *make_proxy(ObjectKind kind, int rank, uint64_t id = new_id()) {
  auto p = std::make_shared<T>();
  p->dispatch = &client_dispatch();
  p->kind = kind;
  p->rank = rank;
  p->id = id;
  T *raw = p.get();
  register_proxy(std::move(p));
  return raw;
}

// Requests to the nodes (session.cpp). `post` queues one and returns
// (false: the node was lost); `rpc` waits for the node's status (and
// result, when `reply` is given).
bool post(int rank, Op op, const Writer &args, const void *bulk = nullptr, size_t bulk_size = 0,
          std::shared_ptr<const void> keep = {});
cl_int rpc(int rank, Op op, const Writer &args, std::vector<char> *reply = nullptr);
// Before an enqueue whose end node `rank` will report.
void expect_event(int rank);
// Whether node `rank` was lost (it stopped answering).
bool node_lost(int rank);
// Fails every command of node `rank` still awaited (events.cpp).
void fail_events_of(int rank, cl_int status);
// Runs `fn` on the client's callback thread, in order: event callbacks may
// call back into OpenCL, which the communication thread must stay free for.
void run_later(std::function<void()> fn);

// Events (events.cpp): a new event for a command of `queue`, with
// an id of its own. Its end is reported at once when `prompt` is kPrompt,
// or kAfterWait and the queue was waited for since its last command (the
// next is likely waited for too); kHeld leaves that mark to the next command
// (a blocking write nobody waits for: the application's next call is).
enum class Promptness { kHeld, kAfterWait, kPrompt };
RemoteEvent *new_command_event(RemoteQueue *queue, cl_command_type type, Promptness prompt);
void forget_command_event(RemoteEvent *e);  // its enqueue failed
// A node's report of a command's end (mpi_link.hpp, on_event).
void event_ended(const EventEnded &ended, const char *bytes, size_t size);
// Where the bytes of event `id` go, if it is a plain read of at least `size`.
void *read_destination(uint64_t id, size_t size);
// Asks the nodes for the ends of `queue`'s commands that were not sent
// prompt, once; the next command of the queue goes prompt (a wait came).
void want_ends(RemoteQueue *queue);
// Runs fn(status) when `e` ends (on the thread that learns it), or at once
// if it has.
void when_ended(RemoteEvent *e, std::function<void(cl_int)> fn);
// Commands that fill rank 0's memory when they end (reads, maps).
bool fills_host(cl_command_type type);

// Programs and kernels (programs.cpp): writes the arguments of `k`
// changed since the node's kernel last got them, and records them as sent;
// or returns the error that stops a launch (CL_INVALID_KERNEL_ARGS: one
// unset, when `require_all`, or an object gone since it was set).
cl_int changed_args(RemoteKernel *k, Writer &w, bool require_all);

// Where a device or platform of a node says it is, in its names:
// " @ host:rank".
std::string node_label(const std::string &host, int rank);
// Copies an info answer out as clGet*Info does.
cl_int answer(const void *value, size_t n, size_t size, void *out, size_t *size_ret);
template <class T>
cl_int answer_value(const T &v, size_t size, void *out, size_t *size_ret) {
  static_assert(!requires { typename std::remove_pointer_t<T>::Handle; }, "an object is answered by its handle");
  return answer(&v, sizeof v, size, out, size_ret);
}
// An answer from `info` (CL_INVALID_VALUE when absent).
cl_int answer_from(const InfoAnswers &info, cl_uint param, size_t size, void *out, size_t *size_ret);
// An info query the node answers (kInfo, waited for): its bytes copied out
// as clGet*Info does. `second`: a device's handle, or an index.
cl_int node_info(const Proxy *p, ObjectKind kind, cl_uint param, uint64_t second, size_t size, void *value,
                 size_t *size_ret);

// What a creation entry point returns: `value`, and `err` in *errcode_ret.
template <class T>
T fail(cl_int *errcode_ret, cl_int err, T value = nullptr) {
  if (errcode_ret) *errcode_ret = err;
  return value;
}
// What a creation entry point returns when it refuses: no object, `err` in
// *errcode_ret, and why, said as refuse() says it.
template <class Handle>
Handle refused(cl_int *errcode_ret, cl_int err, const char *why,
               std::source_location where = std::source_location::current()) {
  return fail<Handle>(errcode_ret, refuse(err, why, where));
}

}  // namespace unicl::cluster
