// Programs: one vendor program per device slot of the program's devices.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backend/lock_rules.hpp"
#include "core/context.hpp"
#include "core/program_analysis.hpp"

struct _cl_program : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Program;
  _cl_program() : ObjectHeader(kKind) {}
  unicl::Ref<_cl_context> context;
  std::vector<cl_device_id> devices;                      // the program's devices, in order
  std::vector<unicl::VendorRef<cl_program>> per_slot;     // indexed by context slot
  std::atomic<int> attached_kernels{0};
  unicl::CheckedMutex build_mutex;
  // Per slot, the options the application built or compiled with, which
  // CL_PROGRAM_BUILD_OPTIONS answers (the vendor got UniCL's per-device
  // macros before them); guarded by build_mutex.
  std::vector<std::optional<std::string>> build_options;
  // The source it was made from (empty for a program from binaries, IL or
  // a link), for the kernel analysis.
  std::string source;
  // The kernel analysis of its last build from source in a context of
  // several devices (null: none); guarded by build_mutex, never changed
  // while kernels made from it live (a build fails then).
  std::shared_ptr<unicl::ProgramAnalysis> analysis;
  cl_program first_vendor() const {
    for (auto &p : per_slot)
      if (p) return p.get();
    return nullptr;
  }
  // The slots a call naming (num, list) devices reaches: every slot with a
  // vendor program when the list is empty; with a list, those devices and
  // the devices of their partitions (with_partition_relatives).
  cl_int slots_for(cl_uint num, const cl_device_id *list, std::vector<size_t> &slots);
  // The options a build for `slot` passes to its vendor; records the
  // application's own (caller holds build_mutex).
  std::string options_for(size_t slot, const char *options);
  // The macros a build for `slot` defines before the application's options
  // (the device's type), empty for a source that does not name them.
  std::string device_macros(size_t slot) const;
  // CL_PROGRAM_BINARY_SIZES and CL_PROGRAM_BINARIES, one per device in the
  // order of `devices` (program_binaries.cpp): a composite context's
  // program has one binary, holding its members'. `out` holds as many
  // pointers as there are devices; a null one is skipped.
  cl_int binary_sizes(std::vector<size_t> &sizes);
  cl_int binaries(unsigned char **out);
  // A question of the built program (CL_PROGRAM_NUM_KERNELS,
  // CL_PROGRAM_KERNEL_NAMES), answered by a device it was built for.
  cl_int built_info(cl_program_info param, size_t size, void *value, size_t *size_ret);
  // What the kernel analysis of its last build said (empty: none).
  std::string analysis_verdicts();
  // Combines per-device results: a build failure wins over other errors.
  static cl_int combine_build_results(cl_int so_far, cl_int next);
  // A build from source for `slots` with `options` begins: in a context of
  // several devices, starts the analysis of what its kernels touch (caller
  // holds build_mutex).
  void begin_analysis(const std::vector<size_t> &slots, const char *options);
  // The build ended after `build_time`: waits for the analysis as long as
  // a small part of that (caller holds build_mutex).
  void await_analysis(std::chrono::nanoseconds build_time);
};

namespace unicl {
// A program of `ctx` with no vendor program yet.
Ref<_cl_program> new_program(cl_context ctx);
// The program that links `inputs` on each of `slots` where the vendor can
// (`result`: the combined results, a link failure first); null, with the
// error in `result`, when no slot could.
Ref<_cl_program> link_program(cl_context ctx, const std::vector<size_t> &slots, const char *options,
                              std::span<const cl_program> inputs, cl_int &result);
// Adds to `slots` every slot `usable` accepts whose device shares its root
// device with a slot listed (see program.cpp).
void with_partition_relatives(const _cl_context &ctx, std::vector<size_t> &slots, const std::function<bool(size_t)> &usable);
// The slots a device list names: each listed device's, then their
// partitions' that `usable` accepts (with_partition_relatives); without a
// list, every slot `usable` accepts. A device not of the context is
// CL_INVALID_DEVICE (`not_ours` says why), and so is one whose slot
// `usable` refuses when `listed_must_be_usable` (else what is done on the
// slots refuses it).
struct DeviceList {
  cl_uint num = 0;
  const cl_device_id *list = nullptr;
};
cl_int slots_of(const _cl_context &ctx, DeviceList devices, const std::function<bool(size_t)> &usable,
                bool listed_must_be_usable, const char *not_ours, std::vector<size_t> &slots);
}  // namespace unicl
