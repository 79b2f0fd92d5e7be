// Divided launches (cl_unicl_divide, CL/cl_ext_unicl.h) as the core knows
// them: what a kernel carries, what the event of a divided launch reports,
// and the seam to the granularity layer (granularity/), which runs divided
// launches and chooses their factors. The core never includes that layer:
// it installs a GranularityService into the runtime at start-up.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <optional>

#include "backend/cl_headers.hpp"
#include "CL/cl_ext_unicl.h"
#include "core/kernel_split.hpp"

struct _cl_command_queue;
struct _cl_kernel;

namespace unicl {

class Task;

// A kernel's divide function and its range of factors.
struct DivideFunction {
  cl_divide_function_unicl fn = nullptr;
  void *user_data = nullptr;
  cl_uint min_factor = 1, max_factor = 1;
};

// Host-clock nanoseconds (steady clock): the times a divided launch's event
// reports (cl_ext_unicl.h).
cl_ulong host_clock_ns();

// What the event of a divided launch reports beyond its own command.
struct DivisionRecord {
  cl_uint factor = 0;  // 0: ran undivided
  // The launch's failure (the divide function's error, or the first failure
  // among its pieces); CL_SUCCESS while none.
  std::atomic<cl_int> error{CL_SUCCESS};
  // Host-clock nanoseconds (steady clock): the enqueue call, the divide
  // function's return, the launch's start (its wait list and queue order
  // satisfied) and the end of its last piece. Each written once, END before
  // the event can complete.
  std::atomic<cl_ulong> queued{0}, submitted{0}, started{0}, ended{0};
  // START as known: when the launch was seen able to start, or, if that
  // was not seen first, when its divide function returned.
  cl_ulong start() {
    cl_ulong none = 0;
    started.compare_exchange_strong(none, submitted.load());
    return started;
  }

  // Commands the divide function enqueued (on a thread inside a
  // DivisionScope), for the devices they ran on.
  void add_piece(std::shared_ptr<Task> t) {
    std::lock_guard lock(mutex_);
    pieces_.push_back(std::move(t));
  }
  std::vector<std::shared_ptr<Task>> pieces() {
    std::lock_guard lock(mutex_);
    return pieces_;
  }

  // The built-in divider's launches: the split its pieces touch their
  // buffers by (the kernel's declaration, or the one inferred for this
  // launch), set before its pieces are enqueued, on their thread.
  std::optional<KernelSplit> split;

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<Task>> pieces_;
};

// The thread is running a divide function (or the undivided launch standing
// for one): commands enqueued meanwhile are pieces of `record`, and no
// launch is divided again. Nests.
class DivisionScope {
 public:
  explicit DivisionScope(DivisionRecord &record);
  ~DivisionScope();
  DivisionScope(const DivisionScope &) = delete;
  DivisionScope &operator=(const DivisionScope &) = delete;
  // The record of the innermost scope of this thread, or null.
  static DivisionRecord *current();

 private:
  DivisionRecord *previous_;
};

// While it lives, launches this thread makes on scheduled queues may only
// go to context slot `slot` (the built-in divider places each piece on the
// device whose share it computed). Nests.
class PinnedSlot {
 public:
  explicit PinnedSlot(size_t slot);
  ~PinnedSlot();
  PinnedSlot(const PinnedSlot &) = delete;
  PinnedSlot &operator=(const PinnedSlot &) = delete;
  static constexpr size_t kNone = ~size_t{0};
  static size_t current();

 private:
  size_t previous_;
};

// A kernel launch as clEnqueueNDRangeKernel (or clEnqueueTask) was called.
struct KernelLaunch {
  _cl_command_queue *queue;
  _cl_kernel *kernel;
  cl_uint dim;
  const size_t *offset, *global, *local;
  cl_uint num_events;
  const cl_event *events;
  cl_event *event;
  cl_command_type type;

  // Work-items of the whole launch.
  size_t items() const {
    size_t n = 1;
    for (cl_uint i = 0; i < dim; ++i) n *= global[i];
    return n;
  }
};

// A launch of a kernel carrying a divide function, or a split (declared
// with clSetKernelSplitUNICL, or inferred from the kernel's source for
// this launch: the built-in divider cuts it), on a scheduled queue
// (validated).
struct DividedLaunch : KernelLaunch {
  DivideFunction divide;            // as it was at the call; fn null: the built-in divider
  std::optional<KernelSplit> split;  // the built-in divider's
  // The kernel's results do not depend on its work-group size (its analysis
  // found nothing that observes it). Then a launch that leaves the size to
  // the device gets one for its pieces (piece_group): a vendor that compiles
  // a kernel per work-group size (PoCL) compiles the pieces once, not once
  // per piece size, and what the pieces compute is what the launch does.
  bool groups_free = false;
  cl_uint split_dim() const { return split ? split->dim : 0; }
  // Work-items per work-group along the split dimension, which pieces are
  // whole multiples of (the last may hold the rest when no size was given):
  // the application's size; else, for a kernel free of work-groups, up to
  // 64 while that leaves 8 groups to share out; else 1.
  size_t piece_group() const {
    if (local) return local[split_dim()] ? local[split_dim()] : 1;
    if (!groups_free) return 1;
    size_t g = 64;
    while (g > 1 && global[split_dim()] / g < 8) g /= 2;
    return g;
  }
};

class GranularityService {
 public:
  virtual ~GranularityService() = default;
  // Runs `launch` undivided or through its divide function; returns what
  // clEnqueueNDRangeKernel returns.
  virtual cl_int run_divided(const DividedLaunch &launch) = 0;
  // The strategy names, the default first: the one list for messages and
  // usage text.
  virtual const std::vector<std::string> &strategy_names() const = 0;
};

}  // namespace unicl
