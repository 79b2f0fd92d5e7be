#include "backend/local_device.hpp"

#include <vector>

#include "backend/vendor_callback.hpp"
#include "backend/vendor_info.hpp"

namespace unicl {

namespace {

std::vector<cl_event> vendor_events(std::span<const std::shared_ptr<Completion>> wait) {
  std::vector<cl_event> events;
  for (auto &c : wait)
    if (cl_event e = c->vendor_event()) events.push_back(e);
  return events;
}

}  // namespace

LocalDevice::LocalDevice(std::string name, cl_device_id device, VendorRef<cl_context> context)
    : name_(std::move(name)), device_(device), context_(std::move(context)) {
  cl_platform_id platform = vendor_value<cl_platform_id>(device_, CL_DEVICE_PLATFORM);
  if (platform && vendor_table(platform).clGetExtensionFunctionAddressForPlatform)
    peer_copy_ = reinterpret_cast<clEnqueueCopyBufferToPeerUNICL_fn>(
        vendor_table(platform).clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueCopyBufferToPeerUNICL"));
}

cl_int LocalDevice::create_buffer(cl_mem_flags flags, size_t size, VendorRef<cl_mem> &out) {
  cl_int err = CL_SUCCESS;
  cl_context c = context_.get();
  cl_mem m = vendor_table(c).clCreateBuffer(c, flags, size, nullptr, &err);
  if (err == CL_SUCCESS) out = VendorRef<cl_mem>::adopt(m);
  return err;
}

cl_int LocalDevice::create_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size,
                                      VendorRef<cl_mem> &out) {
  cl_int err = CL_SUCCESS;
  cl_buffer_region region{origin, size};
  cl_mem m = vendor_table(parent).clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  if (err == CL_SUCCESS) out = VendorRef<cl_mem>::adopt(m);
  return err;
}

cl_int LocalDevice::create_image(cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
                                 VendorRef<cl_mem> &out) {
  cl_int err = CL_SUCCESS;
  cl_context c = context_.get();
  cl_mem m = vendor_table(c).clCreateImage(c, flags, &format, &desc, nullptr, &err);
  if (err == CL_SUCCESS) out = VendorRef<cl_mem>::adopt(m);
  return err;
}

cl_int LocalDevice::on_freed(cl_mem object, std::function<void()> fn) {
  return set_vendor_destructor_callback(object, [fn = std::move(fn)](cl_mem) { fn(); });
}

cl_int LocalDevice::transfer_queue(bool to_host, cl_command_queue &out) {
  std::lock_guard lock(queue_mutex_);
  VendorRef<cl_command_queue> &queue = queues_[to_host ? 1 : 0];
  if (!queue) {
    cl_int err = CL_SUCCESS;
    cl_context c = context_.get();
    // Profiled: transfer times refine the link models.
    cl_command_queue q = vendor_table(c).clCreateCommandQueue(c, device_, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) return err;
    queue = VendorRef<cl_command_queue>::adopt(q);
  }
  out = queue.get();
  return CL_SUCCESS;
}

cl_int LocalDevice::copy(bool to_host, const HostCopy &what, std::span<const std::shared_ptr<Completion>> wait,
                         std::shared_ptr<Completion> &done) {
  cl_command_queue q;
  if (cl_int err = transfer_queue(to_host, q); err != CL_SUCCESS) return err;
  std::vector<cl_event> events = vendor_events(wait);
  auto n = static_cast<cl_uint>(events.size());
  const cl_event *list = events.empty() ? nullptr : events.data();
  const cl_icd_dispatch &d = vendor_table(q);
  cl_event ev = nullptr;
  cl_int err;
  if (what.image) {
    err = to_host ? d.clEnqueueReadImage(q, what.object, CL_FALSE, what.origin, what.region, 0, 0, what.host, n, list, &ev)
                  : d.clEnqueueWriteImage(q, what.object, CL_FALSE, what.origin, what.region, 0, 0, what.host, n, list, &ev);
  } else {
    err = to_host
              ? d.clEnqueueReadBuffer(q, what.object, CL_FALSE, what.offset, what.length, what.host, n, list, &ev)
              : d.clEnqueueWriteBuffer(q, what.object, CL_FALSE, what.offset, what.length, what.host, n, list, &ev);
  }
  if (err == CL_SUCCESS) done = vendor_completion(VendorRef<cl_event>::adopt(ev), VendorRef<cl_command_queue>::share(q));
  return err;
}

bool LocalDevice::reaches_from(const DeviceEndpoint &src) const {
  auto *local = dynamic_cast<const LocalDevice *>(&src);
  return peer_copy_ && local && local != this && local->peer_copy_ == peer_copy_;
}

cl_int LocalDevice::copy_from(DeviceEndpoint &src, cl_mem src_object, cl_mem dst_object, size_t offset,
                              size_t length, std::span<const std::shared_ptr<Completion>> wait,
                              std::shared_ptr<Completion> &done) {
  if (!reaches_from(src)) return CL_INVALID_OPERATION;
  // The source's queue out of the device, this device's queue into it: the
  // copy is ordered with the other transfers of both as theirs are.
  cl_command_queue from = nullptr, to = nullptr;
  if (cl_int err = static_cast<LocalDevice &>(src).transfer_queue(true, from); err != CL_SUCCESS) return err;
  if (cl_int err = transfer_queue(false, to); err != CL_SUCCESS) return err;
  std::vector<cl_event> events = vendor_events(wait);
  cl_event ev = nullptr;
  cl_int err = peer_copy_(from, to, src_object, dst_object, offset, offset, length,
                          static_cast<cl_uint>(events.size()), events.empty() ? nullptr : events.data(), &ev);
  if (err == CL_SUCCESS) done = vendor_completion(VendorRef<cl_event>::adopt(ev), VendorRef<cl_command_queue>::share(to));
  return err;
}

}  // namespace unicl
