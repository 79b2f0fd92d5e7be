// Enqueueing a command on a vendor queue: every clEnqueue* call UniCL makes
// for an application's command goes through here. Each takes the command's
// arguments as the OpenCL call does, with the queue, its wait list and the
// event to return folded into one VendorEnqueue.
#pragma once
#include "backend/vendor.hpp"

namespace unicl {

struct VendorEnqueue {
  cl_command_queue queue;
  cl_uint num_wait;
  const cl_event *wait;
  cl_event *event;
};

namespace vendor_enqueue {

// One function per command, named after the OpenCL call without its clEnqueue
// prefix: ReadBuffer(on, buffer, blocking, offset, size, ptr) calls
// clEnqueueReadBuffer(on.queue, buffer, ..., on.num_wait, on.wait, on.event).
#define UNICL_VENDOR_ENQUEUE(name)                                                   \
  template <class... A>                                                               \
  cl_int name(const VendorEnqueue &on, A... args) {                                   \
    return vendor_table(on.queue).clEnqueue##name(on.queue, args..., on.num_wait, on.wait, on.event); \
  }
UNICL_VENDOR_ENQUEUE(ReadBuffer)
UNICL_VENDOR_ENQUEUE(WriteBuffer)
UNICL_VENDOR_ENQUEUE(ReadBufferRect)
UNICL_VENDOR_ENQUEUE(WriteBufferRect)
UNICL_VENDOR_ENQUEUE(CopyBuffer)
UNICL_VENDOR_ENQUEUE(CopyBufferRect)
UNICL_VENDOR_ENQUEUE(FillBuffer)
UNICL_VENDOR_ENQUEUE(ReadImage)
UNICL_VENDOR_ENQUEUE(WriteImage)
UNICL_VENDOR_ENQUEUE(CopyImage)
UNICL_VENDOR_ENQUEUE(FillImage)
UNICL_VENDOR_ENQUEUE(CopyImageToBuffer)
UNICL_VENDOR_ENQUEUE(CopyBufferToImage)
UNICL_VENDOR_ENQUEUE(UnmapMemObject)
UNICL_VENDOR_ENQUEUE(MigrateMemObjects)
UNICL_VENDOR_ENQUEUE(NDRangeKernel)
UNICL_VENDOR_ENQUEUE(NativeKernel)
UNICL_VENDOR_ENQUEUE(MarkerWithWaitList)
UNICL_VENDOR_ENQUEUE(BarrierWithWaitList)
// Shared virtual memory (OpenCL 2.0 vendors; SVMMigrateMem 2.1).
UNICL_VENDOR_ENQUEUE(SVMFree)
UNICL_VENDOR_ENQUEUE(SVMMemcpy)
UNICL_VENDOR_ENQUEUE(SVMMemFill)
UNICL_VENDOR_ENQUEUE(SVMMap)
UNICL_VENDOR_ENQUEUE(SVMUnmap)
UNICL_VENDOR_ENQUEUE(SVMMigrateMem)
#undef UNICL_VENDOR_ENQUEUE

// Maps return the pointer and give the error through `err`.
#define UNICL_VENDOR_ENQUEUE_MAP(name)                                                        \
  template <class... A>                                                                        \
  void *name(const VendorEnqueue &on, cl_int &err, A... args) {                                \
    return vendor_table(on.queue).clEnqueue##name(on.queue, args..., on.num_wait, on.wait, on.event, &err); \
  }
UNICL_VENDOR_ENQUEUE_MAP(MapBuffer)
UNICL_VENDOR_ENQUEUE_MAP(MapImage)
#undef UNICL_VENDOR_ENQUEUE_MAP

}  // namespace vendor_enqueue
}  // namespace unicl
