// The composite device (UNICL_COMPOSITE): one device that stands for
// several, so that a program that takes the first, the default or the only
// device of the platform uses all of them. The platform lists it alone. A
// context of it is a scheduled context of its members (core/context.hpp):
// its queues place each command, its programs build for every member, its
// launches split across them. It answers every device query with what holds
// on each member: limits and sizes the smallest, capabilities and
// extensions those every member has, compute units their sum, its type
// their types.
#pragma once
#include <string>
#include <vector>

#include "core/device.hpp"

namespace unicl {

// The devices the platform lists, given its root devices and
// UNICL_COMPOSITE's value `spec` ("1": all; else name parts, comma-
// separated): the composite of those chosen, made into `composite`, when two
// or more are; else the one chosen, or (none matching) all of them.
std::vector<cl_device_id> listed_devices(const std::vector<cl_device_id> &roots, const std::string &spec,
                                         Ref<_cl_device_id> &composite);

// clGetDeviceInfo of a composite device.
cl_int composite_info(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret);

// The composite's CL_DEVICE_TYPE, without CL_DEVICE_TYPE_DEFAULT: its
// members' types together.
cl_device_type composite_type(const _cl_device_id &c);

}  // namespace unicl
