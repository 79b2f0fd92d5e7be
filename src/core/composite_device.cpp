#include "core/composite_device.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

#include "core/device_info.hpp"
#include "core/info.hpp"
#include "core/runtime.hpp"
#include "core/svm.hpp"

namespace unicl {
namespace {

enum class Combine { Min, Max, Sum, And, Same };
enum class Width { U32, U64, Size };

struct Rule {
  cl_device_info param;
  Width width;
  Combine combine;
};

// How each numeric query of the composite follows from its members'
// answers: what holds on every member. One list, read by numeric_answer.
constexpr Rule kRules[] = {
    {CL_DEVICE_VENDOR_ID, Width::U32, Combine::Same},
    {CL_DEVICE_MAX_COMPUTE_UNITS, Width::U32, Combine::Sum},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, Width::U32, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, Width::U32, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, Width::U32, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, Width::U32, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, Width::U32, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, Width::U32, Combine::Min},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, Width::U32, Combine::Min},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_CLOCK_FREQUENCY, Width::U32, Combine::Min},
    {CL_DEVICE_ADDRESS_BITS, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, Width::U64, Combine::Min},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_IMAGE_SUPPORT, Width::U32, Combine::And},
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, Width::U32, Combine::Max},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, Width::U32, Combine::Max},
    {CL_DEVICE_MAX_PARAMETER_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_MAX_SAMPLERS, Width::U32, Combine::Min},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, Width::U32, Combine::Max},
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, Width::U32, Combine::Max},
    {CL_DEVICE_SINGLE_FP_CONFIG, Width::U64, Combine::And},
    {CL_DEVICE_DOUBLE_FP_CONFIG, Width::U64, Combine::And},
    {CL_DEVICE_HALF_FP_CONFIG, Width::U64, Combine::And},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, Width::U32, Combine::Min},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, Width::U32, Combine::Min},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, Width::U64, Combine::Min},
    {CL_DEVICE_GLOBAL_MEM_SIZE, Width::U64, Combine::Min},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, Width::U64, Combine::Min},
    {CL_DEVICE_MAX_CONSTANT_ARGS, Width::U32, Combine::Min},
    {CL_DEVICE_LOCAL_MEM_TYPE, Width::U32, Combine::Max},
    {CL_DEVICE_LOCAL_MEM_SIZE, Width::U64, Combine::Min},
    {CL_DEVICE_ERROR_CORRECTION_SUPPORT, Width::U32, Combine::And},
    {CL_DEVICE_HOST_UNIFIED_MEMORY, Width::U32, Combine::And},
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, Width::Size, Combine::Max},
    {CL_DEVICE_ENDIAN_LITTLE, Width::U32, Combine::And},
    {CL_DEVICE_AVAILABLE, Width::U32, Combine::And},
    {CL_DEVICE_COMPILER_AVAILABLE, Width::U32, Combine::And},
    {CL_DEVICE_LINKER_AVAILABLE, Width::U32, Combine::And},
    {CL_DEVICE_EXECUTION_CAPABILITIES, Width::U64, Combine::And},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, Width::U32, Combine::And},
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, Width::Size, Combine::Min},
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, Width::U32, Combine::Max},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, Width::U32, Combine::Max},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, Width::U32, Combine::Max},
    {CL_DEVICE_MAX_NUM_SUB_GROUPS, Width::U32, Combine::Min},
    {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, Width::U32, Combine::And},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, Width::U64, Combine::And},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, Width::U64, Combine::And},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, Width::U32, Combine::And},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, Width::U32, Combine::And},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, Width::U32, Combine::And},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Width::Size, Combine::Min},
    {CL_DEVICE_NUMERIC_VERSION, Width::U32, Combine::Min},
    {CL_DEVICE_PIPE_SUPPORT, Width::U32, Combine::And},
    {CL_DEVICE_MAX_PIPE_ARGS, Width::U32, Combine::Min},
    {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, Width::U32, Combine::Min},
    {CL_DEVICE_PIPE_MAX_PACKET_SIZE, Width::U32, Combine::Min},
    {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, Width::U64, Combine::And},
    {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, Width::U64, Combine::And},
    {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, Width::U32, Combine::Min},
    {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_ON_DEVICE_QUEUES, Width::U32, Combine::Min},
    {CL_DEVICE_MAX_ON_DEVICE_EVENTS, Width::U32, Combine::Min},
};

