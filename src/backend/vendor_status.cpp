#include "backend/vendor_status.hpp"

#include <atomic>
#include <memory>

#include "backend/vendor.hpp"
#include "backend/vendor_callback.hpp"

namespace unicl {
namespace {

// A run handed to a vendor, made once: by the vendor's callback or by the
// look at the status after registering, whichever comes first.
struct Once {
  explicit Once(std::function<void(cl_int)> f) : fn(std::move(f)) {}
  std::function<void(cl_int)> fn;
  std::atomic_flag ran;
  void run(cl_int status) {
    if (ran.test_and_set(std::memory_order_acq_rel)) return;
    auto once = std::move(fn);  // nothing held once run, even if the vendor never frees the callback
    once(status);
  }
};

}  // namespace

cl_int vendor_status(cl_event e) {
  cl_int s = CL_QUEUED;
  return vendor_table(e).clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS ? s
                                                                                                          : CL_QUEUED;
}

// A callback registered after the status was reached is called by most
// vendors, at once, but never by some (oclgrind): the status is read before
// registering (sparing a registration such a vendor would never call, and
// so never free) and again after it, and the run is made once, whoever gets
// there first. A serialized vendor (oclgrind) moves its commands on only
// inside calls, so holding its lock makes the read and the registration one
// step: a command cannot complete between them.
cl_int when_vendor_status(cl_event e, cl_int type, std::function<void(cl_int)> fn, DeferFromVendor defer) {
  auto reached = [type](cl_int now) { return now < 0 ? now : type; };
  auto hold = hold_vendor(e);
  if (cl_int now = vendor_status(e); now <= type) {
    if (hold) hold.unlock();
    fn(reached(now));
    return CL_SUCCESS;
  }
  auto once = std::make_shared<Once>(std::move(fn));
  // The vendor's own status is passed on as it gives it.
  cl_int err = set_vendor_event_callback(e, type, [once, defer](cl_event called, cl_int status) {
    if (defer && vendor_serialized(called)) return defer([once, status] { once->run(status); });
    once->run(status);
  });
  if (err != CL_SUCCESS || hold) return err;
  if (cl_int now = vendor_status(e); now <= type) once->run(reached(now));
  return CL_SUCCESS;
}

}  // namespace unicl
