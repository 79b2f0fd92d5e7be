// A context's devices, as its slots with their vendor contexts; its
// lifetime: its policy goes first, then the application's destructor
// callbacks run (its slots and their vendor contexts after).
#include "core/context.hpp"

#include <algorithm>

#include "backend/local_device.hpp"
#include "backend/vendor_objects.hpp"
#include "core/device.hpp"
#include "core/refusal.hpp"
#include "core/scheduling.hpp"
#include "core/svm.hpp"

_cl_context::_cl_context() : ObjectHeader(kKind) {}

_cl_context::~_cl_context() {
  engine.reset();
  // The spec calls destructor callbacks in reverse order of registration.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->first(this, it->second);
}

namespace {

// oclgrind reports some errors (a wait on a failed event) through a
// context callback with null user data: no context to forward to then.
void CL_CALLBACK forward_context_notify(const char *errinfo, const void *private_info, size_t cb, void *user_data) {
  auto *ctx = static_cast<_cl_context *>(user_data);
  if (ctx && ctx->notify) ctx->notify(errinfo, private_info, cb, ctx->notify_data);
}

// The devices as the application named them, duplicates left out.
std::vector<cl_device_id> distinct(const std::vector<cl_device_id> &devices) {
  std::vector<cl_device_id> out;
  for (cl_device_id d : devices)
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  return out;
}

// The properties of a vendor context for `d`: its platform, and the
// application's interop setting (-1: none).
std::vector<cl_context_properties> vendor_properties(cl_device_id d, cl_context_properties interop) {
  return {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(d->vendor_platform),
          interop == -1 ? 0 : CL_CONTEXT_INTEROP_USER_SYNC, interop, 0};
}

// Devices of one vendor platform of this machine share one vendor context:
// memory the vendor shares between its devices (SVM) is valid on all of
// them only then. UniCL still keeps a copy of each buffer per device.
// Devices of several vendors, or of other nodes, get one vendor context
// each (as do these when the vendor refuses one for all).
unicl::VendorRef<cl_context> shared_vendor_context(_cl_context &ctx, const std::vector<cl_device_id> &devices,
                                                  cl_context_properties interop) {
  using namespace unicl;
  if (devices.size() < 2 || !std::all_of(devices.begin(), devices.end(), [&](cl_device_id d) {
        return d->node == 0 && d->vendor_platform == devices.front()->vendor_platform;
      }))
    return {};
  std::vector<cl_device_id> vendor_devices;
  for (cl_device_id d : devices) vendor_devices.push_back(d->vendor);
  cl_int err = CL_SUCCESS;
  auto shared = vendor_context(vendor_properties(devices.front(), interop).data(), vendor_devices,
                               ctx.notify ? forward_context_notify : nullptr, ctx.notify ? &ctx : nullptr, err);
  return err == CL_SUCCESS ? shared : VendorRef<cl_context>{};
}

}  // namespace

cl_int _cl_context::open_devices(const std::vector<cl_device_id> &named, cl_context_properties interop) {
  using namespace unicl;
  std::vector<cl_device_id> devices = distinct(named);
  // A context of the composite is a context of its members.
  if (std::any_of(devices.begin(), devices.end(), [](cl_device_id d) { return d->is_composite(); })) {
    if (devices.size() > 1) return refuse(CL_INVALID_DEVICE, "the composite device is given with other devices");
    composite = Ref<_cl_device_id>(devices[0]);
    devices = devices[0]->members;
  }
  VendorRef<cl_context> shared = shared_vendor_context(*this, devices, interop);
  for (cl_device_id d : devices) {
    cl_int err = CL_SUCCESS;
    auto vendor = shared ? shared
                         : vendor_context(vendor_properties(d, interop).data(), d->vendor,
                                          notify ? forward_context_notify : nullptr, notify ? this : nullptr, err);
    if (err != CL_SUCCESS) return err == CL_INVALID_PLATFORM ? CL_INVALID_DEVICE : err;
    auto endpoint = std::make_unique<LocalDevice>(d->name, d->vendor, vendor);
    slots.push_back({Ref<_cl_device_id>(d), std::move(vendor), std::move(endpoint)});
  }
  svm_capabilities = context_svm_capabilities(*this);
  return CL_SUCCESS;
}
