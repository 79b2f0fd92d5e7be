// The nodes' platforms and devices on rank 0: ICD objects (their first
// member the dispatch table) that answer info queries from what each node
// described at start-up.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cluster/protocol.hpp"

struct _cl_device_id {
  const cl_icd_dispatch *dispatch;
  cl_platform_id platform;
  int rank;          // the node's rank on UniCL's communicator
  uint64_t remote;   // the device's handle on its node
  unicl::cluster::InfoAnswers info;
};

struct _cl_platform_id {
  const cl_icd_dispatch *dispatch;
  int rank;
  uint64_t remote;
  unicl::cluster::InfoAnswers info;
  std::vector<std::unique_ptr<_cl_device_id>> devices;
};

namespace unicl::cluster {

// Where a device or platform of a node says it is, in its names:
// " @ host:rank".
std::string node_label(const std::string &host, int rank);

// Copies an info answer out as clGet*Info does.
cl_int answer(const void *value, size_t n, size_t size, void *out, size_t *size_ret);

}  // namespace unicl::cluster
