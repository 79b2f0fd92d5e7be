// Vendor calls that may run commands on the calling thread.
//
// oclgrind executes its queues inside clFlush, clFinish and clWaitForEvents
// and is not thread-safe: in a multi-device context UniCL's work queue and
// the application's threads could run two of its kernels at once (it
// asserts). Calls of such vendors go through one process-wide lock; other
// vendors are called directly. The runtime owns the one instance.
#pragma once
#include <mutex>
#include <vector>

#include "backend/cl_headers.hpp"

namespace unicl {

class VendorExecution {
 public:
  // The vendor whose objects start with `table` runs commands on the
  // caller's thread. Called while vendors are discovered, before any
  // other call.
  void add_runs_on_caller(const cl_icd_dispatch *table) { runs_on_caller_.push_back(table); }
  cl_int flush(cl_command_queue q);
  cl_int finish(cl_command_queue q);
  cl_int wait(cl_event e);

 private:
  // Holds the lock only for vendors that run commands on the caller.
  std::unique_lock<std::recursive_mutex> lock_for(const cl_icd_dispatch &table);
  std::vector<const cl_icd_dispatch *> runs_on_caller_;  // written once, by discovery
  std::recursive_mutex mutex_;
};

}  // namespace unicl
