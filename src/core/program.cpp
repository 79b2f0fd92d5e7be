// A program's builds: which of its per-device vendor programs a call with a
// device list reaches, and what each build gets before the application's
// options.
#include "core/program.hpp"

#include <algorithm>

#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/refusal.hpp"
#include "core/runtime.hpp"

namespace unicl {

Ref<_cl_program> new_program(cl_context ctx) {
  auto p = make_object<_cl_program>();
  p->context = Ref<_cl_context>(ctx);
  p->per_slot.resize(ctx->slots.size());
  return p;
}

Ref<_cl_program> link_program(cl_context ctx, const std::vector<size_t> &slots, const char *options,
                              std::span<const cl_program> inputs, cl_int &result) {
  auto p = new_program(ctx);
  result = CL_SUCCESS;
  for (size_t s : slots) {
    std::vector<cl_program> on_slot;
    for (cl_program input : inputs) on_slot.push_back(input->per_slot[s].get());
    if (std::count(on_slot.begin(), on_slot.end(), nullptr)) {
      result = refuse(CL_INVALID_OPERATION, "an input program is not compiled for a device of this link");
      return {};
    }
    cl_int err = CL_SUCCESS;
    VendorRef<cl_program> vp = vendor_link(ctx->vendor(s), ctx->slots[s].device->vendor, options, on_slot, err);
    result = _cl_program::combine_build_results(result, err);
    if (vp) {
      p->per_slot[s] = std::move(vp);
      p->devices.push_back(ctx->slots[s].device.get());
    }
  }
  if (p->devices.empty()) {
    if (result == CL_SUCCESS) result = refuse(CL_INVALID_OPERATION, "no device of the inputs can link them");
    return {};
  }
  if (ctx->composite) p->devices = ctx->devices();  // the members linked, as one device
  return p;
}

// Adds to `slots` every slot `usable` accepts whose device shares its root
// device with a slot listed. Each device has a vendor program of its own,
// but vendors give one build to a device and the devices partitioned from
// it (PoCL's program knows only root devices): a program built for a parent
// device runs on its sub-devices there, and applications rely on it (the
// Khronos CTS device_partition builds for the parent, then launches on the
// sub-devices). So a build for one device of a partition is a build for
// every device of that partition in the context.
void with_partition_relatives(const _cl_context &ctx, std::vector<size_t> &slots, const std::function<bool(size_t)> &usable) {
  size_t listed = slots.size();
  for (size_t s = 0; s < ctx.slots.size(); ++s) {
    if (std::find(slots.begin(), slots.end(), s) != slots.end() || !usable(s)) continue;
    const _cl_device_id *root = ctx.slots[s].device->root();
    bool related = std::any_of(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(listed),
                               [&](size_t l) { return ctx.slots[l].device->root() == root; });
    if (related) slots.push_back(s);
  }
}

cl_int slots_of(const _cl_context &ctx, DeviceList devices, const std::function<bool(size_t)> &usable,
                bool listed_must_be_usable, const char *not_ours, std::vector<size_t> &slots) {
  if (!devices.list) {
    for (size_t s = 0; s < ctx.slots.size(); ++s)
      if (usable(s)) slots.push_back(s);
    return CL_SUCCESS;
  }
  for (cl_uint i = 0; i < devices.num; ++i) {
    if (!live(devices.list[i])) return refuse(CL_INVALID_DEVICE, "a device of device_list is not a live device");
    std::vector<size_t> named = ctx.slots_named(devices.list[i]);
    if (named.empty() || (listed_must_be_usable && !std::all_of(named.begin(), named.end(), usable)))
      return refuse(CL_INVALID_DEVICE, not_ours);
    slots.insert(slots.end(), named.begin(), named.end());
  }
  with_partition_relatives(ctx, slots, usable);
  return CL_SUCCESS;
}

}  // namespace unicl

