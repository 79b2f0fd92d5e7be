#include "core/device_info.hpp"

#include <unistd.h>

#include <sstream>
#include <string>

#include "backend/vendor_info.hpp"
#include "core/composite_device.hpp"
#include "core/info.hpp"
#include "core/refusal.hpp"
#include "core/runtime.hpp"
#include "core/svm.hpp"

namespace unicl {

template <>
void release<_cl_device_id>(_cl_device_id *d) {
  if (d->is_root()) return;
  if (d->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  cl_device_id parent = d->parent;
  d->kind.store(Kind::Dead, std::memory_order_release);
  std::destroy_at(d);
  void *slot = static_cast<void *>(d);
  std::construct_at(static_cast<ObjectHeader *>(slot), Kind::Dead);
  pool_for(Kind::Device, sizeof(_cl_device_id)).give_back(slot);
  release(parent);  // a sub-device holds its parent
}

namespace {

bool valid_device_type(cl_device_type t) {
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  return t == CL_DEVICE_TYPE_ALL || (t != 0 && (t & ~known) == 0);
}

template <class T>
T vendor_scalar(cl_device_id d, cl_device_info param, T fallback) {
  return vendor_value<T>(d->vendor, param, fallback);
}

std::string vendor_device_string(cl_device_id d, cl_device_info param) { return vendor_text(d->vendor, param); }

// cl_khr_command_buffer is forwarded for devices of this machine whose
// vendor hands out all of its entry points (api/command_buffer.cpp).
bool device_extension_passes(cl_device_id d, const std::string &name) {
  if (name == "cl_khr_command_buffer") return d->node == 0 && d->command_buffers;
  return extension_passes(name);
}

std::string filtered_extensions(cl_device_id d) {
  std::istringstream in(vendor_device_string(d, CL_DEVICE_EXTENSIONS));
  std::string out;
  for (std::string ext; in >> ext;)
    if (device_extension_passes(d, ext)) out += (out.empty() ? "" : " ") + ext;
  return out;
}

// Answers to OpenCL 3.0 queries for devices of 1.x/2.x vendors, and for
// optional features UniCL does not wrap (pipes, device-side enqueue,
// intermediate languages): the values the spec gives for "not supported".
cl_int unsupported_feature_answer(cl_device_id d, cl_device_info param, size_t size, void *value,
                                  size_t *size_ret, bool vendor_failed) {
  switch (param) {
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
      return info_value<cl_bitfield>(size, value, size_ret, 0);
    case CL_DEVICE_PIPE_SUPPORT:
      return info_value<cl_bool>(size, value, size_ret, CL_FALSE);
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
      return info_value<cl_uint>(size, value, size_ret, 0);
    case CL_DEVICE_IL_VERSION:
      return info_string(size, value, size_ret, "");
    case CL_DEVICE_ILS_WITH_VERSION:
      return info_bytes(size, value, size_ret, nullptr, 0);
    default:
      break;
  }
  if (!vendor_failed) return CL_INVALID_VALUE;
  switch (param) {
    case CL_DEVICE_NUMERIC_VERSION: {
      unsigned v = parse_cl_version(vendor_device_string(d, CL_DEVICE_VERSION));
      return info_value<cl_version>(size, value, size_ret, CL_MAKE_VERSION(v / 100, v / 10 % 10, 0));
    }
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
      std::vector<cl_name_version> all;
      unsigned c = 0, major = 0, minor = 0;
      if (std::sscanf(vendor_device_string(d, CL_DEVICE_OPENCL_C_VERSION).c_str(), "OpenCL C %u.%u", &major,
                      &minor) == 2)
        c = major * 10 + minor;
      for (unsigned v : {10u, 11u, 12u, 20u, 30u})
        if (v <= c) all.push_back({CL_MAKE_VERSION(v / 10, v % 10, 0), "OpenCL C"});
      return info_vector(size, value, size_ret, all);
    }
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
      std::vector<cl_name_version> all;
      std::istringstream in(filtered_extensions(d));
      for (std::string ext; in >> ext;) {
        cl_name_version nv{CL_MAKE_VERSION(1, 0, 0), {}};
        ext.copy(nv.name, sizeof nv.name - 1);
        all.push_back(nv);
      }
      return info_vector(size, value, size_ret, all);
    }
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    case CL_DEVICE_OPENCL_C_FEATURES:
      return info_bytes(size, value, size_ret, nullptr, 0);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
      return info_value<cl_bitfield>(size, value, size_ret,
                                     CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
      return info_value<cl_bitfield>(size, value, size_ret,
                                     CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                         CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      return info_value<cl_bool>(size, value, size_ret, CL_FALSE);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
      return info_value<cl_uint>(size, value, size_ret, 0);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
      return info_value<size_t>(size, value, size_ret, 0);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return info_value<size_t>(size, value, size_ret, 1);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return info_value<cl_bitfield>(size, value, size_ret,
                                     vendor_scalar<cl_bitfield>(d, CL_DEVICE_QUEUE_PROPERTIES, 0));
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      return info_string(size, value, size_ret, "v0000-01-01-00");
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace

bool extension_passes(const std::string &name) {
  // Extensions whose host entry points UniCL does not wrap (yet): passing
  // them through would hand applications null function pointers.
  static constexpr const char *kBlocked[] = {
      "cl_khr_il_program",        "cl_khr_subgroups",     "cl_khr_command_buffer_", "cl_khr_gl_",
      "cl_khr_egl_",              "cl_khr_d3d",           "cl_khr_dx9",            "cl_khr_external",
      "cl_khr_semaphore",         "cl_khr_suggested_local_work_size",              "cl_khr_create_command_queue",
      "cl_khr_terminate_context", "cl_khr_priority_hints", "cl_khr_throttle_hints", "cl_khr_image2d_from_buffer",
      "cl_khr_mipmap_image",      "cl_khr_spirv"};
  if (name.rfind("cl_khr_", 0) != 0) return false;  // vendor-specific host APIs are not wrapped
  for (const char *b : kBlocked)
    if (name.rfind(b, 0) == 0) return false;
  return true;
}

cl_device_type vendor_device_type(cl_device_id d) {
  if (d->is_composite()) return composite_type(*d);
  return vendor_scalar<cl_device_type>(d, CL_DEVICE_TYPE, CL_DEVICE_TYPE_CPU);
}

cl_device_id default_device() {
  // Prefer accelerators, then the CPU device with the most compute units:
  // the default should be the device a single-device program runs best on.
  cl_device_id best = nullptr;
  long best_score = -1;
  for (cl_device_id d : Runtime::get().platform()->devices) {
    cl_device_type t = vendor_device_type(d);
    long score = (t & CL_DEVICE_TYPE_GPU) ? 3000000 : (t & CL_DEVICE_TYPE_ACCELERATOR) ? 2000000 : 0;
    cl_uint units = 1;
    device_info(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
    score += units;
    if (t & CL_DEVICE_TYPE_CUSTOM) continue;
    if (score > best_score) best = d, best_score = score;
  }
  return best;
}

cl_int device_info(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  if (d->is_composite()) return composite_info(*d, param, size, value, size_ret);
  switch (param) {
    case CL_DEVICE_PLATFORM: return info_value(size, value, size_ret, Runtime::get().platform());
    case CL_DEVICE_PARENT_DEVICE: return info_value(size, value, size_ret, d->parent);
    case CL_DEVICE_REFERENCE_COUNT:
      return info_value<cl_uint>(size, value, size_ret, d->is_root() ? 1 : d->refs.load());
    case CL_DEVICE_EXTENSIONS: return info_string(size, value, size_ret, filtered_extensions(d));
    case CL_DEVICE_TYPE: {
      cl_device_type t = vendor_device_type(d);
      if (d->is_root() && d == default_device()) t |= CL_DEVICE_TYPE_DEFAULT;
      else t &= ~cl_device_type{CL_DEVICE_TYPE_DEFAULT};
      return info_value(size, value, size_ret, t);
    }
    case CL_DEVICE_NODE_UNICL:
    case CL_DEVICE_NODE_HOST_UNICL:
    case CL_DEVICE_NODE_TOPOLOGY_UNICL:
    case CL_DEVICE_NODE_LINK_UNICL:
    case CL_DEVICE_NODE_LINKS_UNICL: {
      // A node's device answers itself (its vendor is UniCL's node client);
      // a device of this machine is here.
      size_t needed = 0;
      if (vendor_info(d->vendor, param, 0, nullptr, &needed) == CL_SUCCESS)
        return vendor_info(d->vendor, param, size, value, size_ret);
      if (param == CL_DEVICE_NODE_UNICL) return info_value<cl_uint>(size, value, size_ret, 0);
      if (param == CL_DEVICE_NODE_TOPOLOGY_UNICL) return info_string(size, value, size_ret, std::string());
      if (param == CL_DEVICE_NODE_LINK_UNICL) {
        const cl_double none[2] = {0, 0};
        return info_bytes(size, value, size_ret, none, sizeof none);
      }
      if (param == CL_DEVICE_NODE_LINKS_UNICL) return info_bytes(size, value, size_ret, nullptr, 0);
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      return info_string(size, value, size_ret, std::string(host));
    }
    case CL_DEVICE_SVM_CAPABILITIES:
      return info_value<cl_device_svm_capabilities>(size, value, size_ret, device_svm_capabilities(*d));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
      if (d->vendor_version >= 300) {
        std::vector<cl_name_version> kept;
        for (const auto &nv : vendor_array<cl_name_version>(d->vendor, param))
          if (device_extension_passes(d, nv.name)) kept.push_back(nv);
        return info_vector(size, value, size_ret, kept);
      }
      break;
    default:
      break;
  }
  if (cl_int err = unsupported_feature_answer(d, param, size, value, size_ret, false); err != CL_INVALID_VALUE)
    return err;
  cl_int err = vendor_info(d->vendor, param, size, value, size_ret);
  if (err == CL_INVALID_VALUE && d->vendor_version < 300) {
    // Distinguish "size too small" from "query unknown to this vendor".
    size_t needed = 0;
    if (vendor_info(d->vendor, param, 0, nullptr, &needed) == CL_INVALID_VALUE)
      return unsupported_feature_answer(d, param, size, value, size_ret, true);
  }
  return err;
}

cl_platform_id platform_or_default(cl_platform_id p) {
  cl_platform_id ours = Runtime::get().platform();
  return (p == nullptr || p == ours) ? ours : nullptr;
}

cl_int devices_of_type(cl_device_type type, std::vector<cl_device_id> &out) {
  if (!valid_device_type(type)) return refuse(CL_INVALID_DEVICE_TYPE, "device_type is not a combination of the device types");
  const auto &all = Runtime::get().platform()->devices;
  if (type == CL_DEVICE_TYPE_DEFAULT) {
    if (cl_device_id d = default_device()) out.push_back(d);
  } else {
    for (cl_device_id d : all) {
      cl_device_type t = vendor_device_type(d);
      bool match = type == CL_DEVICE_TYPE_ALL ? !(t & CL_DEVICE_TYPE_CUSTOM) : (t & type) != 0;
      if (type & CL_DEVICE_TYPE_DEFAULT && d == default_device()) match = true;
      if (match) out.push_back(d);
    }
  }
  return out.empty() ? CL_DEVICE_NOT_FOUND : CL_SUCCESS;
}

}  // namespace unicl
