// A node's staged copies of read-only buffers that rank 0 wrote whole.
//
// Why: a buffer every device reads (a matrix all blocks multiply by) comes
// to a node once, and the node's other devices then copy it from the first.
// Read back from a device with a copy engine of its own, each such copy
// costs the source device's read on top of the receiver's write, and the
// reads queue one after another on that one engine. The bytes rank 0 sent
// are still in the node's staging memory: kept, they feed each local
// device's write directly, and a copy to another node sends them straight,
// with no device read at all.
//
// Which buffers: those kernels cannot write (CL_MEM_READ_ONLY), neither a
// sub-buffer nor the parent of one (a write through either would change the
// other's bytes unseen). Whatever else may change one (a write, copy, fill
// or copy from another node into it) forgets its copy when it is enqueued,
// as does its release. Copies are kept within a budget, oldest dropped first.
#pragma once
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace unicl::cluster {

class StagedBytes {
 public:
  using Bytes = std::shared_ptr<std::vector<char>>;
  static constexpr size_t kBudget = size_t{256} << 20;
  // Whether a buffer of `size` bytes may be kept: by default, what its
  // vendor says of it (read-only, no sub-buffer, that size).
  using Qualifies = std::function<bool(cl_mem buffer, size_t size)>;
  static bool vendor_says_read_only(cl_mem buffer, size_t size);
  explicit StagedBytes(Qualifies qualifies = vendor_says_read_only, size_t budget = kBudget)
      : qualifies_(std::move(qualifies)), budget_(budget) {}

  // `bytes` now hold the whole of `buffer` (a write of all of it just
  // received): kept if the buffer qualifies, else any older copy forgotten.
  void keep(cl_mem buffer, Bytes bytes);
  // Something may change `buffer`'s bytes, or it is released.
  void forget(cl_mem buffer) {
    drop(buffer);
    ++changes_[buffer];
  }
  // `parent` got a sub-buffer: no copy of it from now on, until released.
  void shares_storage(cl_mem parent);
  void released(cl_mem buffer);
  // The copy of `buffer`, if there is one holding [offset, offset + size).
  Bytes find(cl_mem buffer, size_t offset, size_t size) const;
  // Whether `bytes` hold [offset, offset + size).
  static bool holds(const Bytes &bytes, size_t offset, size_t size) {
    return offset <= bytes->size() && size <= bytes->size() - offset;
  }
  // Whether keep() would keep `size` bytes of `buffer` (it qualifies, fits
  // the budget and has no sub-buffer).
  bool may_keep(cl_mem buffer, size_t size) const {
    return !shared_.count(buffer) && size <= budget_ && qualifies_(buffer, size);
  }
  // How many times something may have changed `buffer` (forget,
  // shares_storage, released): a write whose bytes come later keeps them
  // only if nothing did since it was enqueued.
  uint64_t changes(cl_mem buffer) const {
    auto it = changes_.find(buffer);
    return it == changes_.end() ? 0 : it->second;
  }

 private:
  void drop(cl_mem buffer);
  Qualifies qualifies_;
  size_t budget_;
  struct Copy {
    Bytes bytes;
    uint64_t age = 0;
  };
  std::unordered_map<cl_mem, Copy> copies_;
  std::unordered_set<cl_mem> shared_;  // parents of sub-buffers
  // Never erased: a handle the vendor gives again after a release goes on
  // counting, so a count taken before the release cannot match after it.
  std::unordered_map<cl_mem, uint64_t> changes_;
  size_t bytes_ = 0;
  uint64_t clock_ = 0;
};

}  // namespace unicl::cluster
