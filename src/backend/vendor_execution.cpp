#include "backend/vendor_execution.hpp"

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>

namespace unicl {

// Slot `Slot` of serialized vendor number I: the vendor's own entry, called
// with the lock held.
template <class R, class... A>
struct VendorExecution::Entry<R(CL_API_CALL *)(A...)> {
  template <size_t I, auto Slot>
  static R CL_API_CALL call(A... args) {
    VendorExecution &x = *active_.load(std::memory_order_acquire);
    std::lock_guard lock(x.mutex_);
    return (x.serialized_[I].own->*Slot)(args...);
  }
};

template <size_t I>
void VendorExecution::serialize(Serialized &s) {
  s.table = *s.own;
  // Slots the header declares as plain pointers (another platform's
  // interop) and slots the vendor leaves empty stay as they are.
  auto wrap = []<auto Slot>(auto &entry) {
    using Fn = std::remove_reference_t<decltype(entry)>;
    if constexpr (std::is_pointer_v<Fn> && std::is_function_v<std::remove_pointer_t<Fn>>)
      if (entry) entry = &Entry<Fn>::template call<I, Slot>;
  };
#define UNICL_DISPATCH_SLOT(name) wrap.template operator()<&cl_icd_dispatch::name>(s.table.name);
#include "dispatch_slots.hpp"
#undef UNICL_DISPATCH_SLOT
  // The one call left unserialized: oclgrind waits for a user event by
  // spinning inside the call that runs the command waiting for it (a
  // flush, finish or wait, holding the lock) until another thread sets
  // the event, which must therefore not need the lock. It only stores the
  // status and runs the event's callbacks; UniCL registers none on the
  // vendor user events it makes (core/event.cpp).
  s.table.clSetUserEventStatus = s.own->clSetUserEventStatus;
}

VendorExecution::VendorExecution() {
  VendorExecution *none = nullptr;
  active_.compare_exchange_strong(none, this);
}

VendorExecution::~VendorExecution() {
  VendorExecution *self = this;
  active_.compare_exchange_strong(self, nullptr);
}

void VendorExecution::add_runs_on_caller(const cl_icd_dispatch *table) {
  // Already serialized (one vendor library showing several platforms), or
  // one of the tables made here.
  if (serialized(table)) return;
  for (size_t i = 0; i < count_.load(std::memory_order_relaxed); ++i)
    if (&serialized_[i].table == table) return;
  size_t i = count_.load(std::memory_order_relaxed);
  if (i == kMaxSerialized) {
    // Calling such a vendor unserialized would corrupt it: stop at once.
    std::fprintf(stderr, "unicl: more than %zu vendors that are not thread-safe\n", kMaxSerialized);
    std::abort();
  }
  static constexpr auto kSerializers = []<size_t... I>(std::index_sequence<I...>) {
    return std::array{&serialize<I>...};
  }(std::make_index_sequence<kMaxSerialized>());
  serialized_[i].own = table;
  kSerializers[i](serialized_[i]);
  count_.store(i + 1, std::memory_order_release);
}

std::unique_lock<std::recursive_mutex> VendorExecution::hold(const cl_icd_dispatch *own) {
  if (!serialized(own)) return {};
  return std::unique_lock(active_.load(std::memory_order_acquire)->mutex_);
}

}  // namespace unicl
