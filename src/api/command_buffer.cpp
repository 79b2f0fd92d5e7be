// cl_khr_command_buffer entry points, for contexts of one device (what
// core/command_buffer.hpp says of the others). Each one: checks UniCL's
// handles and translates them into the vendor's, then one vendor call;
// sync points and the rest of the recording rules are the vendor's.
#include <initializer_list>

#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "api/command.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/command_buffer.hpp"
#include "core/info.hpp"
#include "core/kernel.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// A queue named beside a command buffer: of its context, and of one
// device (the vendor's queue then stands for it).
cl_int queue_for(cl_command_buffer_khr cb, cl_command_queue q) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  if (q->context.get() != cb->queue->context.get()) return refuse(CL_INVALID_CONTEXT, "command_queue belongs to another context than the command buffer");
  if (!q->vendor) return refuse(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR, "command buffers are forwarded for contexts of one device only");
  return CL_SUCCESS;
}

// A recording call's command buffer and queue: the queue may only be null
// or the command buffer's own (the vendor's then).
cl_int recording(cl_command_buffer_khr cb, cl_command_queue q, cl_command_queue &vq) {
  if (!live(cb)) return refuse(CL_INVALID_COMMAND_BUFFER_KHR, "command_buffer is NULL or not a live command buffer");
  vq = nullptr;
  if (!q) return CL_SUCCESS;
  if (cl_int err = queue_for(cb, q); err != CL_SUCCESS) return err;
  vq = q->vendor.get();
  return CL_SUCCESS;
}

// The vendor's memory object for `m` in the command buffer's context.
cl_int vendor_mem(cl_command_buffer_khr cb, cl_mem m, cl_mem &out) {
  if (!live(m)) return refuse(CL_INVALID_MEM_OBJECT, "the memory object is NULL or not a live memory object");
  if (m->context.get() != cb->queue->context.get()) return refuse(CL_INVALID_CONTEXT, "the memory object belongs to another context than the command buffer");
  out = m->replicas[0]->get();
  return CL_SUCCESS;
}

// What a recorded command names, in the vendor's handles.
struct VendorOperands {
  cl_command_queue queue = nullptr;
  cl_mem mem[2] = {nullptr, nullptr};
};

// Checks a recording call's command buffer, queue and memory objects.
cl_int operands(cl_command_buffer_khr cb, cl_command_queue q, std::initializer_list<cl_mem> mems, VendorOperands &out) {
  if (cl_int err = recording(cb, q, out.queue); err != CL_SUCCESS) return err;
  size_t i = 0;
  for (cl_mem m : mems)
    if (cl_int err = vendor_mem(cb, m, out.mem[i++]); err != CL_SUCCESS) return err;
  return CL_SUCCESS;
}

}  // namespace
}  // namespace unicl

namespace unicl::api {

cl_command_buffer_khr CL_API_CALL clCreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue *queues,
                                                           const cl_command_buffer_properties_khr *properties,
                                                           cl_int *errcode_ret) {
  if (num_queues != 1 || !queues) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "the command buffer needs exactly one queue"));
  cl_command_queue q = queues[0];
  if (!live(q)) return fail(errcode_ret, refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue"));
  // A context of several devices: its commands are placed and made
  // coherent as they run, which a vendor's replay would bypass.
  if (q->context->multi() || !q->vendor) return fail(errcode_ret, refuse(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR, "command buffers are forwarded for contexts of one device only"));
  cl_int err = CL_SUCCESS;
  auto made = VendorCommandBuffer::make(q->context->slots[0].device->vendor_platform, q->vendor.get(), properties, err);
  if (err != CL_SUCCESS) return fail(errcode_ret, err);
  return hand_out(make_object<_cl_command_buffer_khr>(Ref<_cl_command_queue>(q), std::move(made)), errcode_ret);
}

cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr cb) {
  if (!live(cb)) return refuse(CL_INVALID_COMMAND_BUFFER_KHR, "command_buffer is NULL or not a live command buffer");
  // Only a recording command buffer can be finalized (PoCL finalizes twice).
  cl_command_buffer_state_khr state = CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
  if (cl_int err = cb->vendor.info(CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, nullptr); err != CL_SUCCESS)
    return err;
  if (state != CL_COMMAND_BUFFER_STATE_RECORDING_KHR) return refuse(CL_INVALID_OPERATION, "the command buffer is not recording (it was finalized)");
  return cb->vendor.finalize();
}