// Extensions that name one device (its PCI address, its UUID) or that
// UniCL forwards only to a queue of one device (command buffers): the
// composite has none of them.
// Nor has it SPIR: its programs' binaries are its own (composite_program.hpp).
constexpr const char *kOneDeviceExtensions[] = {"cl_khr_pci_bus_info", "cl_khr_device_uuid", "cl_khr_command_buffer",
                                                "cl_khr_spir"};

bool one_device_extension(const std::string &name) {
  return std::find(std::begin(kOneDeviceExtensions), std::end(kOneDeviceExtensions), name) != std::end(kOneDeviceExtensions);
}

std::string member_text(cl_device_id m, cl_device_info param) {
  size_t n = 0;
  if (device_info(m, param, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (device_info(m, param, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(std::strlen(s.c_str()));
  return s;
}

template <class T>
std::vector<T> member_array(cl_device_id m, cl_device_info param) {
  size_t n = 0;
  if (device_info(m, param, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::vector<T> out(n / sizeof(T));
  if (!out.empty() && device_info(m, param, out.size() * sizeof(T), out.data(), nullptr) != CL_SUCCESS) return {};
  return out;
}

template <class T>
T member_value(cl_device_id m, cl_device_info param) {
  T v{};
  device_info(m, param, sizeof v, &v, nullptr);
  return v;
}

template <class T>
T combine(const std::vector<cl_device_id> &members, cl_device_info param, Combine how) {
  T out = member_value<T>(members[0], param);
  for (size_t i = 1; i < members.size(); ++i) {
    T v = member_value<T>(members[i], param);
    switch (how) {
      case Combine::Min: out = std::min(out, v); break;
      case Combine::Max: out = std::max(out, v); break;
      case Combine::Sum: out += v; break;
      case Combine::And: out &= v; break;
      case Combine::Same: out = out == v ? out : T{0}; break;
    }
  }
  return out;
}

// An answer, or nullopt: not a query this kind of answer covers.
using Answer = std::optional<cl_int>;

// The answer from the rules' table.
Answer numeric_answer(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  for (const Rule &r : kRules) {
    if (r.param != param) continue;
    switch (r.width) {
      case Width::U32: return info_value(size, value, size_ret, combine<cl_uint>(c.members, param, r.combine));
      case Width::U64: return info_value(size, value, size_ret, combine<cl_ulong>(c.members, param, r.combine));
      case Width::Size: return info_value(size, value, size_ret, combine<size_t>(c.members, param, r.combine));
    }
  }
  return std::nullopt;
}

// The words every member lists (separated by `sep`), in the first member's order.
std::string common_words(const std::vector<cl_device_id> &members, cl_device_info param, char sep) {
  auto words = [sep](const std::string &s) {
    std::vector<std::string> out;
    std::string w;
    std::istringstream in(s);
    while (std::getline(in, w, sep)) {
      w.erase(0, w.find_first_not_of(' '));
      w.erase(w.find_last_not_of(' ') + 1);
      if (!w.empty()) out.push_back(w);
    }
    return out;
  };
  std::vector<std::string> kept = words(member_text(members[0], param));
  for (size_t i = 1; i < members.size(); ++i) {
    auto other = words(member_text(members[i], param));
    std::erase_if(kept, [&](const std::string &w) { return std::find(other.begin(), other.end(), w) == other.end(); });
  }
  std::string out;
  for (auto &w : kept)
    if (!(param == CL_DEVICE_EXTENSIONS && one_device_extension(w))) out += (out.empty() ? "" : std::string(1, sep)) + w;
  return out;
}

// The name/version pairs every member has, each at the lowest version any
// member gives it (extensions, built-in kernels, OpenCL C versions and
// features).
std::vector<cl_name_version> common_name_versions(const std::vector<cl_device_id> &members, cl_device_info param,
                                                  bool by_version) {
  std::vector<cl_name_version> kept = member_array<cl_name_version>(members[0], param);
  for (size_t i = 1; i < members.size(); ++i) {
    auto other = member_array<cl_name_version>(members[i], param);
    std::vector<cl_name_version> next;
    for (auto nv : kept)
      for (auto &o : other)
        if (std::strcmp(nv.name, o.name) == 0 && (!by_version || nv.version == o.version)) {
          nv.version = std::min(nv.version, o.version);
          next.push_back(nv);
          break;
        }
    kept = std::move(next);
  }
  if (param == CL_DEVICE_EXTENSIONS_WITH_VERSION)
    std::erase_if(kept, [](const cl_name_version &nv) { return one_device_extension(nv.name); });
  return kept;
}

// The lowest OpenCL version of the members' answers ("OpenCL 1.2 pocl",
// "OpenCL C 3.0 ..."), what every member supports, in the query's form:
// `prefix` ("OpenCL" or "OpenCL C"), the version, "UniCL".
std::string lowest_version(const std::vector<cl_device_id> &members, cl_device_info param, const char *prefix) {
  unsigned lowest = ~0u;
  for (cl_device_id m : members) {
    std::string s = member_text(m, param);
    unsigned major = 0, minor = 0;
    if (size_t digit = s.find_first_of("0123456789"); digit != std::string::npos)
      std::sscanf(s.c_str() + digit, "%u.%u", &major, &minor);
    lowest = std::min(lowest, major * 10 + minor);
  }
  return std::string(prefix) + " " + std::to_string(lowest / 10) + "." + std::to_string(lowest % 10) + " UniCL";
}

std::vector<size_t> smallest_work_item_sizes(const std::vector<cl_device_id> &members) {
  std::vector<size_t> out = member_array<size_t>(members[0], CL_DEVICE_MAX_WORK_ITEM_SIZES);
  for (size_t i = 1; i < members.size(); ++i) {
    auto other = member_array<size_t>(members[i], CL_DEVICE_MAX_WORK_ITEM_SIZES);
    out.resize(std::min(out.size(), other.size()));
    for (size_t d = 0; d < out.size(); ++d) out[d] = std::min(out[d], other[d]);
  }
  return out;
}

// What every member answers alike, byte for byte (a vendor's own query);
// CL_INVALID_VALUE when they differ or one cannot answer.
cl_int same_answer(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  std::vector<std::byte> first;
  for (cl_device_id m : c.members) {
    size_t n = 0;
    if (device_info(m, param, 0, nullptr, &n) != CL_SUCCESS)
      return refuse(CL_INVALID_VALUE, "param_name is not a query every member of the composite answers");
    auto bytes = member_array<std::byte>(m, param);
    if (m == c.members.front()) first = std::move(bytes);
    else if (bytes != first) return refuse(CL_INVALID_VALUE, "the members of the composite answer param_name differently");
  }
  return info_bytes(size, value, size_ret, first.data(), first.size());
}

Answer text_answer(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  switch (param) {
    case CL_DEVICE_NAME: return info_string(size, value, size_ret, c.name);
    case CL_DEVICE_VENDOR: return info_string(size, value, size_ret, "UniCL");
    case CL_DRIVER_VERSION: return info_string(size, value, size_ret, "0.1");
    case CL_DEVICE_VERSION: return info_string(size, value, size_ret, lowest_version(c.members, param, "OpenCL"));
    case CL_DEVICE_OPENCL_C_VERSION: return info_string(size, value, size_ret, lowest_version(c.members, param, "OpenCL C"));
    case CL_DEVICE_PROFILE: {
      bool full = std::all_of(c.members.begin(), c.members.end(),
                              [](cl_device_id m) { return member_text(m, CL_DEVICE_PROFILE) == "FULL_PROFILE"; });
      return info_string(size, value, size_ret, full ? "FULL_PROFILE" : "EMBEDDED_PROFILE");
    }
    case CL_DEVICE_EXTENSIONS: return info_string(size, value, size_ret, common_words(c.members, param, ' '));
    case CL_DEVICE_BUILT_IN_KERNELS: return info_string(size, value, size_ret, common_words(c.members, param, ';'));
    case CL_DEVICE_IL_VERSION: return info_string(size, value, size_ret, "");
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: {
      std::string lowest;
      for (cl_device_id m : c.members) {
        std::string s = member_text(m, param);
        if (lowest.empty() || s < lowest) lowest = s;
      }
      return info_string(size, value, size_ret, lowest);
    }
    default: return std::nullopt;
  }
}

Answer list_answer(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  switch (param) {
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: return info_vector(size, value, size_ret, smallest_work_item_sizes(c.members));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    case CL_DEVICE_OPENCL_C_FEATURES: return info_vector(size, value, size_ret, common_name_versions(c.members, param, false));
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return info_vector(size, value, size_ret, common_name_versions(c.members, param, true));
    case CL_DEVICE_ILS_WITH_VERSION:
    case CL_DEVICE_PARTITION_TYPE: return info_bytes(size, value, size_ret, nullptr, 0);
    case CL_DEVICE_PARTITION_PROPERTIES: return info_value<cl_device_partition_property>(size, value, size_ret, 0);
    default: return std::nullopt;
  }
}

// What the composite answers as a device of its own: its identity, its
// place in the platform, and the queues UniCL gives it.
Answer own_answer(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  switch (param) {
    case CL_DEVICE_TYPE: return info_value(size, value, size_ret, composite_type(c) | CL_DEVICE_TYPE_DEFAULT);
    case CL_DEVICE_PLATFORM: return info_value(size, value, size_ret, Runtime::get().platform());
    case CL_DEVICE_PARENT_DEVICE: return info_value<cl_device_id>(size, value, size_ret, nullptr);
    case CL_DEVICE_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, 1);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return info_value<cl_uint>(size, value, size_ret, 0);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return info_value<cl_device_affinity_domain>(size, value, size_ret, 0);
    // Its queues are UniCL's scheduled queues, out of order and profiled
    // whatever the members' vendors offer.
    case CL_DEVICE_QUEUE_PROPERTIES:
      return info_value<cl_command_queue_properties>(size, value, size_ret,
                                                     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_SVM_CAPABILITIES:
      return info_value<cl_device_svm_capabilities>(size, value, size_ret, device_svm_capabilities(c));
    case CL_DEVICE_NODE_UNICL: return info_value<cl_uint>(size, value, size_ret, 0);
    case CL_DEVICE_NODE_TOPOLOGY_UNICL: return info_string(size, value, size_ret, "");
    case CL_DEVICE_NODE_LINKS_UNICL: return info_bytes(size, value, size_ret, nullptr, 0);
    case CL_DEVICE_NODE_LINK_UNICL: {
      const cl_double none[2] = {0, 0};
      return info_bytes(size, value, size_ret, none, sizeof none);
    }
    case CL_DEVICE_NODE_HOST_UNICL: {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      return info_string(size, value, size_ret, std::string(host));
    }
    default: return std::nullopt;
  }
}

}  // namespace

cl_device_type composite_type(const _cl_device_id &c) {
  cl_device_type t = 0;
  for (cl_device_id m : c.members) t |= vendor_device_type(m);
  return t & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT};
}

cl_int composite_info(const _cl_device_id &c, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  if (param == CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) param = CL_DEVICE_QUEUE_PROPERTIES;
  for (auto answer : {own_answer, text_answer, list_answer, numeric_answer})
    if (Answer given = answer(c, param, size, value, size_ret)) return *given;
  return same_answer(c, param, size, value, size_ret);
}

std::vector<cl_device_id> listed_devices(const std::vector<cl_device_id> &roots, const std::string &spec,
                                         Ref<_cl_device_id> &composite) {
  if (spec.empty()) return roots;
  std::vector<std::string> parts;
  std::istringstream in(spec);
  for (std::string p; std::getline(in, p, ',');)
    if (!p.empty()) parts.push_back(p);
  std::vector<cl_device_id> chosen;
  for (cl_device_id d : roots)
    if (spec == "1" || std::any_of(parts.begin(), parts.end(), [&](const std::string &p) { return d->name.find(p) != std::string::npos; }))
      chosen.push_back(d);
  if (chosen.size() < 2) {
    Runtime::get().log(1, "UNICL_COMPOSITE=%s chooses %zu device(s): no composite device, the platform lists %s", spec.c_str(),
                       chosen.size(), chosen.empty() ? "every device" : "that one");
    return chosen.empty() ? roots : chosen;
  }
  std::string name = "UniCL composite of " + std::to_string(chosen.size()) + " devices:";
  unsigned version = ~0u;
  for (cl_device_id d : chosen) {
    name += (d == chosen.front() ? " " : " + ") + d->name;
    version = std::min(version, d->vendor_version);
  }
  composite = make_object<_cl_device_id>(chosen, name, version);
  return {composite.get()};
}

}  // namespace unicl
