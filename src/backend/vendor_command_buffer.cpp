#include "backend/vendor_command_buffer.hpp"

#include <type_traits>

#include "backend/vendor.hpp"

namespace unicl {

bool VendorCommandBufferApi::complete() const {
  return create && finalize && retain && release && enqueue && barrier && copy_buffer && copy_buffer_rect &&
         copy_buffer_to_image && copy_image && copy_image_to_buffer && fill_buffer && fill_image && ndrange_kernel &&
         info;
}

VendorCommandBufferApi vendor_command_buffer_api(cl_platform_id platform) {
  VendorCommandBufferApi api;
  auto find = [&](auto &slot, const char *name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        vendor_table(platform).clGetExtensionFunctionAddressForPlatform(platform, name));
  };
  find(api.create, "clCreateCommandBufferKHR");
  find(api.finalize, "clFinalizeCommandBufferKHR");
  find(api.retain, "clRetainCommandBufferKHR");
  find(api.release, "clReleaseCommandBufferKHR");
  find(api.enqueue, "clEnqueueCommandBufferKHR");
  find(api.barrier, "clCommandBarrierWithWaitListKHR");
  find(api.copy_buffer, "clCommandCopyBufferKHR");
  find(api.copy_buffer_rect, "clCommandCopyBufferRectKHR");
  find(api.copy_buffer_to_image, "clCommandCopyBufferToImageKHR");
  find(api.copy_image, "clCommandCopyImageKHR");
  find(api.copy_image_to_buffer, "clCommandCopyImageToBufferKHR");
  find(api.fill_buffer, "clCommandFillBufferKHR");
  find(api.fill_image, "clCommandFillImageKHR");
  find(api.ndrange_kernel, "clCommandNDRangeKernelKHR");
  find(api.info, "clGetCommandBufferInfoKHR");
  return api;
}

VendorCommandBuffer VendorCommandBuffer::make(cl_platform_id platform, cl_command_queue queue,
                                              const cl_command_buffer_properties_khr *properties, cl_int &err) {
  VendorCommandBuffer out;
  out.api_ = vendor_command_buffer_api(platform);
  if (!out.api_.complete()) {
    err = CL_INVALID_OPERATION;
    return out;
  }
  out.handle_ = out.api_.create(1, &queue, properties, &err);
  if (err != CL_SUCCESS) out.handle_ = nullptr;
  return out;
}

}  // namespace unicl
