// Memory objects as the application holds them. In a context of one
// device a UniCL buffer is a thin wrapper of one vendor buffer. In a
// context of several it owns a replica per device (made on first use) plus
// a host copy; which copies are valid is the memory layer's business
// (src/memory), seen from here only through the Residency interface.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "core/context.hpp"

namespace unicl {

struct HostStaging {
  std::unique_ptr<std::byte, void (*)(void *)> owned{nullptr, nullptr};
  void *ptr = nullptr;  // `owned` or the application's CL_MEM_USE_HOST_PTR memory
};

// Where a root buffer's bytes are valid, as the memory layer tracks them.
// Locations are the context's slots, then the host copy. The schedulers
// weigh placements with it; only src/memory changes it.
class Residency {
 public:
  virtual ~Residency() = default;
  // Bytes of [offset, offset + length) of the root buffer valid there.
  virtual size_t valid_bytes(size_t location, size_t offset, size_t length) const = 0;
  // The host copy's location (= the number of slots).
  virtual size_t host() const = 0;
};

// Fires the application's destructor callbacks once every vendor replica is
// really gone (vendors free them only after their commands finish), then
// frees the host copy.
struct DestructionNotice {
  using Callback = void(CL_CALLBACK *)(cl_mem, void *);
  std::atomic<int> pending{1};
  cl_mem handle = nullptr;
  std::mutex mutex;
  std::vector<std::pair<Callback, void *>> callbacks;
  std::shared_ptr<HostStaging> staging;
  static void arrive(std::shared_ptr<DestructionNotice> self);
};

enum Access : unsigned { kRead = 1, kWrite = 2, kReadWrite = 3 };

// The memory of a memory object on one device. In multi-device contexts it
// is planned under the context lock and made by the slot's issue queue
// (backend/issue_queue.hpp): work issued after it there finds `handle`
// set, or `error` when the vendor refused it.
struct DeviceCopy {
  DeviceCopy() = default;
  explicit DeviceCopy(VendorRef<cl_mem> h) : handle(std::move(h)) {}
  VendorRef<cl_mem> handle;
  std::atomic<cl_int> error{CL_SUCCESS};
  cl_mem get() const { return handle.get(); }
  bool refused() const { return error.load(std::memory_order_acquire) != CL_SUCCESS; }

  // Whose destruction notice the vendor's freeing of this memory counts
  // in: the memory object it was made for, or the one it was handed to
  // when that one was evicted (residency.cpp recycles the memory of
  // evicted buffers). Multi-device contexts only.
  struct Owner {
    std::mutex mutex;
    std::shared_ptr<DestructionNotice> notice;
    bool unwatched = false;  // the vendor could not tell when it frees the memory: not to be handed on
  };
  std::shared_ptr<Owner> owner;
};

}  // namespace unicl

struct _cl_mem : unicl::ObjectHeader {
  static constexpr unicl::Kind kKind = unicl::Kind::Mem;
  _cl_mem() : ObjectHeader(kKind) {}
  ~_cl_mem();

  unicl::Ref<_cl_context> context;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  cl_mem_flags flags = 0;
  size_t size = 0;
  void *host_ptr = nullptr;
  unicl::Ref<_cl_mem> parent;  // sub-buffers and buffer-backed images
  size_t origin = 0;           // sub-buffer offset in parent
  cl_image_format format{};
  cl_image_desc desc{};
  size_t element_size = 0;
  std::vector<cl_mem_properties> property_list;
  bool properties_given = false;
  std::atomic<cl_uint> map_count{0};
  // Commands enqueued that use it or a sub-buffer of it (counted on the
  // root): a divider tells by it whether anything touched the buffer since
  // its own last pieces, which then left their bytes where they ran.
  std::atomic<uint64_t> commands{0};
  std::atomic<int> children{0};  // sub-buffers and images made from it
  // One vendor buffer serves every device: a buffer over SVM memory of a
  // context whose devices share one vendor context, which the vendor keeps
  // coherent (core/svm.hpp). Its pointers must be the SVM addresses on
  // every device, so UniCL makes no copies of it and its coherence leaves
  // it alone. Sub-buffers of it are shared the same way.
  bool vendor_shared = false;
  uint64_t last_use = 0;         // context->use_clock of its last command (context->mutex)

  // Per slot; the vector and its pointers guarded by context->mutex, each
  // copy's handle written once by its slot's issue queue.
  std::vector<std::shared_ptr<unicl::DeviceCopy>> replicas;
  std::shared_ptr<unicl::Residency> coherence;       // root buffers in multi-slot contexts (src/memory)
  std::shared_ptr<unicl::DestructionNotice> notice;
  // Multi-slot contexts map the host copy; each live map and its access.
  struct HostMapping {
    void *ptr;
    unsigned access;
    size_t offset, size;  // the bytes of this object it maps (size ~0: all)
    bool operator==(const HostMapping &) const = default;
  };
  std::vector<HostMapping> host_maps;  // guarded by context->mutex

  bool is_image() const { return type != CL_MEM_OBJECT_BUFFER && type != CL_MEM_OBJECT_PIPE; }
  _cl_mem *root() { return parent && type == CL_MEM_OBJECT_BUFFER ? parent->root() : this; }
  // Bytes a replica of this object (or its host copy) occupies.
  size_t device_bytes();
  // The whole image as an (x, y, z) region for image transfers.
  void full_region(size_t region[3]) const;
  // Bytes of one row of a 2-D image of its own memory (not made from a
  // buffer), whose copies are kept coherent by whole rows: a split launch
  // writes some rows of it on each device. 0 for every other object
  // (buffers by bytes, other images whole).
  size_t row_bytes() const;
  // Multi-device contexts: bytes of this object valid at `location` (a
  // slot, or the host copy), of device_bytes().
  size_t bytes_valid_on(size_t location);
  // Whether every one of them is.
  bool wholly_valid_on(size_t location) { return bytes_valid_on(location) == device_bytes(); }
};

