#include "factor_choice.hpp"

#include <algorithm>

#include "core/context.hpp"
#include "core/program.hpp"
#include "core/queue.hpp"
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

FactorChoice::Choice FactorChoice::choose(const DividedLaunch &l) {
  const DivideFunction &d = l.divide;
  _cl_context &ctx = *l.queue->context;
  Choice c;
  if (ctx.divide_factor) {
    c.factor = *ctx.divide_factor == 0 ? 0 : std::clamp(*ctx.divide_factor, d.min_factor, d.max_factor);
    return c;
  }
  c.shape = shape_of(l);
  c.learnt = true;
  // Undivided, then every factor of the range.
  std::vector<FactorOption> options;
  options.push_back({0});
  for (cl_uint f = d.min_factor; f <= d.max_factor && options.size() <= 4096; ++f) options.push_back({f});
  for (auto &t : models_->factor_times(c.shape)) {
    auto at = std::find_if(options.begin(), options.end(), [&](const FactorOption &o) { return o.factor == t.factor; });
    if (at != options.end()) at->runs = t.runs, at->mean = t.mean;
  }
  const FactorStrategy *strategy = strategies_.front().second.get();
  for (auto &[name, s] : strategies_)
    if (name == ctx.granularity) strategy = s.get();
  std::lock_guard lock(mutex_);
  Shape &shape = shapes_[c.shape];
  for (auto &o : options)
    if (auto in = shape.in_flight.find(o.factor); in != shape.in_flight.end()) o.in_flight = in->second;
  size_t i = std::min(strategy->choose(options, shape.launches, ctx.slots.size()), options.size() - 1);
  c.factor = options[i].factor;
  shape.launches += 1;
  shape.in_flight[c.factor] += 1;
  return c;
}

void FactorChoice::finished(const Choice &c, double seconds) {
  if (!c.learnt) return;
  if (seconds >= 0) models_->record_factor(c.shape, c.factor, seconds);
  std::lock_guard lock(mutex_);
  auto &in = shapes_[c.shape].in_flight[c.factor];
  if (in > 0) in -= 1;
}

}  // namespace unicl
