#include "factor_choice.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "core/context.hpp"
#include "core/event.hpp"
#include "core/kernel.hpp"
#include "core/queue.hpp"
#include "core/scheduling.hpp"
#include "core/task.hpp"
#include "schedulers/perf_model.hpp"

namespace unicl {

FactorChoice::FactorChoice(std::shared_ptr<PerfModels> models) : models_(std::move(models)) {
  for (auto &name : strategy_names()) strategies_.emplace_back(name, make_strategy(name));
}

std::string FactorChoice::shape_of(const DividedLaunch &l) {
  std::string shape = l.kernel->name + " ";
  for (cl_uint i = 0; i < l.dim; ++i) shape += (i ? "x" : "") + std::to_string(l.global[i]);
  // The devices the pieces may go to, in a fixed order: the same machine
  // gives the same key whatever order the context listed them in.
  std::vector<std::string> devices;
  for (auto &s : l.queue->context->slots) devices.push_back(s.device->name);
  std::sort(devices.begin(), devices.end());
  shape += " on ";
  for (size_t i = 0; i < devices.size(); ++i) shape += (i ? " + " : "") + devices[i];
  return shape;
}

void FactorChoice::time_latest(const std::string &shape, double now) {
  std::unique_lock lock(mutex_);
  Latest &latest = shapes_[shape].latest;
  if (!latest.serial) return;
  if (latest.ended < 0) {
    latest.overlapped = true;
    return;
  }
  Latest timed = std::exchange(latest, {});
  if (timed.calibration) return;
  // Only this shape's launches since: an iteration, whose cost runs until
  // the next one (gathering the pieces' results counts).
  const bool iteration = all_launches_ == timed.others + 1;
  lock.unlock();
  models_->record_factor(shape, timed.factor, iteration ? now - timed.enqueued : timed.seconds);
}

std::vector<FactorOption> FactorChoice::options(const DividedLaunch &l, const std::string &shape,
                                                size_t devices) const {
  std::vector<FactorOption> out;
  out.push_back({0});
  for (cl_uint f = l.divide.min_factor; f <= l.divide.max_factor && out.size() <= 4096; ++f) out.push_back({f});
  // The start: the built-in divider's factor 1 is one piece per device; a
  // divide function's factor is taken as its number of pieces, the launch
  // undivided as one (the smaller factor on a tie).
  auto pieces = [](unsigned factor) { return std::max(factor, 1u); };
  auto distance = [&](unsigned factor) {
    return pieces(factor) > devices ? pieces(factor) - devices : devices - pieces(factor);
  };
  size_t start = 0;
  for (size_t i = 1; i < out.size(); ++i)
    if (l.divide.fn ? distance(out[i].factor) < distance(out[start].factor) : out[i].factor == 1) start = i;
  out[start].start = true;
  for (auto &t : models_->factor_times(shape)) {
    auto at = std::find_if(out.begin(), out.end(), [&](const FactorOption &o) { return o.factor == t.factor; });
    if (at != out.end()) at->runs = t.runs, at->mean = t.mean;
  }
  if (out[0].runs == 0)
    for (auto &slot : l.queue->context->slots) {
      double t = models_->kernel_time(l.kernel->name, slot.device->model_key(), l.items());
      if (t > 0 && (out[0].predicted < 0 || t < out[0].predicted)) out[0].predicted = t;
    }
  return out;
}

FactorChoice::Choice FactorChoice::choose(const DividedLaunch &l, const std::string &shape_key, double now) {
  const DivideFunction &d = l.divide;
  _cl_context &ctx = *l.queue->context;
  Choice c;
  c.shape = shape_key;
  if (ctx.divide_factor) {
    c.factor = *ctx.divide_factor == 0 ? 0 : std::clamp(*ctx.divide_factor, d.min_factor, d.max_factor);
    return c;
  }
  c.learnt = true;
  time_latest(c.shape, now);
  // The launches in flight before the models' times: a launch that ends
  // meanwhile is recorded before it leaves in_flight (finished()), so each
  // factor it ran with is seen either still in flight or timed; read the
  // other way round, a factor could look untried in between (each-once then
  // ran the undivided launch twice, under AddressSanitizer).
  std::map<unsigned, size_t> in_flight;
  {
    std::lock_guard lock(mutex_);
    in_flight = shapes_[c.shape].in_flight;
  }
  // Devices sharing the same cores (two CPU devices of this host) count
  // once: dividing a launch among them gains nothing.
  const size_t devices = ctx.engine ? ctx.engine->concurrent_devices() : ctx.slots.size();
  // Enough to tell: a launch that waits for nothing has none in flight
  // behind it.
  const uint64_t out_of_order = out_of_order_in_flight(devices + (l.num_events ? kAncestorsWalked : 0));
  std::vector<FactorOption> options = this->options(l, c.shape, devices);
  const FactorStrategy *strategy = strategies_.front().second.get();
  for (auto &[name, s] : strategies_)
    if (name == ctx.granularity) strategy = s.get();
  c.out_of_order = !l.queue->in_order();
  // Counted before mutex_ is taken (the walk takes the context's lock), as
  // far as it matters: the launch is saturated when at most
  // out_of_order - devices of those in flight are behind it.
  const size_t behind = out_of_order >= devices
                            ? unfinished_ancestors(l, std::min<uint64_t>(out_of_order - devices + 1, kAncestorsWalked))
                            : 0;
  std::lock_guard lock(mutex_);
  Shape &shape = shapes_[c.shape];
  for (auto &o : options)
    if (auto in = in_flight.find(o.factor); in != in_flight.end()) o.in_flight = in->second;
  const uint64_t beside = out_of_order > behind ? out_of_order - behind : 0;
  const bool saturated = beside >= devices && options.front().factor == 0;
  size_t i = saturated ? 0 : std::min(strategy->choose(options, shape.launches, devices), options.size() - 1);
  if (c.out_of_order) ++out_of_order_enqueueing_;
  c.factor = options[i].factor;
  // The built-in divider's pieces leave their bytes where they ran, for the
  // next launch: a factor's first run pays to place them (Choice).
  c.calibration = !d.fn && options[i].runs == 0 && shape.warmed.insert(c.factor).second;
  shape.launches += 1;
  shape.in_flight[c.factor] += 1;
  c.serial = shape.launches;
  shape.latest = {c.serial, c.factor, now};
  shape.latest.others = all_launches_++;
  shape.latest.calibration = c.calibration;
  return c;
}

void FactorChoice::calibrating(Choice &c) {
  c.calibration = true;
  std::lock_guard lock(mutex_);
  // Its shares are not the models' (equal): the next run, on the models'
  // shares, still moves bytes to a partition of its own.
  shapes_[c.shape].warmed.erase(c.factor);
  Latest &latest = shapes_[c.shape].latest;
  if (latest.serial == c.serial) latest.calibration = true;
}

size_t FactorChoice::unfinished_ancestors(const DividedLaunch &l, size_t limit) {
  // Nothing to walk: a batch of independent launches takes no lock here.
  if (l.num_events == 0) return 0;
  ContextLock lock(*l.queue->context);
  std::unordered_set<const Task *> seen;
  std::vector<const Task *> next, predecessors;
  auto add = [&](const Task *t) {
    if (seen.size() < limit && t->unfinished() && seen.insert(t).second) next.push_back(t);
  };
  for (cl_uint i = 0; i < l.num_events; ++i)
    if (const auto &task = l.events[i]->task) add(task.get());
  while (!next.empty() && seen.size() < limit) {
    const Task *t = next.back();
    next.pop_back();
    t->unfinished_predecessors(predecessors);
    for (const Task *p : predecessors) add(p);
  }
  return seen.size();
}

uint64_t FactorChoice::out_of_order_in_flight(uint64_t enough) {
  std::vector<std::weak_ptr<Task>> commands;
  uint64_t count = 0;
  {
    std::lock_guard lock(mutex_);
    count = out_of_order_enqueueing_;
    commands = out_of_order_commands_;
  }
  // Asked outside mutex_ and any context lock: the status the vendor gives,
  // which is CL_COMPLETE as soon as the application's wait has returned.
  std::vector<std::shared_ptr<Task>> complete;  // held: no other task takes their addresses meanwhile
  for (auto &command : commands) {
    if (count >= enough) break;
    auto task = command.lock();
    if (task && task->unfinished()) ++count;
    else if (task) complete.push_back(std::move(task));
  }
  std::lock_guard lock(mutex_);
  std::erase_if(out_of_order_commands_, [&](const std::weak_ptr<Task> &command) {
    auto task = command.lock();
    return !task || std::find(complete.begin(), complete.end(), task) != complete.end();
  });
  return count;
}

void FactorChoice::enqueued(const Choice &c, const std::shared_ptr<Task> &command) {
  if (!c.out_of_order) return;
  std::lock_guard lock(mutex_);
  if (out_of_order_enqueueing_ > 0) out_of_order_enqueueing_ -= 1;
  if (command) out_of_order_commands_.push_back(command);
}

void FactorChoice::left(const Choice &c) {
  auto &in = shapes_[c.shape].in_flight[c.factor];
  if (in > 0) in -= 1;
}

void FactorChoice::finished(const Choice &c, double seconds, double now) {
  if (!c.learnt || c.calibration) {
    if (c.learnt) {  // a calibration: only its place among the launches in flight
      std::lock_guard lock(mutex_);
      left(c);
    }
    return;
  }
  bool record_now = false;
  {
    std::lock_guard lock(mutex_);
    Shape &shape = shapes_[c.shape];
    if (shape.latest.serial == c.serial && !shape.latest.overlapped) {
      // Timed when the next launch comes (or never, if it failed).
      if (seconds >= 0) shape.latest.ended = now, shape.latest.seconds = seconds;
      else shape.latest = {};
      left(c);
      return;
    }
    if (shape.latest.serial == c.serial) shape.latest = {};
    record_now = seconds >= 0;
  }
  // Timed, then out of flight (see choose()).
  if (record_now) models_->record_factor(c.shape, c.factor, seconds);
  std::lock_guard lock(mutex_);
  left(c);
}

}  // namespace unicl
