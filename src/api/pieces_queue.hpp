// The queue the parts of commands UniCL divides itself go to (a divided
// launch's pieces, a read's parts): one per application queue, made on
// first use, device-less (each part is placed, or pinned: PinnedSlot), out
// of order (the parts are independent), profiled (the models time them).
#pragma once
#include "backend/cl_headers.hpp"

struct _cl_command_queue;

namespace unicl {

cl_int pieces_queue(_cl_command_queue *q, cl_command_queue &out);

}  // namespace unicl
