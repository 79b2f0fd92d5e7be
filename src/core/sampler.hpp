#pragma once
#include <vector>

#include "core/context.hpp"

struct _cl_sampler : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Sampler;
  _cl_sampler() : ObjectHeader(kKind) {}
  unicl::Ref<_cl_context> context;
  std::vector<unicl::VendorRef<cl_sampler>> per_slot;
  std::vector<cl_sampler_properties> property_list;
};
