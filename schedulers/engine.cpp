#include "engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/profiling.hpp"
#include "backend/vendor_info.hpp"
#include "core/event.hpp"
#include "core/mem_object.hpp"
#include "core/runtime.hpp"

namespace unicl {
namespace {

size_t bytes_of(_cl_mem *m) { return m->device_bytes(); }

// Seconds a finished vendor command had the device to itself: from its
// profiling start, or the end of the device's previous command if that is
// later, to its end. A device that overlaps commands (PoCL's pthread
// device runs work-groups of several at once) then shows its throughput,
// not the latency of one command among others. `last_end`: the latest end
// seen on the device, in its profiling clock.
double exclusive_seconds(const Task::Times &times, uint64_t &last_end) {
  if (!times.known) return -1;
  cl_ulong start = times.start, end = times.end;
  cl_ulong from = std::max(start, std::min(last_end, end));
  last_end = std::max(last_end, end);
  return static_cast<double>(end - from) * 1e-9;
}

}  // namespace

std::unique_ptr<Engine> Engine::make(_cl_context &ctx, const std::string &policy, PerfModels &models) {
  auto e = std::make_unique<Engine>(ctx, models);
  e->policy_ = make_policy(policy, *e);
  if (!e->policy_) return nullptr;
  return e;
}

Engine::Engine(_cl_context &ctx, PerfModels &models) : ctx_(ctx), models_(models) {
  // CPU devices of this host whose compute units add up to more than the
  // host's processing units compete for the same cores: running two at once
  // slows both, so they form one group that runs one command at a time
  // (each of them still pipelines).
  std::vector<size_t> cpus;
  size_t cpu_units = 0;
  for (auto &s : ctx.slots) {
    Device d;
    d.name = s.device->name;
    d.model = s.device->model_key();
    d.upload = PerfModels::link_name(kHostMemory, d.name);
    d.read_back = PerfModels::link_name(d.name, kHostMemory);
    cl_device_id v = s.device->vendor;
    auto units = vendor_value<cl_uint>(v, CL_DEVICE_MAX_COMPUTE_UNITS, 1);
    auto mhz = vendor_value<cl_uint>(v, CL_DEVICE_MAX_CLOCK_FREQUENCY, 1000);
    d.speed = static_cast<double>(std::max<cl_uint>(units, 1)) * std::max<cl_uint>(mhz, 1);
    d.group = devices_.size();
    d.node = s.device->node;
    if (is_host_cpu_device(v)) {
      cpus.push_back(devices_.size());
      cpu_units += units;
    }
    devices_.push_back(d);
  }
  if (cpus.size() > 1 && cpu_units > Runtime::get().host_pus())
    for (size_t i : cpus) devices_[i].group = cpus.front();
}

size_t Engine::concurrent_devices() const {
  size_t groups = 0;
  for (size_t d = 0; d < devices_.size(); ++d) groups += devices_[d].group == d;
  return groups;
}

double Engine::busy_until(size_t device) const {
  double busy = 0;
  for (auto &d : devices_)
    if (d.group == devices_[device].group) busy = std::max(busy, d.busy_until);
  return busy;
}

Engine::~Engine() { models_.save(); }

double Engine::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

bool Engine::can_run(const Task &t, size_t device) const {
  if (!t.work.runnable.empty() && !t.work.runnable[device]) return false;
  // Device filtering: the command's own buffers must fit in the device's limit.
  size_t bytes = 0;
  for (auto &[m, access] : t.work.buffers) bytes += m->root()->device_bytes();
  return bytes <= ctx_.slots[device].mem_limit;
}

const ExecPrediction &Engine::prediction(const Task &t, size_t device) const {
  if (t.exec_cache.size() != devices_.size()) t.exec_cache.assign(devices_.size(), {});
  ExecPrediction &cached = t.exec_cache[device];
  if (std::isnan(cached.seconds)) cached = models_.kernel_prediction(t.work.kernel, devices_[device].model, t.work.items);
  return cached;
}

double Engine::exec_time(const Task &t, size_t device) const {
  return t.work.kernel.empty() ? 0 : prediction(t, device).seconds;
}

bool Engine::calibrated(const Task &t, size_t device) const {
  return t.work.kernel.empty() || prediction(t, device).calibrated();
}

size_t Engine::runs(const Task &t, size_t device) const {
  auto found = devices_[device].runs.find(t.work.kernel);
  return found == devices_[device].runs.end() ? 0 : found->second;
}

void Engine::placed(Task &t, size_t device) const {
  if (t.heading_to != static_cast<size_t>(-1)) return;
  t.heading_to = device;
  for (auto &[m, access] : t.work.buffers)
    if (access & kRead) ++devices_[device].heading[m->root()];
}

void Engine::unplace(Task &t) {
  if (t.heading_to == static_cast<size_t>(-1)) return;
  auto &heading = devices_[t.heading_to].heading;
  for (auto &[m, access] : t.work.buffers) {
    if (!(access & kRead)) continue;
    auto it = heading.find(m->root());
    if (it != heading.end() && --it->second == 0) heading.erase(it);
  }
  t.heading_to = static_cast<size_t>(-1);
}

double Engine::hand_off(size_t from, size_t to) const {
  // Behind it on its device, or on another device of its node, the node
  // orders the two (Task::walk_dependencies).
  if (from == to || ctx_.events_reach(from, to)) return 0;
  return devices_[from].node != 0 || devices_[to].node != 0 ? kHandOffNode : kHandOffHere;
}

double Engine::ready_at(const Task &t, size_t device) const {
  const double now = this->now();
  double ready = now;
  t.unfinished_predecessors(predecessors_);
  for (const Task *p : predecessors_) {
    // One not started by this engine (another queue's command, a copy
    // placed where its data is) is taken as ending now.
    double end = std::max(now, p->predicted_end);
    if (p->placed()) end += hand_off(p->slot(), device);
    ready = std::max(ready, end);
  }
  return ready;
}

double Engine::transfer_time(const Task &t, size_t device) const {
  double total = 0;
  const auto &heading = devices_[device].heading;
  for (auto &[m, access] : t.work.buffers) {
    if (!(access & kRead)) continue;
    // Already on its way for a command placed there before.
    if (!heading.empty() && heading.count(m->root())) continue;
    size_t bytes = bytes_of(m);
    size_t missing = bytes - m->bytes_valid_on(device);
    if (missing == 0) continue;
    // What the host copy lacks (about) comes first from the device holding
    // most of the buffer, through the host.
    size_t host_has = m->bytes_valid_on(m->root()->coherence->host());
    if (missing > host_has) {
      size_t src = 0, src_has = m->bytes_valid_on(0);
      for (size_t d = 1; d < devices_.size(); ++d)
        if (size_t has = m->bytes_valid_on(d); has > src_has) src = d, src_has = has;
      total += models_.transfer_time(devices_[src].read_back, missing - host_has);
    }
    total += models_.transfer_time(devices_[device].upload, missing);
  }
  return total;
}

// Mean predicted time over the devices where it is known, cached on the
// task (0 for commands other than kernels, and for kernels with no model).
double Engine::mean_exec(Task &t) const {
  if (t.mean_exec >= 0) return t.mean_exec;
  double sum = 0;
  size_t known = 0;
  for (size_t d = 0; d < devices_.size(); ++d)
    if (double e = exec_time(t, d); e >= 0) {
      sum += e;
      ++known;
    }
  t.mean_exec = known ? sum / static_cast<double>(known) : 0;
  return t.mean_exec;
}

// Upward rank over the part of the graph enqueued so far, by a depth-first
// walk with memoized ranks, bounded to kRankBudget commands (those beyond
// count for their own time only).
double Engine::priority(Task &t) const {
  // A divider's pieces run in the order it enqueued them: it sized them so
  // that each one's bytes arrive while those before it compute (small
  // first), which the largest-first order of ranks would undo. One rank for
  // all of them, above any other, keeps that order (ties go oldest first)
  // and starts a divided launch's pieces, sized to finish together, first.
  if (t.work.pinned) return std::numeric_limits<double>::max();
  // One list reused (the engine runs under the context lock): no
  // allocation per command.
  auto &memo = rank_memo_;
  memo.clear();
  size_t budget = kRankBudget;
  auto rank = [&](auto &self, Task &n) -> double {
    for (auto &[task, r] : memo)
      if (task == &n) return r;
    if (budget == 0) return mean_exec(n);
    --budget;
    double longest = 0;
    for (auto &weak : n.successors) {
      if (budget == 0) break;
      if (auto s = weak.lock()) longest = std::max(longest, self(self, *s));
    }
    double r = mean_exec(n) + longest;
    memo.emplace_back(&n, r);
    return r;
  };
  return rank(rank, t);
}

const std::string &Engine::kernel(const Task &t) const { return t.work.kernel; }

size_t Engine::resident_bytes(const Task &t, size_t device) const {
  size_t total = 0;
  for (auto &[m, access] : t.work.buffers)
    total += m->bytes_valid_on(device);
  return total;
}

// Commands other than kernels go where their data is: a read is served by
// the device holding the valid copy. A pinned one (a read's part) goes
// where it was cut for.
size_t Engine::nearest_copy(const Task &t) const {
  if (t.work.pinned)
    for (size_t d = 0; d < devices_.size(); ++d)
      if (t.work.runnable[d]) return d;
  size_t best = devices_.size();
  for (auto &[m, access] : t.work.buffers) {
    for (size_t d = 0; d < devices_.size(); ++d)
      if (m->wholly_valid_on(d) &&
          (best == devices_.size() || devices_[d].in_flight < devices_[best].in_flight))
        best = d;
    if (best != devices_.size()) return best;
  }
  best = 0;
  for (size_t d = 1; d < devices_.size(); ++d)
    if (devices_[d].in_flight < devices_[best].in_flight) best = d;
  return best;
}

void Engine::push(std::shared_ptr<Task> t, bool deferred) {
  UNICL_HOLDS(ctx_.mutex, "ContextScheduler::push: caller holds the context lock");
  if (t->work.kernel.empty()) {
    t->place(nearest_copy(*t));
    t->advance_placed(deferred);
    return;
  }
  policy_->push(std::move(t));
  dispatch(deferred);
}

bool Engine::has_room(size_t device) const {
  const Device &d = devices_[device];
  for (size_t o = 0; o < devices_.size(); ++o)
    if (o != device && devices_[o].group == d.group && devices_[o].in_flight > 0) return false;
  return DispatchWindow::has_room(d.in_flight, d.busy_until, d.work_in_flight, now());
}

void Engine::start(const std::shared_ptr<Task> &t, size_t device, bool deferred) {
  // Its transfers are planned now: validity says where its buffers are.
  unplace(*t);
  Device &d = devices_[device];
  d.in_flight += 1;
  double exec = exec_time(*t, device);
  if (exec < 0) exec = kUnmodelledRun;
  d.busy_until = std::max(std::max(busy_until(device), now()), ready_at(*t, device)) + exec;
  d.work_in_flight += exec;
  t->predicted_end = d.busy_until;
  t->predicted_run = exec;
  t->place(device);
  t->counted = true;
  t->advance_placed(deferred);
}

void Engine::dispatch(bool deferred) {
  // start() may settle a command at once, which calls back into settled()
  // and dispatch(): the outer loop does the work.
  if (dispatching_) return;
  dispatching_ = true;
  for (bool progress = true; progress && policy_->pending() > 0;) {
    progress = false;
    // Idle devices ask first, then those with the least in flight; ties go
    // round the devices so that no device is always first to ask. A device
    // the policy leaves idle is not asked again in this round.
    std::vector<char> &declined = declined_;
    declined.assign(devices_.size(), 0);
    size_t first = first_asker_;
    first_asker_ = (first_asker_ + 1) % devices_.size();
    for (;;) {
      size_t asker = devices_.size();
      for (size_t i = 0; i < devices_.size(); ++i) {
        size_t d = (first + i) % devices_.size();
        if (declined[d] || !has_room(d)) continue;
        if (asker == devices_.size() || devices_[d].in_flight < devices_[asker].in_flight) asker = d;
      }
      if (asker == devices_.size()) break;
      if (auto t = policy_->pop(asker)) {
        start(t, asker, deferred);
        progress = true;
        break;  // in-flight counts changed: a new round
      }
      declined[asker] = 1;
    }
  }
  dispatching_ = false;
}

void Engine::settled(const std::shared_ptr<Task> &t) {
  UNICL_HOLDS(ctx_.mutex, "ContextScheduler::settled: caller holds the context lock");
  if (!t->counted) return;
  if (t->state() != CL_SUBMITTED) {
    finished(*t);
    return;
  }
  t->completion()->on_done([this, t](cl_int) { completed(t); });
}

// The context (and so its engine) outlives its tasks' completions: every
// task holds a reference to its context until it is destroyed, and the
// task is held by the completion list until drained.
void Engine::completed(std::shared_ptr<Task> t) {
  std::lock_guard lock(completions_mutex_);
  completions_.push_back(std::move(t));
  if (drain_posted_) return;
  drain_posted_ = true;
  Runtime::get().work_queue().post([ctx = Ref<_cl_context>(&ctx_)] { static_cast<Engine &>(*ctx->engine).drain_completions(); });
}

void Engine::drain_completions() {
  std::vector<std::shared_ptr<Task>> done;  // destroyed after the unlock: freeing tasks needs no context lock
  {
    std::lock_guard c(completions_mutex_);
    done.swap(completions_);
    drain_posted_ = false;
  }
  // Profiling queries are vendor calls: read before taking the context
  // lock, here on the work queue rather than on the vendor's callback
  // thread, which every completion of the device waits behind.
  for (auto &t : done)
    if (t->state() == CL_SUBMITTED) t->times.known = t->completion()->times(t->times.start, t->times.end);
  ContextLock lock(ctx_);
  for (auto &t : done) finished(*t);
}

void Engine::finished(Task &t) {
  Device &d = devices_[t.slot()];
  t.counted = false;
  d.in_flight -= 1;
  d.work_in_flight = d.in_flight == 0 ? 0 : d.work_in_flight - t.predicted_run;
  if (d.in_flight == 0) d.busy_until = now();
  if (t.state() == CL_SUBMITTED && !t.work.kernel.empty()) {
    d.runs[t.work.kernel] += 1;
    models_.record_kernel(t.work.kernel, d.model, t.work.items, exclusive_seconds(t.times, d.last_end));
  }
  dispatch(true);
}

}  // namespace unicl
