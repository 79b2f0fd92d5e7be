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
#include <vector>

#include "cl.hpp"
#include "config.hpp"
#include "fault.hpp"
#include "kernel_source.hpp"
#include "worker.hpp"

namespace sim {

extern const cl_icd_dispatch dispatch_table;  // dispatch.cpp

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
T *hand_out(const std::shared_ptr<T> &p) {
  p->self = p;
  return p.get();
}

// The object behind an application handle, or null if it is not one of ours
// of the expected type.
template <class T>
T *checked(T *h) {
  return h && h->dispatch == &dispatch_table && h->magic == T::kMagic ? h : nullptr;
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

}  // namespace sim

// The platform and its devices are immortal: created at the first
// clIcdGetPlatformIDsKHR, never destroyed (worker threads may still run
// while the process exits).
struct _cl_device_id {
  const cl_icd_dispatch *dispatch = &sim::dispatch_table;
  sim::DeviceConfig config;
  cl_platform_id platform = nullptr;
  std::atomic<std::uint64_t> allocated{0};  // bytes of buffers created in contexts with this device
  sim::Worker worker;
  sim::Worker copier;  // transfers, when config.copy_engine

  // Memory accounting: false when `bytes` more would exceed memory_mb.
  bool reserve(std::uint64_t bytes);
  void unreserve(std::uint64_t bytes) { allocated -= bytes; }
  std::uint64_t max_alloc() const;
};

struct _cl_platform_id {
  const cl_icd_dispatch *dispatch = &sim::dispatch_table;
  sim::Config config;
  std::vector<std::unique_ptr<_cl_device_id>> devices;
  sim::Faults faults;  // UNICL_SIM_FAIL

  bool owns(cl_device_id d) const;
};

namespace sim {
// The platform, or null when no valid configuration was found.
cl_platform_id platform();
}  // namespace sim

struct _cl_context : sim::Object<_cl_context> {
  static constexpr std::uint32_t kMagic = 0x43545854;  // "CTXT"
  std::vector<cl_device_id> devices;
  std::vector<cl_context_properties> properties;  // as given, 0-terminated, or empty

  bool has(cl_device_id d) const;
};

struct _cl_command_queue : sim::Object<_cl_command_queue> {
  static constexpr std::uint32_t kMagic = 0x51554555;  // "QUEU"
  std::shared_ptr<_cl_context> context;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;

  std::mutex mutex;                                  // guards the three fields below
  std::weak_ptr<_cl_event> last;                     // in-order: every command waits for the previous one
  std::weak_ptr<_cl_event> barrier;                  // out-of-order: the latest barrier
  std::vector<std::weak_ptr<_cl_event>> unfinished;  // for clFinish, markers and barriers

  bool in_order() const { return !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
  bool profiling() const { return properties & CL_QUEUE_PROFILING_ENABLE; }
};

namespace sim {
struct FreeDeleter {
  void operator()(std::byte *p) const { std::free(p); }
};
}  // namespace sim

struct _cl_mem : sim::Object<_cl_mem> {
  static constexpr std::uint32_t kMagic = 0x4d454d4f;  // "MEMO"
  std::shared_ptr<_cl_context> context;
  std::shared_ptr<_cl_mem> parent;  // a sub-buffer keeps its buffer (and so its bytes) alive
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

  std::unique_ptr<std::byte, sim::FreeDeleter> storage;
  // Correctness mode: PoCL's CL_MEM_USE_HOST_PTR buffer over `data`. Declared
  // after `storage` so it is released before the bytes it points to.
  std::shared_ptr<void> pocl;

  ~_cl_mem();
};

struct _cl_program : sim::Object<_cl_program> {
  static constexpr std::uint32_t kMagic = 0x50524f47;  // "PROG"
  std::shared_ptr<_cl_context> context;
  std::string source;
  std::vector<sim::KernelSignature> kernels;

  std::mutex mutex;  // guards the fields below
  bool built = false;
  std::string options;
  std::shared_ptr<void> pocl;  // correctness mode: the same source built by PoCL, on first launch
};

struct _cl_kernel : sim::Object<_cl_kernel> {
  static constexpr std::uint32_t kMagic = 0x4b45524e;  // "KERN"
  std::shared_ptr<_cl_program> program;
  const sim::KernelSignature *signature = nullptr;  // in program->kernels

  struct Arg {
    bool set = false;
    std::vector<std::byte> bytes;  // the value; for buffers the cl_mem handle; empty for __local
    size_t local_size = 0;
  };
  std::mutex mutex;  // guards args
  std::vector<Arg> args;
  std::shared_ptr<void> pocl;  // correctness mode: PoCL's kernel of the same name (used under the bridge lock)
};

struct _cl_event : sim::Object<_cl_event> {
  static constexpr std::uint32_t kMagic = 0x45564e54;  // "EVNT"
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  std::shared_ptr<_cl_context> context;
  std::shared_ptr<_cl_command_queue> queue;  // null for user events
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
