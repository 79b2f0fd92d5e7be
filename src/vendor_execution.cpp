#include "vendor_execution.hpp"

#include <mutex>

#include "runtime.hpp"
#include "vendor.hpp"

namespace unicl {
namespace {

// Holds the lock only for vendors that run commands on the caller's thread.
template <class H>
std::unique_lock<std::recursive_mutex> execution_lock(H h) {
  Runtime &rt = Runtime::get();
  if (!rt.runs_on_caller(&vd(h))) return {};
  return std::unique_lock(rt.execution_mutex());
}

}  // namespace

cl_int vendor_flush(cl_command_queue q) {
  auto lock = execution_lock(q);
  return vd(q).clFlush(q);
}

cl_int vendor_finish(cl_command_queue q) {
  auto lock = execution_lock(q);
  return vd(q).clFinish(q);
}

cl_int vendor_wait(cl_event e) {
  auto lock = execution_lock(e);
  return vd(e).clWaitForEvents(1, &e);
}

}  // namespace unicl
