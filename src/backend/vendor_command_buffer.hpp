// A vendor's command buffer (cl_khr_command_buffer). Extension functions are
// not in the ICD dispatch table: each vendor hands them out through its
// clGetExtensionFunctionAddressForPlatform, and they are called here, as
// every vendor call is in this folder.
#pragma once
#include <utility>

#include "backend/cl_headers.hpp"
#include "backend/vendor_commands.hpp"

namespace unicl {

struct VendorCommandBufferApi {
  clCreateCommandBufferKHR_fn create = nullptr;
  clFinalizeCommandBufferKHR_fn finalize = nullptr;
  clRetainCommandBufferKHR_fn retain = nullptr;
  clReleaseCommandBufferKHR_fn release = nullptr;
  clEnqueueCommandBufferKHR_fn enqueue = nullptr;
  clCommandBarrierWithWaitListKHR_fn barrier = nullptr;
  clCommandCopyBufferKHR_fn copy_buffer = nullptr;
  clCommandCopyBufferRectKHR_fn copy_buffer_rect = nullptr;
  clCommandCopyBufferToImageKHR_fn copy_buffer_to_image = nullptr;
  clCommandCopyImageKHR_fn copy_image = nullptr;
  clCommandCopyImageToBufferKHR_fn copy_image_to_buffer = nullptr;
  clCommandFillBufferKHR_fn fill_buffer = nullptr;
  clCommandFillImageKHR_fn fill_image = nullptr;
  clCommandNDRangeKernelKHR_fn ndrange_kernel = nullptr;
  clGetCommandBufferInfoKHR_fn info = nullptr;
  // Every entry point was found.
  bool complete() const;
};

// The entry points of the vendor of `platform` (a vendor platform); those
// it does not have stay null.
VendorCommandBufferApi vendor_command_buffer_api(cl_platform_id platform);

// One vendor command buffer, owned: released with this object.
class VendorCommandBuffer {
 public:
  VendorCommandBuffer() = default;
  // Makes one for `queue` (a vendor queue of the vendor of `platform`).
  static VendorCommandBuffer make(cl_platform_id platform, cl_command_queue queue,
                                  const cl_command_buffer_properties_khr *properties, cl_int &err);
  VendorCommandBuffer(VendorCommandBuffer &&o) noexcept
      : api_(o.api_), handle_(std::exchange(o.handle_, nullptr)) {}
  VendorCommandBuffer &operator=(VendorCommandBuffer o) noexcept {
    std::swap(api_, o.api_);
    std::swap(handle_, o.handle_);
    return *this;
  }
  ~VendorCommandBuffer() {
    if (handle_) api_.release(handle_);
  }
  explicit operator bool() const { return handle_ != nullptr; }

  cl_int finalize() { return api_.finalize(handle_); }
  // Enqueues it with `on`'s wait list and event: on `on.queue` instead of
  // its own when `substitute`.
  cl_int enqueue(const VendorEnqueue &on, bool substitute) {
    cl_command_queue q = on.queue;
    return api_.enqueue(substitute ? 1 : 0, substitute ? &q : nullptr, handle_, on.num_wait, on.wait, on.event);
  }
  cl_int info(cl_command_buffer_info_khr param, size_t size, void *value, size_t *size_ret) {
    return api_.info(handle_, param, size, value, size_ret);
  }
  // The recording calls, named after the entry point without clCommand and
  // KHR: CopyBuffer(queue, src, dst, ...) calls clCommandCopyBufferKHR(this
  // buffer, queue, src, dst, ...).
#define UNICL_VENDOR_RECORD(name, slot)   \
  template <class... A>                   \
  cl_int name(A... args) {                \
    return api_.slot(handle_, args...);   \
  }
  UNICL_VENDOR_RECORD(BarrierWithWaitList, barrier)
  UNICL_VENDOR_RECORD(CopyBuffer, copy_buffer)
  UNICL_VENDOR_RECORD(CopyBufferRect, copy_buffer_rect)
  UNICL_VENDOR_RECORD(CopyBufferToImage, copy_buffer_to_image)
  UNICL_VENDOR_RECORD(CopyImage, copy_image)
  UNICL_VENDOR_RECORD(CopyImageToBuffer, copy_image_to_buffer)
  UNICL_VENDOR_RECORD(FillBuffer, fill_buffer)
  UNICL_VENDOR_RECORD(FillImage, fill_image)
  UNICL_VENDOR_RECORD(NDRangeKernel, ndrange_kernel)
#undef UNICL_VENDOR_RECORD

 private:
  VendorCommandBufferApi api_;
  cl_command_buffer_khr handle_ = nullptr;
};

}  // namespace unicl
