#pragma once
#include <memory>
#include <vector>

#include "context.hpp"
#include "task.hpp"

struct _cl_command_queue : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Queue;
  _cl_command_queue() : ObjectHeader(kKind) {}
  unicl::Ref<_cl_context> context;
  unicl::Ref<_cl_device_id> device;
  size_t slot = 0;
  unicl::VendorRef<cl_command_queue> vendor;
  cl_command_queue_properties properties = 0;
  std::vector<cl_queue_properties> property_list;  // for CL_QUEUE_PROPERTIES_ARRAY
  bool profiling() const { return properties & CL_QUEUE_PROFILING_ENABLE; }
  bool in_order() const { return !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }

  // Multi-device contexts, guarded by context->mutex: what later commands
  // of this queue must follow while it is not yet submitted (submitted
  // commands are ordered by the vendor queue itself).
  std::shared_ptr<unicl::Task> last;                        // in-order: last command; else last barrier
  std::vector<std::shared_ptr<unicl::Task>> since_barrier;  // out-of-order: commands after `last`
};
