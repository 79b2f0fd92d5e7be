// A command buffer (cl_khr_command_buffer) of a context of one device: a
// wrapper of the vendor's, which records and replays the vendor's commands
// on the vendor's queue. Contexts of several devices have none: there each
// command is placed and made coherent when it runs, which a replay of
// recorded vendor commands would bypass.
#pragma once
#include <mutex>
#include <vector>

#include "backend/vendor_command_buffer.hpp"
#include "core/queue.hpp"

struct _cl_command_buffer_khr : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::CommandBuffer;
  _cl_command_buffer_khr(unicl::Ref<_cl_command_queue> q, unicl::VendorCommandBuffer made)
      : ObjectHeader(kKind), queue(std::move(q)), vendor(std::move(made)) {}
  unicl::Ref<_cl_command_queue> queue;  // the one queue it records for
  // Copies of the vendor kernels its launches recorded, with the arguments
  // they had then, kept as long as it is; declared before `vendor`, which
  // goes first.
  std::vector<unicl::VendorRef<cl_kernel>> recorded_kernels;
  std::mutex mutex;  // guards recorded_kernels
  unicl::VendorCommandBuffer vendor;
};
