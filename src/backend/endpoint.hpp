// One device of a context as the memory layer reaches it: memory for the
// copies of buffers and images, copies between that memory and host
// memory, and the completions of those copies. Its one implementation
// (local_device.hpp) calls the device's vendor through its ICD dispatch
// table; devices of other nodes take the same path, their vendor being
// UniCL's node client (src/cluster), so coherence and transfer planning
// need no second one.
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "backend/completion.hpp"

namespace unicl {

// What a copy moves: bytes [offset, offset + length) of a buffer, or the
// pixels of an image at `origin` (`region` in pixels: the whole image, or
// whole rows of a 2-D one), and where they are in host memory (packed).
struct HostCopy {
  cl_mem object;
  bool image = false;
  size_t offset = 0, length = 0;
  size_t origin[3] = {0, 0, 0}, region[3] = {0, 0, 0};
  void *host = nullptr;
};

class DeviceEndpoint {
 public:
  virtual ~DeviceEndpoint() = default;
  // The device's name, as performance models and traces know it.
  virtual const std::string &name() const = 0;

  // Device memory for a copy of a memory object (`flags`: access bits).
  virtual cl_int create_buffer(cl_mem_flags flags, size_t size, VendorRef<cl_mem> &out) = 0;
  virtual cl_int create_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size,
                                   VendorRef<cl_mem> &out) = 0;
  virtual cl_int create_image(cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
                              VendorRef<cl_mem> &out) = 0;
  // Runs `fn` once the device has really freed `object` (after the commands
  // that used it).
  virtual cl_int on_freed(cl_mem object, std::function<void()> fn) = 0;

  // Copies device memory to host memory (`to_host`) or back, after every
  // completion in `wait` (all of this device); `done` gets the copy's.
  virtual cl_int copy(bool to_host, const HostCopy &what, std::span<const std::shared_ptr<Completion>> wait,
                      std::shared_ptr<Completion> &done) = 0;

  // Whether the profiling times of its commands are on this process's
  // steady clock rather than the vendor's own (a device of another node:
  // its client moves them there, cluster/protocol/steady_clock.hpp).
  virtual bool times_on_host_clock() const { return false; }

  // Whether this device can copy bytes straight from `src`'s memory (no
  // detour through host memory): devices of other nodes, for one.
  virtual bool reaches_from(const DeviceEndpoint &src) const { return false; }
  // Copies `length` bytes at `offset` of `src_object` (memory of `src`,
  // which reaches_from() accepted) to the same bytes of `dst_object` (this
  // device's), after every completion in `wait` (of either device).
  virtual cl_int copy_from(DeviceEndpoint &src, cl_mem src_object, cl_mem dst_object, size_t offset, size_t length,
                           std::span<const std::shared_ptr<Completion>> wait, std::shared_ptr<Completion> &done) {
    return CL_INVALID_OPERATION;
  }
};

}  // namespace unicl