cl_int CL_API_CALL clRetainCommandBufferKHR(cl_command_buffer_khr cb) {
  return retain_handle(cb, CL_INVALID_COMMAND_BUFFER_KHR);
}

cl_int CL_API_CALL clReleaseCommandBufferKHR(cl_command_buffer_khr cb) {
  return release_handle(cb, CL_INVALID_COMMAND_BUFFER_KHR);
}

cl_int CL_API_CALL clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues, cl_command_buffer_khr cb,
                                             cl_uint n, const cl_event *events, cl_event *event) {
  if (!live(cb)) return refuse(CL_INVALID_COMMAND_BUFFER_KHR, "command_buffer is NULL or not a live command buffer");
  if ((num_queues == 0) != (queues == nullptr) || num_queues > 1) return refuse(CL_INVALID_VALUE, "num_queues and queues disagree (0 or NULL), or more than one queue");
  // A queue given instead of the command buffer's own: the vendor checks
  // that it is compatible.
  _cl_command_queue *q = cb->queue.get();
  if (queues) {
    if (cl_int err = queue_for(cb, queues[0]); err != CL_SUCCESS) return err;
    q = queues[0];
  }
  Command c(q, CL_COMMAND_COMMAND_BUFFER_KHR);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([&](VendorCall &l) { return cb->vendor.enqueue(l.on(), queues != nullptr); }, event);
}

cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_uint num_sync,
                                                   const cl_sync_point_khr *sync_list, cl_sync_point_khr *sync_point,
                                                   cl_mutable_command_khr *mutable_handle) {
  cl_command_queue vq = nullptr;
  if (cl_int err = recording(cb, q, vq); err != CL_SUCCESS) return err;
  return cb->vendor.BarrierWithWaitList(vq, num_sync, sync_list, sync_point, mutable_handle);
}

cl_int CL_API_CALL clCommandCopyBufferKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem src, cl_mem dst,
                                          size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync,
                                          const cl_sync_point_khr *sync_list, cl_sync_point_khr *sync_point,
                                          cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {src, dst}, v); err != CL_SUCCESS) return err;
  return cb->vendor.CopyBuffer(v.queue, v.mem[0], v.mem[1], src_offset, dst_offset, size, num_sync, sync_list, sync_point,
                               mutable_handle);
}

cl_int CL_API_CALL clCommandCopyBufferRectKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem src, cl_mem dst,
                                              const size_t *src_origin, const size_t *dst_origin,
                                              const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
                                              size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_sync,
                                              const cl_sync_point_khr *sync_list, cl_sync_point_khr *sync_point,
                                              cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {src, dst}, v); err != CL_SUCCESS) return err;
  return cb->vendor.CopyBufferRect(v.queue, v.mem[0], v.mem[1], src_origin, dst_origin, region, src_row_pitch, src_slice_pitch,
                                   dst_row_pitch, dst_slice_pitch, num_sync, sync_list, sync_point, mutable_handle);
}

cl_int CL_API_CALL clCommandCopyBufferToImageKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem src,
                                                 cl_mem dst, size_t src_offset, const size_t *dst_origin,
                                                 const size_t *region, cl_uint num_sync,
                                                 const cl_sync_point_khr *sync_list, cl_sync_point_khr *sync_point,
                                                 cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {src, dst}, v); err != CL_SUCCESS) return err;
  return cb->vendor.CopyBufferToImage(v.queue, v.mem[0], v.mem[1], src_offset, dst_origin, region, num_sync, sync_list, sync_point,
                                      mutable_handle);
}

cl_int CL_API_CALL clCommandCopyImageKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem src, cl_mem dst,
                                         const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                                         cl_uint num_sync, const cl_sync_point_khr *sync_list,
                                         cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {src, dst}, v); err != CL_SUCCESS) return err;
  return cb->vendor.CopyImage(v.queue, v.mem[0], v.mem[1], src_origin, dst_origin, region, num_sync, sync_list, sync_point,
                              mutable_handle);
}

cl_int CL_API_CALL clCommandCopyImageToBufferKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem src,
                                                 cl_mem dst, const size_t *src_origin, const size_t *region,
                                                 size_t dst_offset, cl_uint num_sync,
                                                 const cl_sync_point_khr *sync_list, cl_sync_point_khr *sync_point,
                                                 cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {src, dst}, v); err != CL_SUCCESS) return err;
  return cb->vendor.CopyImageToBuffer(v.queue, v.mem[0], v.mem[1], src_origin, region, dst_offset, num_sync, sync_list, sync_point,
                                      mutable_handle);
}

