// Runs divided launches. The granularity layer sits above the API: it
// builds a divided launch from UniCL's own entry points, as an application
// would, so that the pieces are ordinary commands the policies place.
//
// A launch the factor choice runs undivided is an ordinary command of the
// application's queue q (run_whole). One it divides becomes:
//   before: a marker on q after the launch's wait list (and q's order; on
//           an out-of-order q without a wait list, an event already complete);
//   gate:   a marker on q after `done`, a user event of UniCL's own; it is
//           the event the application gets, typed as the launch;
//   pieces: the divide function's commands (or the built-in divider's
//           pieces, proportional.hpp) on q's private out-of-order
//           device-less queue, after `before`;
//   done:   set when the divide function's `after` completes, once its
//           time is recorded (so the gate's END is known when it completes),
//           or at once to the divide function's error.
// Enqueuing the gate before the pieces keeps q's order without waiting:
// what the application enqueues on q next follows the gate.
//
// Consecutive launches on an in-order q whose pieces UniCL enqueued itself
// (what_to_follow) form a chain: each launch's pieces follow the
// first launch's `before`, and the earlier launches' pieces only where they
// touch the same bytes (coherence orders every command after the accesses
// of its bytes). A device then goes on to its next piece without waiting
// for the slowest device of the previous launch. The gates still complete
// in q's order, and the data every piece sees is that of q's order; what
// differs is that a launch's START may come before the previous one's END.
#include "divided_launches.hpp"

#include <atomic>

#include "api/api_decls.hpp"
#include "api/pieces_queue.hpp"
#include "core/event.hpp"
#include "core/kernel.hpp"
#include "core/queue.hpp"
#include "core/runtime.hpp"
#include "factor_choice.hpp"
#include "proportional.hpp"

namespace unicl {
namespace {

class Granularity final : public GranularityService {
 public:
  explicit Granularity(std::shared_ptr<PerfModels> models) : choice_(models), proportional_(models) {}

  const std::vector<std::string> &strategy_names() const override { return unicl::strategy_names(); }

  cl_int run_divided(const DividedLaunch &l) override {
    const cl_ulong queued = host_clock_ns();
    // The built-in divider's launch whose buffers are as its last pieces
    // left them runs differently (one piece per device): its factor is
    // learnt apart.
    const std::string shape = FactorChoice::shape_of(l);
    const bool in_place = !l.divide.fn && proportional_.in_place(l, shape);
    // The built-in divider's factor f: 2^(f-1) pieces per device.
    DividedLaunch shaped = l;
    if (!l.divide.fn) shaped.divide.min_factor = 1, shaped.divide.max_factor = kBuiltinFactors;
    FactorChoice::Choice choice =
        choice_.choose(shaped, in_place ? shape + " (in place)" : shape, static_cast<double>(queued) * 1e-9);
    if (choice.factor == 0) return run_whole(l, choice);
    return run_in_pieces(l, queued, shape, in_place, choice);
  }

 private:
  static constexpr cl_uint kBuiltinFactors = 4;  // 1, 2, 4 or 8 pieces per device

  // The launch undivided: an ordinary command of q, which q's policy places
  // and q's order orders, its event the application's. No marker, no user
  // event, no hop through the work queue: the divided route's own costs
  // (~0.3 ms a launch with its read on PoCL's CPU devices, bench-composite)
  // are not paid where nothing is divided. Its time, for the choice: its
  // own, from its start on the device to its end (profiling, which
  // scheduled queues always have). Not from its submission: a policy may
  // queue it on its device behind commands still running there (heft places
  // a launch once what it follows is planned), and launches that do not
  // depend on each other would then charge each other's time to the
  // undivided factor, which one divided launch over every device appears to
  // beat (on the simulated 1 CPU + 3 GPUs, Black-Scholes' independent
  // launches went divided in 9 of 22 runs, at 3-4x the bound). Nor from a
  // callback at its start: a node's device reports only the end.
  cl_int run_whole(const DividedLaunch &l, const FactorChoice::Choice &choice) {
    DivisionRecord whole;  // not to be divided again; the inferred split says which bytes it touches
    if (!l.divide.fn) whole.split = l.split;
    cl_event raw = nullptr;
    cl_int err = CL_SUCCESS;
    {
      DivisionScope scope(whole);
      err = api::clEnqueueNDRangeKernel(l.queue, l.kernel, l.dim, l.offset, l.global, l.local, l.num_events, l.events,
                                        &raw);
    }
    if (err != CL_SUCCESS) return abandon(choice, err);
    Ref<_cl_event> event(raw, true);
    choice_.enqueued(choice, event->task);
    event->type = l.type;
    event->on_complete([this, choice, task = event->task](cl_int status) {
      const double ended = static_cast<double>(host_clock_ns()) * 1e-9;
      if (status != CL_COMPLETE || !task) return choice_.finished(choice, -1, ended);
      // Profiling queries are vendor calls: on the work queue, not on the
      // vendor's callback thread.
      Runtime::get().work_queue().post([this, choice, task, ended] {
        cl_ulong start = 0, end = 0;
        const bool known = task->completion()->times(start, end) && end >= start;
        choice_.finished(choice, known ? static_cast<double>(end - start) * 1e-9 : -1, ended);
      });
    });
    if (l.event) *l.event = event.detach();
    return CL_SUCCESS;
  }

