// Vendor calls that may run commands on the calling thread.
//
// oclgrind executes its queues inside clFlush, clFinish and clWaitForEvents
// and is not thread-safe: in a multi-device context UniCL's work queue and
// the application's threads could run two of its kernels at once (it
// asserts). Calls of such vendors go through one process-wide lock; other
// vendors are called directly.
#pragma once
#include "cl_headers.hpp"

namespace unicl {

cl_int vendor_flush(cl_command_queue q);
cl_int vendor_finish(cl_command_queue q);
cl_int vendor_wait(cl_event e);

}  // namespace unicl
