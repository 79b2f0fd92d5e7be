// The OpenCL objects the simulator hands out. Each one starts with the
// pointer to the dispatch table: the ICD loader (and UniCL) read that first
// word to route every call on the handle back to this library.
//
// Lifetime: objects live in std::shared_ptr. The application's reference
// count (clRetain*/clRelease*) owns one shared_ptr (`self`); commands and
// other objects hold their own, so an object released by the application
// lives on while a queued command still uses it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "cl.hpp"
#include "config.hpp"
#include "fault.hpp"
#include "kernel_source.hpp"
#include "worker.hpp"

namespace sim {

extern const cl_icd_dispatch dispatch_table;  // dispatch.cpp

struct Platform;
struct Device;
struct Context;
struct Queue;
struct Memory;
struct Program;
struct Kernel;
struct Event;

// Handles and objects. A handle the simulator hands out (cl_context, ...) is
// its object's address; `struct _cl_context` and the others stay undefined
// here (libunicl, in the same process, has its own), and a handle becomes
// an object only through `remote`, which reads nothing (`checked` does).
template <class H, class... Objects>
struct ObjectFor {
  using type = void;
};
template <class H, class O, class... Others>
struct ObjectFor<H, O, Others...> {
  using type = std::conditional_t<std::is_same_v<H, typename O::Handle>, O, typename ObjectFor<H, Others...>::type>;
};
template <class H>
using ObjectOf = typename ObjectFor<H, Platform, Device, Context, Queue, Memory, Program, Kernel, Event>::type;

template <class H>
ObjectOf<H> *remote(H h) {
  return reinterpret_cast<ObjectOf<H> *>(h);
}
template <class O>
typename O::Handle handle(O *object) {
  return reinterpret_cast<typename O::Handle>(object);
}
template <class O>
std::vector<typename O::Handle> handles(const std::vector<O *> &objects) {
  std::vector<typename O::Handle> out;
  for (O *o : objects) out.push_back(handle(o));
  return out;
}


template <class T>
struct Object {
  const cl_icd_dispatch *dispatch = &dispatch_table;  // must stay the first member
  std::uint32_t magic = T::kMagic;                     // tells handle types apart; 0 once destroyed
  std::atomic<cl_uint> refs{1};                        // the application's references
  std::weak_ptr<T> weak;                               // mints internal references
  std::shared_ptr<T> self;                             // set while refs > 0

  // Volatile: a plain store to a dying object may be optimized away.
  ~Object() { *static_cast<volatile std::uint32_t *>(&magic) = 0; }
  std::shared_ptr<T> shared() { return weak.lock(); }
  void retain() { ++refs; }
  void release() {
    if (--refs == 0) auto last = std::move(self);  // may destroy *this: touch nothing after
  }
};

// A new object without application references yet: hand_out() adds the one
// the creating call returns.
template <class T, class... Args>
std::shared_ptr<T> create(Args &&...args) {
  auto p = std::make_shared<T>(std::forward<Args>(args)...);
  p->weak = p;
  return p;
}

template <class T>
typename T::Handle hand_out(const std::shared_ptr<T> &p) {
  p->self = p;
  return handle(p.get());
}

// The object behind an application handle, or null if it is not one of ours
// of the expected type (given as the handle, or as the object remote() made
// of it).
template <class T>
  requires requires { T::kMagic; }
T *checked(T *h) {
  return h && h->dispatch == &dispatch_table && h->magic == T::kMagic ? h : nullptr;
}
template <class H>
  requires std::is_pointer_v<H>
auto *checked(H h) {
  return checked(remote(h));
}

template <class T>
cl_int retain_handle(T *h, cl_int invalid) {
  if (!checked(h)) return invalid;
  h->retain();
  return CL_SUCCESS;
}

template <class T>
cl_int release_handle(T *h, cl_int invalid) {
  if (!checked(h)) return invalid;
  h->release();
  return CL_SUCCESS;
}

std::uint64_t now_ns();  // steady clock, the time base of profiling info

// Sets *errcode_ret (if given) and returns null: the create-call convention.
inline std::nullptr_t fail(cl_int *errcode_ret, cl_int err) {
  if (errcode_ret) *errcode_ret = err;
  return nullptr;
}


// The platform and its devices are immortal: created at the first
// clIcdGetPlatformIDsKHR, never destroyed (worker threads may still run
// while the process exits).
struct Device {
  using Handle = cl_device_id;
  const cl_icd_dispatch *dispatch = &dispatch_table;
  DeviceConfig config;
  Platform *platform = nullptr;
  std::atomic<std::uint64_t> allocated{0};  // bytes of buffers created in contexts with this device
  Worker worker;
  Worker copier;  // transfers, when config.copy_engine

  // Memory accounting: false when `bytes` more would exceed memory_mb.
  bool reserve(std::uint64_t bytes);
  void unreserve(std::uint64_t bytes) { allocated -= bytes; }
  std::uint64_t max_alloc() const;
};

struct Platform {
  using Handle = cl_platform_id;
  const cl_icd_dispatch *dispatch = &dispatch_table;
  Config config;
  std::vector<std::unique_ptr<Device>> devices;
  Faults faults;  // UNICL_SIM_FAIL