cl_int _cl_program::slots_for(cl_uint num, const cl_device_id *list, std::vector<size_t> &slots) {
  using namespace unicl;
  if ((num == 0) != (list == nullptr)) return refuse(CL_INVALID_VALUE, "num_devices and device_list disagree (0 or NULL)");
  return slots_of(*context, {num, list}, [this](size_t s) { return bool(per_slot[s]); }, true,
                  "device is not a device of the program", slots);
}

cl_int _cl_program::combine_build_results(cl_int so_far, cl_int next) {
  if (so_far == CL_SUCCESS) return next;
  // Options one vendor refuses are invalid whatever another made of them
  // (oclgrind reports a failed build for options PoCL calls invalid).
  if (so_far == CL_INVALID_BUILD_OPTIONS || next == CL_INVALID_BUILD_OPTIONS) return CL_INVALID_BUILD_OPTIONS;
  if (next == CL_BUILD_PROGRAM_FAILURE || next == CL_COMPILE_PROGRAM_FAILURE || next == CL_LINK_PROGRAM_FAILURE)
    return next;
  return so_far;
}

// What a build for `slot` gets before the application's options: the
// device's type as a macro (UNICL_DEVICE_TYPE_CPU, _GPU, _ACCELERATOR, or
// _UNKNOWN for a device of none or several of them, as SOCL decides it), so
// that one source can specialize per device; in SOCL compatibility mode
// also SOCL's SOCL_DEVICE_TYPE_<type>. Only for a source that names them:
// a vendor's cache of compiled programs is keyed on the options, and a
// build through UniCL then finds what a direct build of the program put
// there.
std::string _cl_program::device_macros(size_t slot) const {
  using namespace unicl;
  if (source.find("_DEVICE_TYPE_") == std::string::npos) return {};
  cl_device_type type = vendor_value<cl_device_type>(context->slots[slot].device->vendor, CL_DEVICE_TYPE);
  type &= ~static_cast<cl_device_type>(CL_DEVICE_TYPE_DEFAULT);
  const char *name = type == CL_DEVICE_TYPE_GPU           ? "GPU"
                     : type == CL_DEVICE_TYPE_CPU         ? "CPU"
                     : type == CL_DEVICE_TYPE_ACCELERATOR ? "ACCELERATOR"
                                                          : "UNKNOWN";
  std::string out = std::string("-DUNICL_DEVICE_TYPE_") + name + " ";
  if (Runtime::get().config().socl_compat) out += std::string("-DSOCL_DEVICE_TYPE_") + name + " ";
  return out;
}

// Records the application's options for CL_PROGRAM_BUILD_OPTIONS (caller
// holds build_mutex).
std::string _cl_program::options_for(size_t slot, const char *options) {
  UNICL_HOLDS(build_mutex, "options_for: caller holds build_mutex");
  if (build_options.size() < per_slot.size()) build_options.resize(per_slot.size());
  build_options[slot] = options ? options : "";
  return device_macros(slot) + (options ? options : "");
}

// The analysis runs beside the vendors' builds, on the runtime's analysis
// thread. A build waits for it at most 5% of the build's own time: launches
// right after a long build (a first, uncached one) find it done, and it
// never slows a build by more than that.
//
// The analysis sees the source as the devices' builds do: with each one's
// macros (device_macros). A source that names them may say different
// things to different devices; it is analysed once per distinct set and
// the results merged, so that what any device's build touches counts.
void _cl_program::begin_analysis(const std::vector<size_t> &slots, const char *options) {
  UNICL_HOLDS(build_mutex, "begin_analysis: caller holds build_mutex");
  analysis.reset();
  if (source.empty() || !context->multi()) return;
  std::vector<std::string> builds;
  for (size_t s : slots) {
    std::string o = device_macros(s) + (options ? options : "");
    if (std::find(builds.begin(), builds.end(), o) == builds.end()) builds.push_back(std::move(o));
  }
  if (!builds.empty()) analysis = unicl::ProgramAnalysis::start(source, std::move(builds));
}

void _cl_program::await_analysis(std::chrono::nanoseconds build_time) {
  UNICL_HOLDS(build_mutex, "await_analysis: caller holds build_mutex");
  if (analysis) analysis->wait_for(build_time / 20);
}
