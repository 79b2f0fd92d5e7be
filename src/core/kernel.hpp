// Kernels: one vendor kernel per device slot its program was built for; a
// kernel's arguments are recorded so that memory arguments can be kept
// coherent and kernels cloned.
#pragma once
#include <array>
#include <cstddef>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backend/lock_rules.hpp"
#include "core/division.hpp"
#include "core/kernel_split.hpp"
#include "core/mem_object.hpp"
#include "core/program.hpp"

namespace unicl {
struct ArgMeta {
  bool known = false;        // arg info was available
  bool memory = false;       // global/constant pointer or image
  bool image = false;
  bool sampler = false;
  bool local = false;
  Access access = kReadWrite;
};
struct ArgValue {
  bool set = false;
  size_t size = 0;
  std::vector<std::byte> bytes;  // value as given (for cloning)
  bool memory = false;           // a memory object argument (`mem`, or null)
  cl_mem mem = nullptr;          // UniCL memory object, when the argument is one
  bool null_value = false;
  bool svm = false;              // an SVM pointer (clSetKernelArgSVMPointer), in `bytes`
};
// What a device allows a launch of a kernel, read when the kernel is made:
// a vendor checks them at clEnqueueNDRangeKernel, which in a context of
// several devices it sees only once the launch is planned (too late to
// refuse it), so UniCL checks them first (api/launch_checks.hpp).
struct WorkGroupLimits {
  size_t kernel_size = 0;               // CL_KERNEL_WORK_GROUP_SIZE (0: unknown)
  std::array<size_t, 3> required{};     // CL_KERNEL_COMPILE_WORK_GROUP_SIZE (zeros: none)
  std::array<size_t, 3> item_sizes{};   // CL_DEVICE_MAX_WORK_ITEM_SIZES (zeros: unknown)
  bool non_uniform = false;             // global sizes need not be multiples of the local ones
};
// clSetKernelExecInfo's settings, in the order given.
struct ExecInfo {
  cl_kernel_exec_info param;
  std::vector<std::byte> value;
};
}  // namespace unicl

struct _cl_kernel : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Kernel;
  _cl_kernel() : ObjectHeader(kKind) {}
  ~_cl_kernel();
  unicl::Ref<_cl_program> program;
  std::string name;
  std::vector<unicl::VendorRef<cl_kernel>> per_slot;
  std::vector<unicl::ArgMeta> meta;
  std::vector<unicl::ArgValue> args;
  // Sets argument `index` to `arg` on each vendor kernel, then keeps it in
  // `args`: `arg` was checked against the argument (its memory object, or
  // `sampler`, of this kernel's context); `value` is the application's.
  cl_int set_arg(cl_uint index, unicl::ArgValue arg, cl_sampler sampler, const void *value);
  std::vector<unicl::WorkGroupLimits> limits;  // per slot where it exists
  // Multi-device contexts: per slot, a second vendor kernel that launches
  // use, set up when each is submitted with the arguments it captured (it
  // may be submitted after the application set others, and the replicas of
  // its buffers exist only from then).
  std::vector<unicl::VendorRef<cl_kernel>> launch_per_slot;
  std::optional<unicl::KernelSplit> split;  // clSetKernelSplitUNICL's declaration
  unicl::DivideFunction divide;             // clSetKernelDivideFunctionUNICL's (fn null: none)
  std::vector<unicl::ExecInfo> exec_info;   // applied to each launch kernel as it is made
  // Its program's analysis when it was made (null: none), and the last
  // reason a launch of it could not be split (logged once; guarded by mutex).
  std::shared_ptr<unicl::ProgramAnalysis> analysis;
  std::string split_refusal;
  unicl::CheckedMutex mutex;  // guards args, launch_per_slot, split, divide and exec_info
  // The arguments and declared split as they are now, for a launch (it may
  // be submitted after the application has set others).
  std::pair<std::vector<unicl::ArgValue>, std::optional<unicl::KernelSplit>> launch_state();
  // Per slot of the context, whether the kernel exists there (a scheduled
  // launch may go to any of those).
  std::vector<bool> runnable_slots() const;

  // What the analysis found it touches; null while it runs or without one.
  std::shared_ptr<const unicl::access::KernelAccess> analysed() const {
    return analysis ? analysis->kernel(name) : nullptr;
  }
};

namespace unicl {
// The vendor kernel a launch on `slot` runs (one per slot, apart from the
// kernel the application sets arguments on), with `args` applied, memory
// arguments taken in order from `mems` (the launch's device copies).
// Called when the launch is issued, outside the context lock
// (core/kernel.cpp).
cl_int vendor_kernel_with_args(_cl_kernel *k, const std::vector<ArgValue> &args, std::span<const cl_mem> mems, size_t slot,
                             cl_kernel &out);
}  // namespace unicl