cl_int CL_API_CALL clCommandFillBufferKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem buffer,
                                          const void *pattern, size_t pattern_size, size_t offset, size_t size,
                                          cl_uint num_sync, const cl_sync_point_khr *sync_list,
                                          cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {buffer}, v); err != CL_SUCCESS) return err;
  return cb->vendor.FillBuffer(v.queue, v.mem[0], pattern, pattern_size, offset, size, num_sync, sync_list, sync_point,
                               mutable_handle);
}

cl_int CL_API_CALL clCommandFillImageKHR(cl_command_buffer_khr cb, cl_command_queue q, cl_mem image,
                                         const void *fill_color, const size_t *origin, const size_t *region,
                                         cl_uint num_sync, const cl_sync_point_khr *sync_list,
                                         cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  VendorOperands v;
  if (cl_int err = operands(cb, q, {image}, v); err != CL_SUCCESS) return err;
  return cb->vendor.FillImage(v.queue, v.mem[0], fill_color, origin, region, num_sync, sync_list, sync_point, mutable_handle);
}

cl_int CL_API_CALL clCommandNDRangeKernelKHR(cl_command_buffer_khr cb, cl_command_queue q,
                                             const cl_ndrange_kernel_command_properties_khr *properties,
                                             cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
                                             const size_t *global_work_size, const size_t *local_work_size,
                                             cl_uint num_sync, const cl_sync_point_khr *sync_list,
                                             cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  cl_command_queue vq = nullptr;
  if (cl_int err = recording(cb, q, vq); err != CL_SUCCESS) return err;
  if (!live(kernel)) return refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel");
  if (kernel->program->context.get() != cb->queue->context.get()) return refuse(CL_INVALID_CONTEXT, "kernel belongs to another context than the command buffer");
  // Checked here: PoCL records a launch of no dimensions and crashes.
  cl_device_id device = cb->queue->context->slots[0].device->vendor;
  if (work_dim < 1 || work_dim > vendor_value<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, 3))
    return refuse(CL_INVALID_WORK_DIMENSION, "work_dim is 0 or above the device's CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS");
  if (!global_work_size) return refuse(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
  // The vendor kernel holds the arguments (one-device contexts set them
  // there as they are set). A launch runs with the arguments it was recorded
  // with, whatever the application sets later, as the extension says; PoCL
  // reads them when it runs, so the launch records a copy of the kernel.
  cl_kernel vk = kernel->per_slot[0].get();
  if (!vk) return refuse(CL_INVALID_PROGRAM_EXECUTABLE, "the kernel's program is not built for the queue's device");
  cl_int err = CL_SUCCESS;
  VendorRef<cl_kernel> recorded = cb->queue->context->slots[0].device->vendor_version >= 210
                                      ? vendor_clone_kernel(vk, err)
                                      : VendorRef<cl_kernel>::share(vk);  // no clones before OpenCL 2.1
  if (err != CL_SUCCESS) return err;
  err = cb->vendor.NDRangeKernel(vq, properties, recorded.get(), work_dim, global_work_offset, global_work_size,
                                 local_work_size, num_sync, sync_list, sync_point, mutable_handle);
  if (err == CL_SUCCESS) {
    std::lock_guard lock(cb->mutex);
    cb->recorded_kernels.push_back(std::move(recorded));
  }
  return err;
}

cl_int CL_API_CALL clGetCommandBufferInfoKHR(cl_command_buffer_khr cb, cl_command_buffer_info_khr param, size_t size,
                                             void *value, size_t *size_ret) {
  if (!live(cb)) return refuse(CL_INVALID_COMMAND_BUFFER_KHR, "command_buffer is NULL or not a live command buffer");
  switch (param) {
    case CL_COMMAND_BUFFER_QUEUES_KHR:
      return info_vector(size, value, size_ret, std::vector<cl_command_queue>{cb->queue.get()});
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR: return info_value<cl_uint>(size, value, size_ret, 1);
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR: return info_value<cl_uint>(size, value, size_ret, cb->refs.load());
    default: return cb->vendor.info(param, size, value, size_ret);  // state, properties
  }
}

}  // namespace unicl::api