  // The launch of `choice` was not enqueued: it returns `err`, and the
  // choice hears of it as of a failed launch.
  cl_int abandon(const FactorChoice::Choice &choice, cl_int err) {
    choice_.enqueued(choice, nullptr);
    choice_.finished(choice, -1, static_cast<double>(host_clock_ns()) * 1e-9);
    return err;
  }

  cl_int run_in_pieces(const DividedLaunch &l, cl_ulong queued, const std::string &shape, bool in_place,
                       FactorChoice::Choice &choice) {
    _cl_command_queue *q = l.queue;
    cl_command_queue pieces = nullptr;
    if (cl_int err = pieces_queue(q, pieces); err != CL_SUCCESS) return abandon(choice, err);
    auto record = std::make_shared<DivisionRecord>();
    record->queued = queued;

    cl_event raw = nullptr;
    cl_int err = CL_SUCCESS;
    auto [before, previous, idle] = what_to_follow(q, l);
    if (before) {
      // Nothing to enqueue: the chain's `before` covers all of q up to its
      // first launch, and coherence the earlier launches' pieces.
    } else if ((q->in_order() && !idle) || l.num_events > 0) {
      err = api::clEnqueueMarkerWithWaitList(q, l.num_events, l.events, &raw);
      if (err != CL_SUCCESS) return abandon(choice, err);  // a bad wait list: nothing was enqueued
    } else {
      // No wait list, and out of order or nothing left to follow: the
      // launch follows nothing (a marker without a wait list would follow
      // every earlier command, and even with none it is a command some
      // device runs before the pieces may start).
      raw = api::clCreateUserEvent(q->context.get(), &err);
      if (err != CL_SUCCESS) return abandon(choice, err);
      api::clSetUserEventStatus(raw, CL_COMPLETE);
    }
    if (!before) before = Ref<_cl_event>(raw, true);
    Ref<_cl_event> done(api::clCreateUserEvent(q->context.get(), &err), true);
    if (err != CL_SUCCESS) return abandon(choice, err);
    cl_event done_handle = done.get();
    if ((err = api::clEnqueueMarkerWithWaitList(q, 1, &done_handle, &raw)) != CL_SUCCESS) {
      api::clSetUserEventStatus(done.get(), err);
      return abandon(choice, err);
    }
    Ref<_cl_event> gate(raw, true);
    choice_.enqueued(choice, gate->task);  // the application's event: complete after finished()
    gate->type = l.type;
    gate->division = record;
    // In a chain, the launch starts when the previous one ends: its time
    // is what it adds to the chain.
    (previous ? previous : before)->on_complete([record](cl_int) {
      cl_ulong none = 0;
      record->started.compare_exchange_strong(none, host_clock_ns());
    });

    cl_event after = nullptr;
    cl_int ran = enqueue_division(l, *record, pieces, before.get(), &after, shape, in_place, choice);
    record->submitted = host_clock_ns();
    const uint64_t traced = Runtime::get().trace().on() ? trace_pieces(*record, l) : 0;
    // Nothing else may ever flush the pieces issued in this call (the
    // application waits for the gate, not for them), and a vendor that runs
    // its queue only when flushed (oclgrind) would hold them forever. It
    // runs them inside that flush too: never on the application's thread.
    pieces->flush_off_caller();
    // The divide function hands over a reference to `after`, now UniCL's.
    cl_int failure = CL_SUCCESS;
    if (ran != CL_SUCCESS) failure = ran < 0 ? ran : CL_INVALID_OPERATION;
    else if (!live(after) || after->context.get() != q->context.get()) failure = CL_INVALID_EVENT;
    // Pieces UniCL enqueued itself surely follow `before` and name every
    // buffer they touch; a divide function's might not, and then only the
    // gate keeps q's order.
    const bool chains = failure == CL_SUCCESS && !l.divide.fn;
    remember_division(q, gate.get(), chains ? before.get() : nullptr, chains ? after : nullptr, record,
                      previous.get() != nullptr);
    if (failure != CL_SUCCESS) {
      if (live(after)) api::clReleaseEvent(after);
      end(*record, done.get(), failure);
      choice_.finished(choice, -1, 0);
    } else {
      Ref<_cl_event> last(after, true);
      last->on_complete([this, record, done, choice, traced, name = l.kernel->name](cl_int status) {
        cl_ulong started = record->start(), ended = host_clock_ns();
        // Timed before the gate completes: the application's next launch
        // of the shape may come as soon as it does.
        choice_.finished(choice, status == CL_COMPLETE ? static_cast<double>(ended - started) * 1e-9 : -1,
                         static_cast<double>(ended) * 1e-9);
        if (traced)
          Runtime::get().trace().launch_span(traced, name + " divided by " + std::to_string(record->factor),
                                             static_cast<double>(started) / 1e3, static_cast<double>(ended) / 1e3);
        end(*record, done.get(), status, ended);
      });
    }
    if (l.event) *l.event = gate.detach();
    return CL_SUCCESS;
  }

