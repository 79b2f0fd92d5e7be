// The node client's kernel launches: checked on rank 0 against the device's
// limits and the kernel's build (the node's vendor is not asked), and
// posted with the arguments that changed since the kernel's previous launch
// (programs.cpp, changed_args).
#include <cstdio>
#include <string>

#include "cluster/client/enqueue.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
using namespace unicl::cluster;

namespace {

// The OpenCL version of a device, as major * 10 + minor ("OpenCL 3.0 ...": 30).
int version_of(RemoteDevice *d) {
  auto it = d->info.find(CL_DEVICE_VERSION);
  int major = 1, minor = 0;
  if (it != d->info.end()) std::sscanf(std::string(it->second.begin(), it->second.end()).c_str(), "OpenCL %d.%d", &major, &minor);
  return major * 10 + minor;
}

// Whether launches of `k` may have work-groups of unequal sizes: OpenCL C
// 2.0 on, a device that has them, and a build that did not forbid them.
bool non_uniform(RemoteKernel *k, RemoteDevice *d) {
  std::string options;
  {
    std::lock_guard lock(k->program->mutex);
    options = k->program->options;
  }
  if (options.find("-cl-uniform-work-group-size") != std::string::npos) return false;
  if (options.find("-cl-std=CL2.") == std::string::npos && options.find("-cl-std=CL3.") == std::string::npos)
    return false;
  const int version = version_of(d);
  return version >= 20 && (version < 30 || d->value<cl_bool>(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT));
}

// What clEnqueueNDRangeKernel must refuse, from the device's limits and the
// kernel's build (the node's vendor is not asked).
cl_int launch_error(RemoteKernel *k, RemoteDevice *d, cl_uint dims, const size_t *global, const size_t *local) {
  if (dims < 1 || dims > d->value<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, 3)) return cluster::refuse(CL_INVALID_WORK_DIMENSION, "work_dim is 0 or above the device's CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS");
  if (!global) return cluster::refuse(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
  // From OpenCL 2.1 a range of 0 is an empty launch, before an error.
  if (version_of(d) < 21)
    for (cl_uint i = 0; i < dims; ++i)
      if (global[i] == 0) return cluster::refuse(CL_INVALID_GLOBAL_WORK_SIZE, "a global work size is 0 (allowed from OpenCL 2.1 only)");
  size_t required[3] = {0, 0, 0};
  if (auto it = k->facts.work_group.find(CL_KERNEL_COMPILE_WORK_GROUP_SIZE);
      it != k->facts.work_group.end() && it->second.size() >= sizeof required)
    std::memcpy(required, it->second.data(), sizeof required);
  const bool reqd = required[0] || required[1] || required[2];
  if (!local)
    return reqd ? cluster::refuse(CL_INVALID_WORK_GROUP_SIZE, "local_work_size is NULL for a kernel with a reqd_work_group_size")
                : CL_SUCCESS;
  size_t sizes[3] = {0, 0, 0};
  if (auto it = d->info.find(CL_DEVICE_MAX_WORK_ITEM_SIZES); it != d->info.end())
    std::memcpy(sizes, it->second.data(), std::min(it->second.size(), sizeof sizes));
  size_t items = 1;
  for (cl_uint i = 0; i < dims; ++i) {
    if (local[i] == 0) return cluster::refuse(CL_INVALID_WORK_GROUP_SIZE, "a local work size is 0");
    if (reqd && local[i] != (required[i] ? required[i] : 1)) return cluster::refuse(CL_INVALID_WORK_GROUP_SIZE, "local_work_size is not the kernel's reqd_work_group_size");
    items *= local[i];
  }
  // The whole group first, as vendors check it.
  const size_t device_max = d->value<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE, ~size_t{0});
  const size_t kernel_max = info_value<size_t>(k->facts.work_group, CL_KERNEL_WORK_GROUP_SIZE, device_max);
  if (items > std::min(device_max, kernel_max)) return cluster::refuse(CL_INVALID_WORK_GROUP_SIZE, "the work-group size is above the device's or the kernel's CL_KERNEL_WORK_GROUP_SIZE");
  for (cl_uint i = 0; i < dims; ++i)
    if (sizes[i] && local[i] > sizes[i]) return cluster::refuse(CL_INVALID_WORK_ITEM_SIZE, "a local work size is above the device's CL_DEVICE_MAX_WORK_ITEM_SIZES");
  for (cl_uint i = 0; i < dims; ++i)
    if (global[i] % local[i] != 0 && !non_uniform(k, d)) return cluster::refuse(CL_INVALID_WORK_GROUP_SIZE, "a global work size is not a multiple of the local one, and the device has no non-uniform work-groups");
  return CL_SUCCESS;
}

}  // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q_handle, cl_kernel k_handle, cl_uint dims,
                                          const size_t *offset,
                                          const size_t *global, const size_t *local, cl_uint num_wait,
                                          const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *k = remote(k_handle);
  if (!live(q, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  if (!live(k, ObjectKind::kKernel) || k->rank != q->rank) return cluster::refuse(CL_INVALID_KERNEL, "kernel is not a live kernel of command_queue's node");
  if (k->program->context != q->context) return cluster::refuse(CL_INVALID_CONTEXT, "kernel belongs to another context than command_queue");
  return enqueue(q, Op::kNDRange, CL_COMMAND_NDRANGE_KERNEL, num_wait, wait, event, false, [&](Writer &w) {
    if (cl_int err = launch_error(k, q->device, dims, global, local); err != CL_SUCCESS) return err;
    w.put(k->id);
    // Last: it records the arguments as sent.
    if (cl_int err = changed_args(k, w, true); err != CL_SUCCESS) return err;
    write(w, LaunchShape::of(dims, offset, global, local));
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_wait,
                                 const cl_event *wait, cl_event *event) {
  const size_t one = 1;
  return api::clEnqueueNDRangeKernel(command_queue, kernel, 1, nullptr, &one, &one, num_wait, wait, event);
}
}  // namespace unicl::api
