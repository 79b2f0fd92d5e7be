#include "cluster/node/staged_bytes.hpp"

#include <algorithm>

#include "backend/vendor_info.hpp"

namespace unicl::cluster {

bool StagedBytes::vendor_says_read_only(cl_mem buffer, size_t size) {
  return vendor_value<cl_mem_object_type>(buffer, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER &&
         (vendor_value<cl_mem_flags>(buffer, CL_MEM_FLAGS) & CL_MEM_READ_ONLY) &&
         vendor_value<cl_mem>(buffer, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr &&
         vendor_value<size_t>(buffer, CL_MEM_SIZE) == size;
}

void StagedBytes::keep(cl_mem buffer, Bytes bytes) {
  drop(buffer);
  if (!bytes || !may_keep(buffer, bytes->size())) return;
  while (bytes_ + bytes->size() > budget_ && !copies_.empty()) {
    auto oldest = std::min_element(copies_.begin(), copies_.end(),
                                   [](auto &a, auto &b) { return a.second.age < b.second.age; });
    drop(oldest->first);
  }
  bytes_ += bytes->size();
  copies_[buffer] = {std::move(bytes), ++clock_};
}

void StagedBytes::shares_storage(cl_mem parent) {
  drop(parent);
  ++changes_[parent];
  shared_.insert(parent);
}

void StagedBytes::released(cl_mem buffer) {
  drop(buffer);
  ++changes_[buffer];
  shared_.erase(buffer);
}

StagedBytes::Bytes StagedBytes::find(cl_mem buffer, size_t offset, size_t size) const {
  auto it = copies_.find(buffer);
  if (it == copies_.end() || !holds(it->second.bytes, offset, size)) return nullptr;
  return it->second.bytes;
}

void StagedBytes::drop(cl_mem buffer) {
  auto it = copies_.find(buffer);
  if (it == copies_.end()) return;
  bytes_ -= it->second.bytes->size();
  copies_.erase(it);
}

}  // namespace unicl::cluster
