#pragma once
#include <vector>

#include "context.hpp"

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
};
