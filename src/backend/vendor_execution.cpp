#include "backend/vendor_execution.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "backend/error_names.hpp"

namespace unicl {

namespace {

// The slots' names, in the table's order (one pointer per slot).
constexpr const char *kSlotNames[] = {
#define UNICL_DISPATCH_SLOT(name) #name,
#include "backend/dispatch_slots.hpp"
#undef UNICL_DISPATCH_SLOT
};

// The name of the device a failed call was for, asked through `table`
// (the vendor's, not the logging one: no message about the question).
std::string device_name(const cl_icd_dispatch &table, cl_device_id device) {
  char name[256] = {};
  if (!device || table.clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr) != CL_SUCCESS) return {};
  return name;
}

template <class T>
std::string device_of(const cl_icd_dispatch &table, T arg, cl_int err) {
  if constexpr (std::is_same_v<T, cl_device_id>) {
    if (err != CL_INVALID_DEVICE) return device_name(table, arg);
  } else if constexpr (std::is_same_v<T, cl_command_queue>) {
    cl_device_id device = nullptr;
    if (arg && err != CL_INVALID_COMMAND_QUEUE &&
        table.clGetCommandQueueInfo(arg, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) == CL_SUCCESS)
      return device_name(table, device);
  }
  return {};
}

template <class... A>
void report_failure(const cl_icd_dispatch &table, const char *vendor, VendorExecution::FailureReport report,
                    const char *call, cl_int err, A... args) {
  if (VendorExecution::Quiet::on()) return;  // one of UniCL's own questions
  std::string device;
  ((device.empty() ? void(device = device_of(table, args, err)) : void()), ...);
  std::string line = std::string("vendor ") + vendor + ": " + call + (device.empty() ? "" : " on device '" + device + "'") +
                     " returned " + error_name(err);
  report(line.c_str());
}

template <class... A>
constexpr bool last_is_errcode() {
  if constexpr (sizeof...(A) == 0) return false;
  else return std::is_same_v<std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>, cl_int *>;
}

}  // namespace

// Slot `Slot` (number `Index` of the table) of wrapped vendor number I.
template <class R, class... A>
struct VendorExecution::Entry<R(CL_API_CALL *)(A...)> {
  // The vendor's own entry, called with the lock held.
  template <size_t I, auto Slot, size_t Index>
  static R CL_API_CALL locked(A... args) {
    VendorExecution &x = *active_.load(std::memory_order_acquire);
    std::lock_guard lock(x.mutex_);
    return (x.wrapped_[I].own->*Slot)(args...);
  }
  // The entry it wraps, then the failure named: a cl_int returned, or the
  // error code of a call that makes an object (its last parameter, given
  // one of UniCL's when the caller passed none).
  template <size_t I, auto Slot, size_t Index>
  static R CL_API_CALL logged(A... args) {
    const Wrapped &w = active_.load(std::memory_order_acquire)->wrapped_[I];
    if constexpr (std::is_same_v<R, cl_int>) {
      cl_int err = (w.inner->*Slot)(args...);
      if (err != CL_SUCCESS) report_failure(*w.inner, w.vendor, w.report, kSlotNames[Index], err, args...);
      return err;
    } else if constexpr (last_is_errcode<A...>()) {
      std::tuple<A...> call_args{args...};
      cl_int own_err = CL_SUCCESS;
      cl_int *&err = std::get<sizeof...(A) - 1>(call_args);
      if (!err) err = &own_err;
      R made = std::apply([&](A... a) { return (w.inner->*Slot)(a...); }, call_args);
      if (*err != CL_SUCCESS) report_failure(*w.inner, w.vendor, w.report, kSlotNames[Index], *err, args...);
      return made;
    } else {
      return (w.inner->*Slot)(args...);
    }
  }
};