  // On an in-order queue, a launch without a wait list whose predecessor's
  // pieces UniCL enqueued itself (the built-in divider's) joins its chain
  // when it can (_cl_command_queue::divided_follow; the top of this file):
  // this skips a marker per launch and, above all, the wait of every
  // device for the previous launch's slowest piece.
  static _cl_command_queue::DividedFollow what_to_follow(_cl_command_queue *q, const DividedLaunch &l) {
    if (!q->in_order() || l.num_events > 0) return {};
    return q->divided_follow();
  }
  static void remember_division(_cl_command_queue *q, _cl_event *gate, _cl_event *before, _cl_event *after,
                                std::shared_ptr<DivisionRecord> record, bool joined) {
    if (q->in_order()) q->remember_division(gate, before, after, std::move(record), joined);
  }

  // Enqueues the launch's pieces at the factor chosen on `pieces`, every
  // one after `before`; `after` completes with all of them. Launches made
  // here are the record's pieces and are not divided again.
  cl_int enqueue_division(const DividedLaunch &l, DivisionRecord &record, cl_command_queue pieces, cl_event before,
                          cl_event *after, const std::string &shape, bool in_place, FactorChoice::Choice &choice) {
    DivisionScope scope(record);
    if (!l.divide.fn) record.split = l.split;
    record.factor = choice.factor;
    if (l.divide.fn) return l.divide.fn(pieces, choice.factor, l.divide.user_data, before, after);
    bool informed = true;
    auto cut = proportional_.cut(l, shape, size_t{1} << (choice.factor - 1), in_place, informed);
    if (!informed) choice_.calibrating(choice);
    if (Runtime::get().log_level() >= 2) {
      std::string parts;
      for (auto &p : cut)
        parts += (parts.empty() ? "" : ", ") + l.queue->context->slots[p.slot].device->name + " " +
                 std::to_string(p.count);
      Runtime::get().log(2, "divided %s along dimension %u, factor %u: %s", l.kernel->name.c_str(), l.split_dim(),
                         choice.factor, parts.c_str());
    }
    cl_int err = enqueue_pieces(l, cut, pieces, before, after);
    if (err == CL_SUCCESS) proportional_.enqueued(l, shape);
    return err;
  }

