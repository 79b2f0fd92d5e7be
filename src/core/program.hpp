// Programs: one vendor program per device slot of the program's devices.
#pragma once
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/context.hpp"

struct _cl_program : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Program;
  _cl_program() : ObjectHeader(kKind) {}
  unicl::Ref<_cl_context> context;
  std::vector<cl_device_id> devices;                      // the program's devices, in order
  std::vector<unicl::VendorRef<cl_program>> per_slot;     // indexed by context slot
  std::atomic<int> attached_kernels{0};
  std::mutex build_mutex;
  // Per slot, the options the application built or compiled with, which
  // CL_PROGRAM_BUILD_OPTIONS answers (the vendor got UniCL's per-device
  // macros before them); guarded by build_mutex.
  std::vector<std::optional<std::string>> build_options;
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
  // Combines per-device results: a build failure wins over other errors.
  static cl_int combine_build_results(cl_int so_far, cl_int next);
};

namespace unicl {
// A program of `ctx` with no vendor program yet.
Ref<_cl_program> new_program(cl_context ctx);
// Adds to `slots` every slot `usable` accepts whose device shares its root
// device with a slot listed (see program.cpp).
void with_partition_relatives(const _cl_context &ctx, std::vector<size_t> &slots, const std::function<bool(size_t)> &usable);
}  // namespace unicl
