// The layout every object handed to an application shares, and the
// reference counting and handle validation built on it.
//
// The ICD loader reads the first word of every object as a pointer to the
// dispatch table, so each UniCL object type derives (without virtual
// functions, which would put a vtable pointer first) from ObjectHeader.
// Object storage comes from a per-type pool and is reused only for objects
// of the same type: a handle the application already released still points
// at readable memory whose `kind` says Dead, so calls on released objects
// return CL_INVALID_* instead of touching freed memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "backend/cl_headers.hpp"

namespace unicl {

// The table every new object carries: UniCL's entry points, or with
// UNICL_LOG=2 the same entries recording their names for the refusals they
// make (core/refusal.hpp). Generated with the table (icd/gen_dispatch.py).
namespace api { const cl_icd_dispatch *dispatch_in_use(); }

enum class Kind : std::uint32_t {
  Dead = 0xdeadu,
  Platform = 0x55434c01u,
  Device,
  Context,
  Queue,
  Mem,
  Program,
  Kernel,
  Event,
  Sampler,
  CommandBuffer,
};

struct ObjectHeader {
  const cl_icd_dispatch *dispatch = api::dispatch_in_use();
  std::atomic<Kind> kind;
  std::atomic<cl_uint> refs{1};
  explicit ObjectHeader(Kind k) : kind(k) {}
};

// Fixed-size cells for one object type. Cells are recycled, never returned
// to the system while the process runs (see the file comment).
class CellPool {
 public:
  explicit CellPool(std::size_t cell_size) : cell_size_(cell_size) {}
  void *take();
  void give_back(void *cell);
  // True when p is the start of a cell of this pool: lets UniCL tell a
  // handle it made from an arbitrary pointer-sized kernel argument.
  bool owns(const void *p) const;

 private:
  static constexpr std::size_t kCellsPerBlock = 256;
  std::size_t cell_size_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::vector<void *> free_;
};

CellPool &pool_for(Kind kind, std::size_t cell_size);

template <class T>
T *make_object_raw(auto &&...args) {
  void *cell = pool_for(T::kKind, sizeof(T)).take();
  return std::construct_at(static_cast<T *>(cell), std::forward<decltype(args)>(args)...);
}

// Validates an application handle: non-null and a live object of type T.
template <class T>
T *live(T *h) {
  if (!h) return nullptr;
  auto *hdr = static_cast<ObjectHeader *>(h);
  return hdr->kind.load(std::memory_order_acquire) == T::kKind ? h : nullptr;
}

// True when p is the address of a UniCL object of type T, live or released.
template <class T>
bool is_handle_cell(const void *p) {
  return p && pool_for(T::kKind, sizeof(T)).owns(p);
}

template <class T>
void retain(T *h) {
  h->refs.fetch_add(1, std::memory_order_relaxed);
}

template <class T>
void release(T *h) {
  if (h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  h->kind.store(Kind::Dead, std::memory_order_release);
  std::destroy_at(h);
  // Leave a dead header in the cell so later calls with this handle can
  // still read `kind` and reach UniCL's dispatch table.
  void *cell = static_cast<void *>(h);
  std::construct_at(static_cast<ObjectHeader *>(cell), Kind::Dead);
  pool_for(T::kKind, sizeof(T)).give_back(cell);
}

// RAII reference to a UniCL object.
template <class T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T *p, bool adopt = false) : p_(p) {
    if (p_ && !adopt) retain(p_);
  }
  Ref(const Ref &o) : Ref(o.p_) {}
  Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref &operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_) release(p_);
  }
  T *get() const { return p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  T *detach() { return std::exchange(p_, nullptr); }

 private:
  T *p_ = nullptr;
};

// Makes an object with one reference, owned by the returned Ref.
template <class T>
Ref<T> make_object(auto &&...args) {
  return Ref<T>(make_object_raw<T>(std::forward<decltype(args)>(args)...), true);
}

}  // namespace unicl
