#include "proportional.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/context.hpp"
#include "core/mem_object.hpp"
#include "core/kernel.hpp"
#include "core/queue.hpp"
#include "schedulers/perf_model.hpp"
#include "uncalibrated_shares.hpp"

namespace unicl {

std::vector<std::pair<const _cl_mem *, uint64_t>> ProportionalDivider::buffer_counts(const DividedLaunch &l) {
  std::vector<std::pair<const _cl_mem *, uint64_t>> out;
  std::lock_guard lock(l.kernel->mutex);
  for (auto &a : l.kernel->args)
    if (a.mem) {
      _cl_mem *root = a.mem->root();
      out.emplace_back(root, root->commands.load(std::memory_order_relaxed));
    }
  return out;
}

bool ProportionalDivider::in_place(const DividedLaunch &l, const std::string &shape) {
  auto now = buffer_counts(l);
  std::lock_guard lock(mutex_);
  auto found = buffers_.find(shape);
  return found != buffers_.end() && !now.empty() && found->second == now;
}

void ProportionalDivider::enqueued(const DividedLaunch &l, const std::string &shape) {
  auto now = buffer_counts(l);
  std::lock_guard lock(mutex_);
  buffers_[shape] = std::move(now);
}

std::vector<ProportionalDivider::Piece> ProportionalDivider::cut(const DividedLaunch &l, const std::string &shape,
                                                                  size_t per_device, bool in_place, bool &informed) {
  informed = true;
  _cl_context &ctx = *l.queue->context;
  const cl_uint dim = l.split_dim();
  const size_t n = l.global[dim];
  // Pieces are whole work-groups along the dimension; with no work-group size
  // given, one more piece holds what is left past the last whole group.
  const size_t unit = l.piece_group();
  std::vector<size_t> slots;
  for (size_t s = 0; s < l.kernel->per_slot.size(); ++s)
    if (l.kernel->per_slot[s]) slots.push_back(s);
  if (slots.empty() || (l.local && n % unit != 0) || n / unit < 2 || slots.size() < 2)
    return {{slots.empty() ? 0 : slots.front(), 0, n}};
  const size_t groups = n / unit, rest = n % unit;

  // Predicted seconds for the whole launch on each device; each gets a
  // share of the groups proportional to its speed (1 / its time), so that
  // all finish together.
  std::vector<double> whole(slots.size());
  std::vector<bool> calibrated(slots.size());
  bool known = true;
  for (size_t i = 0; i < slots.size(); ++i) {
    const ExecPrediction p = models_->kernel_prediction(l.kernel->name, ctx.slots[slots[i]].device->model_key(), l.items());
    whole[i] = p.seconds;
    calibrated[i] = p.calibrated();
    known = known && whole[i] > 0;
  }
  informed = known;
  std::vector<double> weight(slots.size(), 1.0);
  if (known)
    for (size_t i = 0; i < slots.size(); ++i) weight[i] = 1.0 / whole[i];
  double total = std::accumulate(weight.begin(), weight.end(), 0.0);

  // Whole groups per device by largest remainder.
  std::vector<size_t> device_groups(slots.size());
  std::vector<std::pair<double, size_t>> remainder;
  size_t given = 0;
  for (size_t i = 0; i < slots.size(); ++i) {
    double exact = static_cast<double>(groups) * weight[i] / total;
    device_groups[i] = static_cast<size_t>(std::floor(exact));
    given += device_groups[i];
    remainder.emplace_back(exact - std::floor(exact), i);
  }
  std::sort(remainder.rbegin(), remainder.rend());
  for (size_t r = 0; given < groups; ++r, ++given) device_groups[remainder[r % remainder.size()].second] += 1;
  // A device whose model is not calibrated gets a group to run (see
  // uncalibrated_shares.hpp), and the last partition is not kept over it.
  const bool exploring = known && give_uncalibrated_a_group(calibrated, device_groups);

  std::vector<Piece> pieces;
  for (size_t i = 0, at = 0; i < slots.size(); ++i) {
    if (device_groups[i] == 0) continue;
    pieces.push_back({slots[i], at * unit, device_groups[i] * unit});
    at += device_groups[i];
  }

  // The predicted makespan of a partition: its slowest piece.
  auto makespan = [&](const std::vector<Piece> &ps) -> double {
    double worst = 0;
    for (auto &p : ps) {
      auto at = std::find(slots.begin(), slots.end(), p.slot);
      if (at == slots.end()) return HUGE_VAL;
      double t = whole[static_cast<size_t>(at - slots.begin())];
      worst = std::max(worst, t * static_cast<double>(p.count) / static_cast<double>(n));
    }
    return worst;
  };
  // The work-group size is part of the shape here: pieces are whole groups.
  std::vector<Piece> shares;
  {
    std::lock_guard lock(mutex_);
    auto &last = last_[shape + " / " + std::to_string(unit)];
    if (known && !exploring && !last.empty() && makespan(last) <= kKeepWithin * makespan(pieces)) {
      shares = last;
      if (in_place) per_device = 1;
    } else {
      last = pieces;
      shares = std::move(pieces);
    }
  }
  // Each share in `per_device` consecutive pieces of whole groups, each
  // twice the one before (1:2:4:...): the device's first kernel waits only
  // for the first piece's bytes, a small part of its share, and each
  // piece's bytes come in while the pieces before it, together as long,
  // compute. With equal pieces the wait would be 1/per_device of the share.
  // A device with a smaller share than the mean gets fewer pieces, in
  // proportion (at least one): pieces of about one size everywhere, so that
  // each one's own cost (a launch, its copies) is the same part of its work
  // on every device.
  std::vector<Piece> out;
  const double mean = static_cast<double>(n) / static_cast<double>(shares.size());
  for (auto &share : shares) {
    size_t wanted = static_cast<size_t>(std::llround(static_cast<double>(per_device * share.count) / mean));
    size_t share_groups = share.count / unit, parts = std::clamp<size_t>(std::min(wanted, per_device), 1, share_groups);
    const double whole = std::ldexp(1.0, static_cast<int>(parts)) - 1;  // 1 + 2 + ... + 2^(parts-1)
    for (size_t i = 0, at = share.first, left = share_groups; i < parts; ++i) {
      // At least one group per piece, the rest by the doubling weights.
      size_t groups = i + 1 == parts ? left
                                     : std::clamp<size_t>(static_cast<size_t>(std::llround(
                                                              static_cast<double>(share_groups) *
                                                              std::ldexp(1.0, static_cast<int>(i)) / whole)),
                                                          1, left - (parts - 1 - i));
      out.push_back({share.slot, at, groups * unit});
      at += groups * unit;
      left -= groups;
    }
  }
  // The items past the last whole group, at the end, with the last piece's
  // device: a piece of its own, of one size whatever the partition, so
  // that a vendor compiling per work-group size compiles it once.
  if (rest) out.push_back({out.back().slot, n - rest, rest});
  return out;
}

}  // namespace unicl
