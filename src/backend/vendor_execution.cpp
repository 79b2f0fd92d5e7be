#include "backend/vendor_execution.hpp"

#include <algorithm>

#include "backend/vendor.hpp"

namespace unicl {

std::unique_lock<std::recursive_mutex> VendorExecution::lock_for(const cl_icd_dispatch &table) {
  if (std::find(runs_on_caller_.begin(), runs_on_caller_.end(), &table) == runs_on_caller_.end()) return {};
  return std::unique_lock(mutex_);
}

cl_int VendorExecution::flush(cl_command_queue q) {
  auto lock = lock_for(vd(q));
  return vd(q).clFlush(q);
}

cl_int VendorExecution::finish(cl_command_queue q) {
  auto lock = lock_for(vd(q));
  return vd(q).clFinish(q);
}

cl_int VendorExecution::wait(cl_event e) {
  auto lock = lock_for(vd(e));
  return vd(e).clWaitForEvents(1, &e);
}

}  // namespace unicl
