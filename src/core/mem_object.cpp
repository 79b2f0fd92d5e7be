// Memory objects' lifetime and geometry (what the memory layer and the
// API share about a memory object, whatever copies it has).
#include "core/mem_object.hpp"

#include <algorithm>

void unicl::DestructionNotice::arrive(std::shared_ptr<DestructionNotice> self) {
  if (self->pending.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  std::vector<std::pair<Callback, void *>> callbacks;
  {
    std::lock_guard lock(self->mutex);
    callbacks.swap(self->callbacks);
  }
  for (auto it = callbacks.rbegin(); it != callbacks.rend(); ++it) it->first(self->handle, it->second);
  self->staging.reset();
}

_cl_mem::~_cl_mem() {
  if (parent) parent->children.fetch_sub(1);
  if (coherence && !parent) {
    // The destructor may run with the context mutex held (a command that
    // held the last reference settling): only memory_mutex is taken.
    std::lock_guard lock(context->memory_mutex);
    std::erase(context->memory_objects, this);
    for (size_t s = 0; s < replicas.size(); ++s)
      if (replicas[s]) context->slots[s].mem_used -= device_bytes();
  }
  replicas.clear();
  if (notice) unicl::DestructionNotice::arrive(std::move(notice));
}

size_t _cl_mem::device_bytes() {
  if (!is_image()) return size;
  size_t region[3];
  full_region(region);
  // Arrays count their layers in the region; element_size covers the format.
  return element_size * region[0] * region[1] * region[2];
}

void _cl_mem::full_region(size_t region[3]) const {
  region[0] = desc.image_width;
  region[1] = std::max<size_t>(desc.image_height, 1);
  region[2] = std::max<size_t>(desc.image_depth, 1);
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) region[1] = desc.image_array_size;
  if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY) region[2] = desc.image_array_size;
  if (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER) region[1] = region[2] = 1;
  if (type == CL_MEM_OBJECT_IMAGE2D) region[2] = 1;
}

size_t _cl_mem::row_bytes() const {
  return type == CL_MEM_OBJECT_IMAGE2D && !parent ? desc.image_width * element_size : 0;
}

size_t _cl_mem::bytes_valid_on(size_t location) {
  _cl_mem *r = root();
  if (r->vendor_shared) return device_bytes();  // the same memory everywhere
  size_t offset = r == this || is_image() ? 0 : origin;
  return r->coherence->valid_bytes(location, offset, device_bytes());
}