  // Puts each piece of `record` on the trace, nested under the launch's
  // slice, once it completes; returns the launch's trace id.
  uint64_t trace_pieces(DivisionRecord &record, const DividedLaunch &l) {
    uint64_t id = ++traced_launches_;
    _cl_context *ctx = l.queue->context.get();
    for (auto &t : record.pieces()) {
      std::string name = (t->work.kernel.empty() ? command_name(t->type) : t->work.kernel);
      t->on_status(CL_COMPLETE, [id, t, ctx, name](cl_int status) {
        if (status == CL_COMPLETE && t->placed())
          Runtime::get().trace().piece(id, t->vendor_event(), name + " on " + ctx->slots[t->slot()].device->name);
      });
    }
    return id;
  }

  // The built-in divider's pieces, each pinned to its device, after
  // `before`; `after` a user event of UniCL's that completes with the last
  // of them (with the first failure's status if one fails). Joined on the
  // host, not by a marker: a marker is a command on some device's queue,
  // and in a chain it would end behind the next launches' pieces there.
  // The work-group size of a piece: the launch's; or, for a kernel free of
  // work-groups launched without one, piece_group() along the split
  // dimension and 1 along the others (every piece but one holding the rest
  // past the last whole group, which is left to the device). `storage`
  // holds the sizes returned.
  static const size_t *piece_local(const DividedLaunch &l, const ProportionalDivider::Piece &piece, size_t (&storage)[3]) {
    if (l.local || !l.groups_free) return l.local;
    const size_t group = l.piece_group();
    if (group <= 1 || piece.count % group != 0) return nullptr;
    storage[0] = storage[1] = storage[2] = 1;
    storage[l.split_dim()] = group;
    return storage;
  }

  static cl_int enqueue_pieces(const DividedLaunch &l, const std::vector<ProportionalDivider::Piece> &cut,
                               cl_command_queue q, cl_event before, cl_event *after) {
    std::vector<Ref<_cl_event>> events;
    size_t local[3];
    cl_int err = CL_SUCCESS;
    for (auto &piece : cut) {
      size_t offset[3] = {0, 0, 0}, global[3] = {1, 1, 1};
      for (cl_uint i = 0; i < l.dim; ++i) offset[i] = l.offset ? l.offset[i] : 0, global[i] = l.global[i];
      offset[l.split_dim()] += piece.first;
      global[l.split_dim()] = piece.count;
      PinnedSlot pin(piece.slot);
      cl_event e = nullptr;
      err = api::clEnqueueNDRangeKernel(q, l.kernel, l.dim, offset, global, piece_local(l, piece, local), 1, &before, &e);
      if (err != CL_SUCCESS) break;
      events.emplace_back(e, true);
    }
    if (err != CL_SUCCESS) return err;  // the pieces enqueued run; the launch fails
    cl_event join = api::clCreateUserEvent(l.queue->context.get(), &err);
    if (err != CL_SUCCESS) return err;
    struct Join {
      Ref<_cl_event> event;
      std::atomic<size_t> left;
      std::atomic<cl_int> failure{CL_SUCCESS};
    };
    auto state = std::make_shared<Join>(Ref<_cl_event>(join), events.size());
    for (auto &e : events)
      e->on_complete([state](cl_int status) {
        cl_int none = CL_SUCCESS;
        if (status < 0) state->failure.compare_exchange_strong(none, status);
        if (state->left.fetch_sub(1) == 1)
          api::clSetUserEventStatus(state->event.get(), state->failure < 0 ? state->failure.load() : CL_COMPLETE);
      });
    if (events.empty()) api::clSetUserEventStatus(join, CL_COMPLETE);
    *after = join;
    return CL_SUCCESS;
  }

  // The launch ended with `status` (CL_COMPLETE or an error): its times are
  // complete before its gate may complete.
  static void end(DivisionRecord &record, cl_event done, cl_int status, cl_ulong ended = host_clock_ns()) {
    if (status < 0) record.error = status;
    record.start();
    record.ended = ended;
    api::clSetUserEventStatus(done, status < 0 ? status : CL_COMPLETE);
  }

  FactorChoice choice_;
  ProportionalDivider proportional_;
  std::atomic<uint64_t> traced_launches_{0};
};

}  // namespace

void install_granularity(Runtime &rt, std::shared_ptr<PerfModels> models) {
  rt.install(std::make_unique<Granularity>(std::move(models)));
}

}  // namespace unicl
