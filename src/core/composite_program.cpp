#include "core/composite_program.hpp"

#include <algorithm>
#include <cstring>

#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/info.hpp"

namespace unicl {
namespace {

constexpr char kMagic[] = "UniCL composite binary 1";  // with its terminating zero

template <class T>
void put(std::vector<unsigned char> &out, T v) {
  auto *p = reinterpret_cast<const unsigned char *>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

// A reader of a composite binary that refuses to read past its end.
struct Reader {
  const unsigned char *at, *end;
  template <class T>
  bool get(T &v) {
    if (static_cast<size_t>(end - at) < sizeof v) return false;
    std::memcpy(&v, at, sizeof v);
    at += sizeof v;
    return true;
  }
  bool bytes(size_t n, std::vector<unsigned char> &out) {
    if (static_cast<size_t>(end - at) < n) return false;
    out.assign(at, at + n);
    at += n;
    return true;
  }
};

// Each member's answer to a numeric work-group query, combined with `pick`.
template <class T, class Pick>
cl_int combined_work_group_value(_cl_kernel &k, cl_kernel_work_group_info param, size_t size, void *value,
                                 size_t *size_ret, Pick pick) {
  std::optional<T> out;
  for (size_t s = 0; s < k.per_slot.size(); ++s) {
    if (!k.per_slot[s]) continue;
    T v{};
    if (cl_int err = vendor_work_group_info(k.per_slot[s].get(), k.program->context->slots[s].device->vendor, param,
                                            sizeof v, &v, nullptr);
        err != CL_SUCCESS)
      return err;
    out = out ? pick(*out, v) : v;
  }
  if (!out) return refuse(CL_INVALID_PROGRAM_EXECUTABLE, "the kernel is built for no member of the composite");
  return info_value(size, value, size_ret, *out);
}

cl_build_status combined_status(_cl_program &p) {
  bool any = false;
  cl_build_status worst = CL_BUILD_SUCCESS;
  for (size_t s = 0; s < p.per_slot.size(); ++s) {
    if (!p.per_slot[s]) continue;
    cl_build_status st = CL_BUILD_NONE;
    vendor_build_info(p.per_slot[s].get(), p.context->slots[s].device->vendor, CL_PROGRAM_BUILD_STATUS, sizeof st, &st,
                      nullptr);
    // Worst first: an error, then a build under way, then none yet.
    auto rank = [](cl_build_status b) { return b == CL_BUILD_ERROR ? 3 : b == CL_BUILD_IN_PROGRESS ? 2 : b == CL_BUILD_NONE ? 1 : 0; };
    if (!any || rank(st) > rank(worst)) worst = st;
    any = true;
  }
  return any ? worst : CL_BUILD_NONE;
}

std::string combined_log(_cl_program &p) {
  std::string out;
  for (size_t s = 0; s < p.per_slot.size(); ++s) {
    if (!p.per_slot[s]) continue;
    size_t n = 0;
    cl_device_id dev = p.context->slots[s].device->vendor;
    if (vendor_build_info(p.per_slot[s].get(), dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) != CL_SUCCESS || n <= 1) continue;
    std::string log(n, '\0');
    vendor_build_info(p.per_slot[s].get(), dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    log.resize(std::strlen(log.c_str()));
    if (!log.empty()) out += "-- " + p.context->slots[s].device->name + " --\n" + log + (log.back() == '\n' ? "" : "\n");
  }
  return out;
}

}  // namespace

cl_int composite_binary(_cl_program &p, std::vector<unsigned char> &out) {
  out.assign(kMagic, kMagic + sizeof kMagic);
  put<uint32_t>(out, static_cast<uint32_t>(p.per_slot.size()));
  for (size_t s = 0; s < p.per_slot.size(); ++s) {
    const _cl_device_id &member = *p.context->slots[s].device;
    size_t n = 0;
    std::vector<unsigned char> binary;
    if (p.per_slot[s]) {
      if (cl_int err = vendor_binary_size(p.per_slot[s].get(), member.vendor, n); err != CL_SUCCESS) return err;
      binary.resize(n);
      if (n)
        if (cl_int err = vendor_binary(p.per_slot[s].get(), member.vendor, binary.data()); err != CL_SUCCESS) return err;
    }
    put<uint32_t>(out, static_cast<uint32_t>(member.name.size()));
    out.insert(out.end(), member.name.begin(), member.name.end());
    put<uint64_t>(out, binary.size());
    out.insert(out.end(), binary.begin(), binary.end());
  }
  return CL_SUCCESS;
}

std::optional<std::vector<std::vector<unsigned char>>> member_binaries(const _cl_context &ctx, const unsigned char *data,
                                                                       size_t size) {
  Reader in{data, data + size};
  std::vector<unsigned char> magic;
  uint32_t count = 0;
  if (!in.bytes(sizeof kMagic, magic) || std::memcmp(magic.data(), kMagic, sizeof kMagic) != 0 || !in.get(count) ||
      count != ctx.slots.size())
    return std::nullopt;
  std::vector<std::vector<unsigned char>> out(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t name_size = 0;
    uint64_t binary_size = 0;
    std::vector<unsigned char> name;
    if (!in.get(name_size) || !in.bytes(name_size, name) || !in.get(binary_size) || !in.bytes(binary_size, out[i]))
      return std::nullopt;
    // A binary made for other devices: the composite has changed.
    if (std::string(name.begin(), name.end()) != ctx.slots[i].device->name) return std::nullopt;
  }
  return out;
}

cl_int composite_build_info(_cl_program &p, cl_program_build_info param, size_t size, void *value, size_t *size_ret) {
  switch (param) {
    case CL_PROGRAM_BUILD_STATUS: return info_value<cl_build_status>(size, value, size_ret, combined_status(p));
    case CL_PROGRAM_BUILD_LOG: return info_string(size, value, size_ret, combined_log(p));
    case CL_PROGRAM_BUILD_OPTIONS: {
      std::lock_guard lock(p.build_mutex);
      for (auto &o : p.build_options)
        if (o) return info_string(size, value, size_ret, *o);
      return info_string(size, value, size_ret, "");
    }
    case CL_PROGRAM_BINARY_TYPE:
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      for (size_t s = 0; s < p.per_slot.size(); ++s)
        if (p.per_slot[s]) return vendor_build_info(p.per_slot[s].get(), p.context->slots[s].device->vendor, param, size, value, size_ret);
      return refuse(CL_INVALID_PROGRAM, "the program has no member's program");
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

cl_int composite_work_group_info(_cl_kernel &k, cl_kernel_work_group_info param, size_t size, void *value,
                                 size_t *size_ret) {
  auto smallest = [](auto a, auto b) { return std::min(a, b); };
  auto largest = [](auto a, auto b) { return std::max(a, b); };
  switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE:
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return combined_work_group_value<size_t>(k, param, size, value, size_ret, smallest);
    case CL_KERNEL_LOCAL_MEM_SIZE:
    case CL_KERNEL_PRIVATE_MEM_SIZE:
      return combined_work_group_value<cl_ulong>(k, param, size, value, size_ret, largest);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    case CL_KERNEL_GLOBAL_WORK_SIZE: {
      using Sizes = std::array<size_t, 3>;
      return combined_work_group_value<Sizes>(k, param, size, value, size_ret, [](Sizes a, Sizes b) {
        for (int i = 0; i < 3; ++i) a[i] = std::min(a[i], b[i]);
        return a;
      });
    }
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

}  // namespace unicl
