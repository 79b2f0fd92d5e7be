// A device of a local vendor as a DeviceEndpoint: memory made in the
// device's vendor context, copies on in-order, profiled queues of its own
// (one per direction, so that write-backs of evicted buffers overlap the
// uploads that follow them) whose times refine the link models. Copies are
// ordered by their wait lists, never by sharing a queue. Devices of a vendor
// library that copies between its own contexts (cl_ext_unicl.h,
// clEnqueueCopyBufferToPeerUNICL: UniCL's node client) copy from each other
// directly.
#pragma once
#include <mutex>

#include "backend/endpoint.hpp"

namespace unicl {

class LocalDevice final : public DeviceEndpoint {
 public:
  // `context`: the vendor context of this device in a UniCL context.
  LocalDevice(std::string name, cl_device_id device, VendorRef<cl_context> context);

  const std::string &name() const override { return name_; }
  cl_int create_buffer(cl_mem_flags flags, size_t size, VendorRef<cl_mem> &out) override;
  cl_int create_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size,
                           VendorRef<cl_mem> &out) override;
  cl_int create_image(cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
                      VendorRef<cl_mem> &out) override;
  cl_int on_freed(cl_mem object, std::function<void()> fn) override;
  cl_int copy(bool to_host, const HostCopy &what, std::span<const std::shared_ptr<Completion>> wait,
              std::shared_ptr<Completion> &done) override;
  // The one vendor with peer copies is UniCL's node client.
  bool times_on_host_clock() const override { return peer_copy_ != nullptr; }
  bool reaches_from(const DeviceEndpoint &src) const override;
  cl_int copy_from(DeviceEndpoint &src, cl_mem src_object, cl_mem dst_object, size_t offset, size_t length,
                   std::span<const std::shared_ptr<Completion>> wait, std::shared_ptr<Completion> &done) override;

 private:
  cl_int transfer_queue(bool to_host, cl_command_queue &out);

  std::string name_;
  cl_device_id device_;
  VendorRef<cl_context> context_;
  std::mutex queue_mutex_;
  VendorRef<cl_command_queue> queues_[2];  // to the device, to the host; made on first use
  // The vendor's clEnqueueCopyBufferToPeerUNICL, or null.
  clEnqueueCopyBufferToPeerUNICL_fn peer_copy_ = nullptr;
};

}  // namespace unicl