  bool owns(Device *d) const;
};

// The platform, or null when no valid configuration was found.
Platform *platform();

struct Context : Object<Context> {
  using Handle = cl_context;
  static constexpr std::uint32_t kMagic = 0x43545854;  // "CTXT"
  std::vector<Device *> devices;
  std::vector<cl_context_properties> properties;  // as given, 0-terminated, or empty

  bool has(Device *d) const;
};

struct Queue : Object<Queue> {
  using Handle = cl_command_queue;
  static constexpr std::uint32_t kMagic = 0x51554555;  // "QUEU"
  std::shared_ptr<Context> context;
  Device *device = nullptr;
  cl_command_queue_properties properties = 0;

  std::mutex mutex;                                  // guards the three fields below
  std::weak_ptr<Event> last;                     // in-order: every command waits for the previous one
  std::weak_ptr<Event> barrier;                  // out-of-order: the latest barrier
  std::vector<std::weak_ptr<Event>> unfinished;  // for clFinish, markers and barriers

  bool in_order() const { return !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
  bool profiling() const { return properties & CL_QUEUE_PROFILING_ENABLE; }
};

struct FreeDeleter {
  void operator()(std::byte *p) const { std::free(p); }
};

struct Memory : Object<Memory> {
  using Handle = cl_mem;
  static constexpr std::uint32_t kMagic = 0x4d454d4f;  // "MEMO"
  std::shared_ptr<Context> context;
  std::shared_ptr<Memory> parent;  // a sub-buffer keeps its buffer (and so its bytes) alive
  cl_mem_flags flags = 0;
  size_t size = 0;
  size_t offset = 0;           // in the parent, for sub-buffers
  void *host_ptr = nullptr;    // CL_MEM_HOST_PTR: what the application gave with CL_MEM_USE_HOST_PTR
  std::byte *data = nullptr;   // where the bytes live: storage, host_ptr or the parent's data + offset
  std::uint64_t accounted = 0; // bytes reserved on every device of the context

  struct Mapping {
    size_t size;
    cl_map_flags flags;
  };
  std::mutex mutex;                           // guards the two fields below
  std::multimap<void *, Mapping> mappings;    // pointer returned by clEnqueueMapBuffer
  std::vector<std::pair<void(CL_CALLBACK *)(cl_mem, void *), void *>> destructor_callbacks;

  std::unique_ptr<std::byte, FreeDeleter> storage;
  // Correctness mode: PoCL's CL_MEM_USE_HOST_PTR buffer over `data`. Declared
  // after `storage` so it is released before the bytes it points to.
  std::shared_ptr<void> pocl;

  ~Memory();
};

struct Program : Object<Program> {
  using Handle = cl_program;
  static constexpr std::uint32_t kMagic = 0x50524f47;  // "PROG"
  std::shared_ptr<Context> context;
  std::string source;
  std::vector<KernelSignature> kernels;

  std::mutex mutex;  // guards the fields below
  bool built = false;
  std::string options;
  std::shared_ptr<void> pocl;  // correctness mode: the same source built by PoCL, on first launch
};

struct Kernel : Object<Kernel> {
  using Handle = cl_kernel;
  static constexpr std::uint32_t kMagic = 0x4b45524e;  // "KERN"
  std::shared_ptr<Program> program;
  const KernelSignature *signature = nullptr;  // in program->kernels

  struct Arg {
    bool set = false;
    std::vector<std::byte> bytes;  // the value; for buffers the Memory *handle; empty for __local
    size_t local_size = 0;
  };
  std::mutex mutex;  // guards args
  std::vector<Arg> args;
  std::shared_ptr<void> pocl;  // correctness mode: PoCL's kernel of the same name (used under the bridge lock)
};

struct Event : Object<Event> {
  using Handle = cl_event;
  static constexpr std::uint32_t kMagic = 0x45564e54;  // "EVNT"
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  std::shared_ptr<Context> context;
  std::shared_ptr<Queue> queue;  // null for user events
  cl_command_type type = CL_COMMAND_USER;
  std::atomic<cl_int> status{CL_QUEUED};
  // Profiling, steady-clock nanoseconds; written by the worker before the
  // status they belong to is published.
  std::uint64_t queued = 0, submitted = 0, started = 0, ended = 0;

  std::mutex mutex;
  std::condition_variable changed;
  struct Pending {
    cl_int level;  // CL_SUBMITTED, CL_RUNNING or CL_COMPLETE
    Callback fn;
    void *user_data;
  };
  std::vector<Pending> callbacks;  // not fired yet
  bool user_status_set = false;     // clSetUserEventStatus was called

  bool done() const { return status.load() <= CL_COMPLETE; }
  // Publishes a new status: fires the callbacks it reaches (on this thread),
  // wakes clWaitForEvents and the device workers.
  void set_status(cl_int s);
  void add_callback(cl_int level, Callback fn, void *user_data);
  void wait();
};

}  // namespace sim
