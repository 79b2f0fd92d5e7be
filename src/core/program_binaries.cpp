// What a built program answers of itself: its binaries, one per device in
// the order of its devices, and the questions only a build can answer.
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/composite_program.hpp"
#include "core/program.hpp"

namespace {

// The program's slots in the order of its devices (a device may name
// several slots: a partitioned one).
std::vector<size_t> slots_in_order(_cl_program &p) {
  std::vector<size_t> slots;
  for (cl_device_id d : p.devices)
    for (size_t s : p.context->slots_named(d)) slots.push_back(s);
  return slots;
}

}  // namespace

cl_int _cl_program::binary_sizes(std::vector<size_t> &sizes) {
  if (context->composite) {
    std::vector<unsigned char> composite;
    if (cl_int err = unicl::composite_binary(*this, composite); err != CL_SUCCESS) return err;
    sizes = {composite.size()};
    return CL_SUCCESS;
  }
  for (size_t s : slots_in_order(*this)) {
    size_t n = 0;
    if (cl_int err = unicl::vendor_binary_size(per_slot[s].get(), context->slots[s].device->vendor, n);
        err != CL_SUCCESS)
      return err;
    sizes.push_back(n);
  }
  return CL_SUCCESS;
}

cl_int _cl_program::binaries(unsigned char **out) {
  if (context->composite) {
    std::vector<unsigned char> composite;
    if (cl_int err = unicl::composite_binary(*this, composite); err != CL_SUCCESS) return err;
    if (out[0]) std::copy(composite.begin(), composite.end(), out[0]);
    return CL_SUCCESS;
  }
  size_t i = 0;
  for (size_t s : slots_in_order(*this)) {
    if (out[i])
      if (cl_int err = unicl::vendor_binary(per_slot[s].get(), context->slots[s].device->vendor, out[i]);
          err != CL_SUCCESS)
        return err;
    ++i;
  }
  return CL_SUCCESS;
}

cl_int _cl_program::built_info(cl_program_info param, size_t size, void *value, size_t *size_ret) {
  cl_int err = CL_INVALID_PROGRAM_EXECUTABLE;
  for (size_t s : slots_in_order(*this)) {
    err = unicl::vendor_info(per_slot[s].get(), param, size, value, size_ret);
    if (err != CL_INVALID_PROGRAM_EXECUTABLE) return err;
  }
  return err;
}

std::string _cl_program::analysis_verdicts() {
  std::shared_ptr<unicl::ProgramAnalysis> done;
  {
    std::lock_guard lock(build_mutex);
    done = analysis;
  }
  return done ? done->verdicts() : std::string();
}
