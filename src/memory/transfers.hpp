// Moving byte ranges of a root buffer between its copies. Local vendors'
// devices are linked to host memory only, so a range goes device -> host,
// host -> device, or (device to device) both in turn; devices that copy
// from each other directly (DeviceEndpoint::reaches_from: devices of other
// nodes) also device -> device.
#pragma once
#include "memory/coherence.hpp"

namespace unicl {

// Plans the copy of `range` from location `src` to `dst`, ordered after the accesses of those bytes on both sides, and
// records it; the copy reaches the device through its issue queue. kBlocked (with the blocker in `outer`) when it must wait for
// a command on another device first.
cl_int transfer_range(_cl_mem *root, Location src, Location dst, ByteRange range, WaitList &outer);
// A transfer that `t` stands for, failed on its device, undone the first
// time it is found (see SlotAccess): its error, which the command that
// needed it fails with; CL_SUCCESS otherwise. Caller holds the context lock.
cl_int undo_failed_transfer(Coherence &c, const AccessToken &t);

}  // namespace unicl