// `table`: a copy of `from` whose every entry is vendor I's locked or
// logged entry. Slots the header declares as plain pointers (another
// platform's interop) and slots the vendor leaves empty stay as they are.
template <size_t I, bool Logging>
void VendorExecution::fill(cl_icd_dispatch &table, const cl_icd_dispatch &from) {
  table = from;
  auto wrap = []<auto Slot, size_t Index>(auto &entry) {
    using Fn = std::remove_reference_t<decltype(entry)>;
    if constexpr (std::is_pointer_v<Fn> && std::is_function_v<std::remove_pointer_t<Fn>>) {
      if (!entry) return;
      if constexpr (Logging) entry = &Entry<Fn>::template logged<I, Slot, Index>;
      else entry = &Entry<Fn>::template locked<I, Slot, Index>;
    }
  };
#define UNICL_DISPATCH_SLOT(name) \
  wrap.template operator()<&cl_icd_dispatch::name, offsetof(cl_icd_dispatch, name) / sizeof(void *)>(table.name);
#include "backend/dispatch_slots.hpp"
#undef UNICL_DISPATCH_SLOT
}

VendorExecution::VendorExecution() {
  VendorExecution *none = nullptr;
  active_.compare_exchange_strong(none, this);
}

VendorExecution::~VendorExecution() {
  VendorExecution *self = this;
  active_.compare_exchange_strong(self, nullptr);
}

VendorExecution::Wrapped *VendorExecution::wrapped(const cl_icd_dispatch *own) {
  size_t n = count_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < n; ++i)
    if (wrapped_[i].own == own) return &wrapped_[i];
  // One of the tables made here: the vendor is wrapped already.
  for (size_t i = 0; i < n; ++i)
    if (&wrapped_[i].serialized == own || &wrapped_[i].logged == own) return &wrapped_[i];
  if (n == kMaxWrapped) return nullptr;
  wrapped_[n].own = wrapped_[n].inner = wrapped_[n].outer = own;
  count_.store(n + 1, std::memory_order_release);
  return &wrapped_[n];
}

template <bool Logging>
void VendorExecution::fill_entries(Wrapped &w, cl_icd_dispatch &table) {
  // The entries of vendor i are fill<i, Logging>'s: one per index, chosen here.
  static constexpr auto kFill = []<size_t... I>(std::index_sequence<I...>) {
    return std::array{&fill<I, Logging>...};
  }(std::make_index_sequence<kMaxWrapped>());
  kFill[static_cast<size_t>(&w - wrapped_.data())](table, *w.own);
}

bool VendorExecution::add_runs_on_caller(const cl_icd_dispatch *table) {
  Wrapped *entry = wrapped(table);
  if (!entry) return false;
  Wrapped &w = *entry;
  if (w.inner == &w.serialized) return true;  // one vendor library showing several platforms
  fill_entries<false>(w, w.serialized);
  // The one call left unserialized: oclgrind waits for a user event by
  // spinning inside the call that runs the command waiting for it (a
  // flush, finish or wait, holding the lock) until another thread sets
  // the event, which must therefore not need the lock. It only stores the
  // status and runs the event's callbacks; UniCL registers none on the
  // vendor user events it makes (core/event.cpp).
  w.serialized.clSetUserEventStatus = w.own->clSetUserEventStatus;
  w.inner = &w.serialized;
  if (w.outer != &w.logged) w.outer = w.inner;
  return true;
}

bool VendorExecution::log_failures(const cl_icd_dispatch *table, const char *vendor, FailureReport report) {
  Wrapped *entry = wrapped(table);
  if (!entry) return false;
  Wrapped &w = *entry;
  if (w.outer == &w.logged) return true;
  w.vendor = vendor;
  w.report = report;
  fill_entries<true>(w, w.logged);
  w.outer = &w.logged;
  return true;
}

std::unique_lock<std::recursive_mutex> VendorExecution::hold(const cl_icd_dispatch *own) {
  if (!serialized(own)) return {};
  return std::unique_lock(active_.load(std::memory_order_acquire)->mutex_);
}

}  // namespace unicl
