// For the cluster test of the order of a node's ends: an application may
// take a non-blocking read's bytes once a command that follows the read
// has ended (a marker or barrier after it on an in-order queue, a marker
// on an out-of-order queue waiting for all before it, a marker of another
// queue naming the read in its wait list, a command after a barrier). Run with the node recording
// reads' ends late (UNICL_NODE_SLOW_READ_ENDS), as a preempted vendor
// callback would: the later command's end must still not reach rank 0
// before the read's bytes. Each way fills a buffer on node 1's first
// device with a new value, reads it back without waiting, waits for the
// command that follows and looks at the bytes. Prints each way's wrong
// rounds and "result: OK" when none was.
#include <node_devices.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

int fail(const char *what, cl_int err) {
  std::printf("failed: %s (%d)\n", what, err);
  return 1;
}

const size_t kCount = 64 * 1024;  // ints: 256 KiB, past what travels inside a report
const int kRounds = 6;

struct Queues {
  cl_command_queue in_order, out_of_order, other;
  cl_mem scratch;  // what a command after a barrier fills
};

// Enqueues on `q` what follows the read `read` (null: not handed out) and
// returns its event, or null with `err` set.
using Follower = std::function<cl_event(const Queues &q, cl_event read, cl_int &err)>;

struct Way {
  const char *name;
  bool out_of_order;  // the fill and the read on the out-of-order queue, with events
  Follower follow;
};

const Way kWays[] = {
    {"a marker after the read on an in-order queue", false,
     [](const Queues &q, cl_event, cl_int &err) {
       cl_event e = nullptr;
       err = clEnqueueMarkerWithWaitList(q.in_order, 0, nullptr, &e);
       return e;
     }},
    {"a barrier after the read on an in-order queue", false,
     [](const Queues &q, cl_event, cl_int &err) {
       cl_event e = nullptr;
       err = clEnqueueBarrierWithWaitList(q.in_order, 0, nullptr, &e);
       return e;
     }},
    {"a marker of another queue waiting for the read's event", true,
     [](const Queues &q, cl_event read, cl_int &err) {
       cl_event e = nullptr;
       err = clEnqueueMarkerWithWaitList(q.other, 1, &read, &e);
       return e;
     }},
    {"a marker after all before it on an out-of-order queue", true,
     [](const Queues &q, cl_event, cl_int &err) {
       cl_event e = nullptr;
       err = clEnqueueMarkerWithWaitList(q.out_of_order, 0, nullptr, &e);
       return e;
     }},
    {"a fill after a barrier (no event) on an out-of-order queue", true,
     [](const Queues &q, cl_event, cl_int &err) {
       cl_event e = nullptr;
       const cl_int zero = 0;
       if ((err = clEnqueueBarrierWithWaitList(q.out_of_order, 0, nullptr, nullptr))) return e;
       err = clEnqueueFillBuffer(q.out_of_order, q.scratch, &zero, sizeof zero, 0, sizeof zero, 0, nullptr, &e);
       return e;
     }},
};

// One round of `way`: the buffer filled with `value`, read back into
// `host`, the follower waited for. Returns 1 when `host` was not all
// `value` then, 0 when it was, -1 on an error.
int run_round(const Way &way, const Queues &q, cl_mem buffer, int value, std::vector<cl_int> &host) {
  std::fill(host.begin(), host.end(), -1);
  cl_command_queue on = way.out_of_order ? q.out_of_order : q.in_order;
  cl_event filled = nullptr, read = nullptr;
  cl_int err = clEnqueueFillBuffer(on, buffer, &value, sizeof value, 0, kCount * sizeof(cl_int), 0, nullptr,
                                   way.out_of_order ? &filled : nullptr);
  if (err) return fail("the fill", err), -1;
  err = clEnqueueReadBuffer(on, buffer, CL_FALSE, 0, kCount * sizeof(cl_int), host.data(), filled ? 1 : 0,
                            filled ? &filled : nullptr, way.out_of_order ? &read : nullptr);
  if (err) return fail("the read", err), -1;
  clFlush(on);
  cl_event after = way.follow(q, read, err);
  if (err || (err = clWaitForEvents(1, &after))) return fail(way.name, err), -1;
  int wrong = 0;
  for (cl_int v : host) wrong += v != value;
  if (wrong) std::printf("  round %d: %d of %zu ints not yet read back\n", value, wrong, kCount);
  // Everything ended before the next round (and before `host` changes).
  if ((err = clFinish(q.in_order)) || (err = clFinish(q.out_of_order)) || (err = clFinish(q.other)))
    return fail("finishing", err), -1;
  clReleaseEvent(after);
  if (read) clReleaseEvent(read);
  if (filled) clReleaseEvent(filled);
  return wrong ? 1 : 0;
}

}  // namespace

int main() {
  cl_device_id device = nullptr;
  for (auto [d, node] : devices_with_nodes())
    if (node == 1 && !device) device = d;
  if (!device) return fail("a device on node 1", CL_DEVICE_NOT_FOUND);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (err) return fail("context", err);
  const cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  Queues q{};
  q.in_order = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  if (err) return fail("the in-order queue", err);
  q.out_of_order = clCreateCommandQueueWithProperties(ctx, device, ooo, &err);
  if (err) return fail("the out-of-order queue", err);
  q.other = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  if (err) return fail("the other queue", err);
  cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kCount * sizeof(cl_int), nullptr, &err);
  if (err) return fail("the buffer", err);
  q.scratch = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &err);
  if (err) return fail("the scratch buffer", err);
  std::vector<cl_int> host(kCount);
  int failed = 0;
  for (const Way &way : kWays) {
    int wrong = 0;
    for (int r = 1; r <= kRounds; ++r) {
      int got = run_round(way, q, buffer, r, host);
      if (got < 0) return 1;
      wrong += got;
    }
    std::printf("%s: %d of %d rounds wrong\n", way.name, wrong, kRounds);
    failed += wrong;
  }
  clReleaseMemObject(buffer), clReleaseMemObject(q.scratch);
  clReleaseCommandQueue(q.in_order), clReleaseCommandQueue(q.out_of_order), clReleaseCommandQueue(q.other);
  clReleaseContext(ctx);
  if (failed) return fail("rounds whose bytes came after the command that follows their read", failed);
  std::printf("result: OK\n");
  return 0;
}
