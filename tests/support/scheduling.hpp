// Scheduling contexts for tests: a UniCL context with its policy (and
// optionally a memory limit), and device-less queues on it.
#pragma once
#include <CL/cl_ext_unicl.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cl_test.hpp"

namespace cltest {

// `more`: further properties (pairs).
inline cl::Context scheduling_context(const std::vector<cl::Device> &devices, const std::string &policy,
                                      size_t mem_limit = 0, const std::vector<cl_context_properties> &more = {}) {
  std::vector<cl_context_properties> props = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform()(),
                                              CL_CONTEXT_SCHEDULER_UNICL, (cl_context_properties)policy.c_str()};
  if (mem_limit) props.insert(props.end(), {CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL, (cl_context_properties)mem_limit});
  props.insert(props.end(), more.begin(), more.end());
  props.push_back(0);
  return cl::Context(devices, props.data());
}

// A queue created without a device: the context's policy places each command.
inline cl::CommandQueue device_less_queue(const cl::Context &ctx, cl_command_queue_properties props) {
  cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx(), nullptr, list, &err);
  REQUIRE(err == CL_SUCCESS);
  return cl::CommandQueue(q);
}

}  // namespace cltest
