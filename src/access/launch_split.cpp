#include "access/launch_split.hpp"

#include <algorithm>
#include <map>

namespace unicl::access {
namespace {

Interval point(Wide v) { return {v, v}; }

// The work-item functions' ranges along dimension `e` of `shape`.
void fill_dimension(LaunchBox &box, const LaunchShape &shape, uint32_t e) {
  auto set = [&](WorkItem w, Interval i) { box.work_items[static_cast<int>(w)][e] = i; };
  if (e >= shape.dim) {  // dimensions past the launch's: ids 0, sizes 1
    for (WorkItem w : {WorkItem::GlobalId, WorkItem::LocalId, WorkItem::GroupId, WorkItem::GlobalOffset}) set(w, point(0));
    for (WorkItem w : {WorkItem::GlobalSize, WorkItem::LocalSize, WorkItem::NumGroups, WorkItem::EnqueuedLocalSize})
      set(w, point(1));
    return;
  }
  const Wide g = shape.global[e], o = shape.offset[e];
  set(WorkItem::GlobalId, {o, o + g - 1});
  set(WorkItem::GlobalSize, point(g));
  set(WorkItem::GlobalOffset, point(o));
  if (shape.local_given()) {
    const Wide l = shape.local[e], groups = (g + l - 1) / l, last = g % l ? g % l : l;
    set(WorkItem::LocalId, {0, l - 1});
    set(WorkItem::LocalSize, {std::min(l, last), l});
    set(WorkItem::EnqueuedLocalSize, point(l));
    set(WorkItem::NumGroups, point(groups));
    set(WorkItem::GroupId, {0, groups - 1});
  } else {  // whatever the device chooses
    set(WorkItem::LocalId, {0, g - 1});
    set(WorkItem::LocalSize, {1, g});
    set(WorkItem::EnqueuedLocalSize, {1, g});
    set(WorkItem::NumGroups, {1, g});
    set(WorkItem::GroupId, {0, g - 1});
  }
}

// What one argument's accesses come to along the split dimension.
struct ArgWindows {
  bool whole = false;  // some read could not be put in a window: the argument is read whole
  std::optional<Wide> stride;
  bool mixed = false;  // accesses with different strides
  Wide read_lo = 0, read_hi = -1, write_lo = 0, write_hi = -1;  // hi < lo: none yet
};

void widen(Wide &lo, Wide &hi, Wide at_lo, Wide at_hi) {
  if (hi < lo) lo = at_lo, hi = at_hi;
  lo = std::min(lo, at_lo);
  hi = std::max(hi, at_hi);
}

const std::string &name_of(const KernelAccess &k, uint32_t arg) {
  static const std::string unknown = "?";
  return arg < k.params.size() ? k.params[arg].name : unknown;
}

// Whether `v` is a value of the guard's integer type: then the guard's
// comparison, made in that type, compares these values.
bool fits(const Interval &v, const Guard &g) {
  const Wide top = Wide(1) << (g.is_signed ? g.bits - 1 : g.bits);
  return g.bits <= 64 && v.lo >= (g.is_signed ? -top : 0) && v.hi < top;
}

// floor(a / b), b > 0.
Wide floor_div(Wide a, Wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Narrows `box` to the work-items that make access `a`: a guard
// `c*x + rest < limit`, x the global id along a dimension other than the
// split one and c > 0, lets only x <= (limit - 1 - rest) / c pass. False
// when none does.
bool narrow_by_guards(const MemoryAccess &a, LaunchBox &box, uint32_t d) {
  for (const Guard &g : a.guards)
    for (uint32_t x = 0; x < 3; ++x) {
      if (x == d || !g.value.names(WorkItem::GlobalId, static_cast<int>(x))) continue;
      auto linear = linear_in(g.value, WorkItem::GlobalId, x);
      if (!linear) continue;
      auto c = eval(linear->coefficient, box), rest = eval(linear->rest, box);
      auto value = eval(g.value, box), limit = eval(g.limit, box);
      if (!c || !c->point() || c->lo <= 0 || !rest || !value || !limit || !fits(*value, g) || !fits(*limit, g)) continue;
      Interval &id = box.work_items[static_cast<int>(WorkItem::GlobalId)][x];
      const Wide top = floor_div(limit->hi - 1 - rest->lo, c->lo);
      if (top < id.lo) return false;
      id.hi = std::min(id.hi, top);
    }
  return true;
}

// Puts access `a` into its argument's windows along dimension d; the
// reason when it keeps the launch whole.
std::optional<std::string> place(const KernelAccess &k, const MemoryAccess &a, const LaunchBox &launch, uint32_t d,
                                 ArgWindows &w) {
  LaunchBox guarded;
  if (!a.guards.empty()) {
    guarded = launch;
    if (!narrow_by_guards(a, guarded, d)) return std::nullopt;  // no work-item makes it
  }
  const LaunchBox &box = a.guards.empty() ? launch : guarded;
  const bool writes = a.modes & kWrites;
  const std::string dim = "get_global_id(" + std::to_string(d) + ")";
  auto read_whole = [&](const std::string &why) -> std::optional<std::string> {
    if (writes) return why;
    w.whole = true;
    return std::nullopt;
  };
  if (!a.offset) return read_whole("writes through " + name_of(k, a.arg) + " at bytes the analysis could not bound");
  auto linear = linear_in(*a.offset, WorkItem::GlobalId, d);
  if (!linear) return read_whole("writes through " + name_of(k, a.arg) + " at bytes not linear in " + dim);
  auto full = eval(*a.offset, box);
  auto stride = eval(linear->coefficient, box);
  auto rest = eval(linear->rest, box);
  auto size = eval(a.size, box);
  if (!full || !rest || !size)
    return read_whole("writes through " + name_of(k, a.arg) + " at bytes whose index arithmetic would not fit its "
                      "integer type at this launch");
  if (!stride || !stride->point())
    return read_whole("writes through " + name_of(k, a.arg) + " whose step along " + dim + " varies");
  if (writes && stride->lo == 0)
    return "writes through " + name_of(k, a.arg) + " that do not move with " + dim;
  if (w.stride && *w.stride != stride->lo) w.mixed = true;
  w.stride = stride->lo;
  const Wide lo = rest->lo, hi = rest->hi + std::max<Wide>(size->hi, 0);
  if (a.modes & kReads) widen(w.read_lo, w.read_hi, lo, hi);
  if (writes) widen(w.write_lo, w.write_hi, lo, hi);
  return std::nullopt;
}

// The window of an argument from its accesses; the reason when the launch
// must run whole.
std::optional<std::string> window_of(const KernelAccess &k, uint32_t arg, const ArgWindows &w,
                                     std::optional<SplitWindow> &out) {
  const std::string &name = name_of(k, arg);
  const bool written = w.write_hi >= w.write_lo;
  if (!written) {
    if (!w.whole && !w.mixed && w.stride && w.read_hi >= w.read_lo)
      out = SplitWindow{arg, static_cast<int64_t>(w.read_lo), static_cast<int64_t>(*w.stride),
                        static_cast<uint64_t>(w.read_hi - w.read_lo)};
    return std::nullopt;
  }
  if (w.mixed) return "accesses through " + name + " at different steps, one of them a write";
  if (w.whole) return "reads of " + name + ", which it writes, that the analysis could not bound";
  const Wide stride = *w.stride, size = w.write_hi - w.write_lo;
  if (size > (stride < 0 ? -stride : stride))
    return "writes through " + name + " whose bytes overlap between consecutive indices (" + std::to_string(
                                                                                                  static_cast<long long>(size)) +
           " bytes every " + std::to_string(static_cast<long long>(stride)) + ")";
  // The index's window holds what it reads of the argument too (a piece
  // needs those bytes where it runs): reads beside its writes that no other
  // index's window reaches (a row's first element, read to write the
  // second) keep the windows apart; reads of other indices' bytes do not.
  Wide lo = w.write_lo, hi = w.write_hi;
  if (w.read_hi >= w.read_lo) widen(lo, hi, w.read_lo, w.read_hi);
  if (hi - lo > (stride < 0 ? -stride : stride)) return "reads of " + name + " at bytes other indices write";
  out = SplitWindow{arg, static_cast<int64_t>(lo), static_cast<int64_t>(stride), static_cast<uint64_t>(hi - lo)};
  return std::nullopt;
}

// The split along `d`, or the reason there is none.
SplitVerdict along(const KernelAccess &k, const LaunchBox &box, std::span<const LaunchArg> args, uint32_t d) {
  if (!k.dim_reasons[d].empty()) return {std::nullopt, k.dim_reasons[d]};
  std::map<uint32_t, ArgWindows> windows;
  for (auto &a : k.accesses) {
    if (a.arg >= k.params.size()) return {std::nullopt, "an access through an argument the kernel does not have"};
    if (a.arg < args.size() && !args[a.arg].buffer && (a.modes & kWrites))
      return {std::nullopt, "writes through " + name_of(k, a.arg) + ", which is not a buffer at this launch"};
    if (auto why = place(k, a, box, d, windows[a.arg])) return {std::nullopt, *why};
  }
  LaunchSplit split{d, {}};
  for (auto &[arg, w] : windows) {
    std::optional<SplitWindow> window;
    if (auto why = window_of(k, arg, w, window)) return {std::nullopt, *why};
    if (window) split.windows.push_back(*window);
  }
  return {std::move(split), {}};
}

// Two memory arguments in one buffer, one of them written, whose bytes
// overlap: a piece's writes through one would be read or written through
// the other by another piece.
std::optional<std::string> aliasing(const KernelAccess &k, std::span<const LaunchArg> args) {
  for (uint32_t i = 0; i < k.params.size() && i < args.size(); ++i) {
    if (!(k.params[i].modes & kWrites) || !args[i].buffer) continue;
    for (uint32_t j = 0; j < k.params.size() && j < args.size(); ++j) {
      if (i == j || args[j].buffer != args[i].buffer || k.params[j].modes == kNone) continue;
      bool overlap = args[i].origin < args[j].origin + args[j].size && args[j].origin < args[i].origin + args[i].size;
      if (overlap) return "arguments " + k.params[i].name + " and " + k.params[j].name + " are the same memory, one written";
    }
  }
  return std::nullopt;
}

}  // namespace

LaunchBox launch_box(const KernelAccess &k, const LaunchShape &shape, std::span<const LaunchArg> args) {
  LaunchBox box;
  for (const LaunchArg &a : args) box.args.push_back(a.value);
  for (uint32_t e = 0; e < 3; ++e) fill_dimension(box, shape, e);
  // A loop's count names only the loops before it (outer ones).
  for (const std::optional<Expr> &count : k.loop_counts) {
    auto c = count ? eval(*count, box) : std::nullopt;
    box.loops.push_back(c ? std::optional<Interval>(Interval{0, std::max<Wide>(c->hi, 0)}) : std::nullopt);
  }
  return box;
}

SplitVerdict split_at_launch(const KernelAccess &k, const LaunchShape &shape, std::span<const LaunchArg> args) {
  if (!k.whole_reason.empty()) return {std::nullopt, k.whole_reason};
  if (!shape.local_given() && !k.work_group_use.empty())
    return {std::nullopt, "the kernel depends on its work-group size (" + k.work_group_use +
                              ") and the launch leaves it to the device"};
  if (auto why = aliasing(k, args)) return {std::nullopt, *why};
  const LaunchBox box = launch_box(k, shape, args);
  std::string first_reason;
  for (uint32_t d = shape.dim; d-- > 0;) {
    SplitVerdict v = along(k, box, args, d);
    if (v.split) return v;
    if (first_reason.empty()) first_reason = "along dimension " + std::to_string(d) + ": " + v.reason;
  }
  return {std::nullopt, first_reason};
}

}  // namespace unicl::access
