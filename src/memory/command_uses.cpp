#include "memory/command_uses.hpp"

#include "backend/lock_rules.hpp"
#include "core/context.hpp"

namespace unicl {

void CommandUses::add(_cl_mem *m, Access access, Touched touched) {
  // An image made from a buffer is that buffer's bytes on each device: the
  // buffer's must be valid where the command runs, and what the command
  // writes is the buffer's too.
  if (m->is_image() && m->parent) {
    _cl_mem *buffer = m->parent.get();
    buffer->root()->commands.fetch_add(1, std::memory_order_relaxed);
    implied_.push_back({Ref<_cl_mem>(buffer), access, false, access, root_range(buffer, 0, kWhole), false});
  }
  uses_.push_back({Ref<_cl_mem>(m), access, false, access, root_range(m, touched.offset, touched.size),
                   touched.overwritten});
}

void CommandUses::add_host(_cl_mem *m, Access access, Access recorded, Touched touched) {
  uses_.push_back({Ref<_cl_mem>(m), access, true, recorded, root_range(m, touched.offset, touched.size),
                   touched.overwritten});
}

std::vector<std::pair<_cl_mem *, unsigned>> CommandUses::buffers() const {
  std::vector<std::pair<_cl_mem *, unsigned>> out;
  out.reserve(uses_.size() + implied_.size());
  for (auto &u : uses_) out.emplace_back(u.mem.get(), u.access);
  for (auto &u : implied_) out.emplace_back(u.mem.get(), u.access);
  return out;
}

cl_int CommandUses::prepare(std::vector<Use> &uses, size_t slot, WaitList &wait,
                            std::vector<std::shared_ptr<DeviceCopy>> &copies) {
  if (uses.empty()) return CL_SUCCESS;
  // The command's own buffers are the most recently used: eviction spares them.
  UNICL_HOLDS(uses[0].mem->context->mutex, "use_clock and last_use: caller holds the context lock");
  uint64_t stamp = ++uses[0].mem->context->use_clock;
  for (auto &u : uses) u.mem->root()->last_use = stamp;
  for (auto &u : uses) {
    if (u.mem->root()->vendor_shared) {
      copies.push_back(u.mem->replicas[slot]);
      continue;
    }
    cl_int err;
    std::shared_ptr<DeviceCopy> copy;
    if (u.host) {
      err = acquire_host(u.mem.get(), u.range, u.access, slot, wait);
    } else {
      err = replica(u.mem.get(), slot, copy, &wait);
      if (err == CL_SUCCESS) err = acquire(u.mem.get(), u.range, slot, u.access, u.overwritten, wait);
    }
    copies.push_back(std::move(copy));
    if (err != CL_SUCCESS) return err;
  }
  return wait.blocked() ? kBlocked : CL_SUCCESS;
}

void CommandUses::record_all(std::vector<Use> &uses, size_t slot, const std::shared_ptr<Completion> &done) {
  if (uses.empty()) return;
  AccessToken token = access_token(done, slot);
  for (auto &u : uses) {
    if (u.mem->root()->vendor_shared) continue;
    if (u.host) record_host(u.mem.get(), u.range, u.recorded, token);
    else record(u.mem.get(), u.range, u.access, token);
  }
}

}  // namespace unicl
