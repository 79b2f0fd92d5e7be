// A multi-device context's memory state at its creation: the planner's
// first guess of each route between its copies, and what each device may
// hold.
#include "memory/context_memory.hpp"

#include <algorithm>
#include <cstdint>

#include "CL/cl_ext_unicl.h"
#include "backend/vendor_info.hpp"
#include "core/refusal.hpp"
#include "core/runtime.hpp"
#include "memory/coherence.hpp"

namespace unicl {
namespace {

// Per slot, the network from its node to every rank of the job, as
// measured when the nodes joined (CL_DEVICE_NODE_LINKS_UNICL: latency and
// bandwidth per rank, rank 0 first; empty for this host's devices).
using Networks = std::vector<std::vector<cl_double>>;

Networks node_networks(const _cl_context &ctx) {
  Networks networks(ctx.slots.size());
  for (Location l = 0; l < ctx.slots.size(); ++l)
    if (const _cl_device_id &d = *ctx.slots[l].device; d.node != 0)
      networks[l] = vendor_array<cl_double>(d.vendor, CL_DEVICE_NODE_LINKS_UNICL);
  return networks;
}

// The first guess of a route from the node of slot `l` to rank `rank`: the
// network, measured, between `copies` copies within a machine; false when
// the network was not measured.
bool across_network(const Networks &networks, Location l, cl_uint rank, int copies, LinkEstimate &guess) {
  const std::vector<cl_double> &n = networks[l];
  if (2 * rank + 1 >= n.size() || !(n[2 * rank + 1] > 0)) return false;
  const LinkEstimate device;
  guess = {copies * device.latency + n[2 * rank], 1 / (copies / device.bandwidth + 1 / n[2 * rank + 1])};
  return true;
}

// Direct routes where a device copies from another without host memory
// (devices of other nodes). Between two devices of one node the bytes
// never cross the network: such a route starts from the guess of a copy
// within one machine, so that a buffer many devices of a node read crosses
// the network to that node once and is copied there. Between two nodes it
// starts from the network measured between them (a read, the trip, a
// write); when nothing says, as fast as the route through the host until
// timed. Each is then learnt from the copies.
void add_direct_routes(_cl_context &ctx, const Networks &networks) {
  TransferPlanner &planner = ctx.memory->planner;
  for (Location src = 0; src < ctx.slots.size(); ++src)
    for (Location dst = 0; dst < ctx.slots.size(); ++dst) {
      if (!ctx.slots[dst].endpoint->reaches_from(*ctx.slots[src].endpoint)) continue;
      const _cl_device_id &from = *ctx.slots[src].device, &to = *ctx.slots[dst].device;
      LinkEstimate guess;
      if (from.node != 0 && from.node == to.node) planner.add_link(src, dst, LinkEstimate{});
      else if (across_network(networks, src, to.node, 2, guess)) planner.add_link(src, dst, guess);
      else planner.add_unmeasured_link(src, dst);
    }
}

// Devices of other nodes: the devices of one node share its network link
// (transfers to one of them queue behind those to the others), the nodes
// share this host's (transfers to one node queue behind those to the
// others), and that link, measured when the node joined, comes before the
// node's own copy into the device in the first guess of their host links.
void add_node_sites(_cl_context &ctx, const Networks &networks) {
  TransferPlanner &planner = ctx.memory->planner;
  for (Location l = 0; l < ctx.slots.size(); ++l) {
    const _cl_device_id &d = *ctx.slots[l].device;
    if (d.node == 0) continue;
    planner.set_site(l, ctx.slots.size() + 1 + d.node);
    planner.set_behind_network(ctx.slots.size() + 1 + d.node);
    if (LinkEstimate guess; across_network(networks, l, 0, 1, guess)) {
      planner.add_link(planner.host(), l, guess);
      planner.add_link(l, planner.host(), guess);
    }
  }
}

// What UniCL lets its copies occupy per device: the device's memory, or
// less when the context property or UNICL_DEVICE_MEM_LIMIT (`spec`) say so.
cl_int set_memory_limits(_cl_context &ctx, const std::string &spec) {
  for (auto &s : ctx.slots) {
    cl_ulong global = vendor_value<cl_ulong>(s.device->vendor, CL_DEVICE_GLOBAL_MEM_SIZE);
    s.mem_limit = global ? static_cast<size_t>(global) : SIZE_MAX;
    if (ctx.mem_limit) s.mem_limit = std::min<size_t>(s.mem_limit, ctx.mem_limit);
  }
  if (apply_mem_limits(ctx, spec)) return CL_SUCCESS;
  Runtime::get().log(1, "UNICL_DEVICE_MEM_LIMIT=%s is not a list of sizes (e.g. 256M or pthread=1G,Oclgrind=64M)",
                     spec.c_str());
  return refuse(CL_INVALID_PROPERTY, "UNICL_DEVICE_MEM_LIMIT is not a list of sizes");
}

// CPU devices, of this host or of a node: their copies out run on the cores
// their kernels use (a simulated CPU device runs them one after the other),
// so a copy read from one may wait behind its kernel of 54 ms when a GPU
// beside it holds the same bytes.
void mark_competing_copies(_cl_context &ctx) {
  for (Location l = 0; l < ctx.slots.size(); ++l) {
    const auto type = vendor_value<cl_device_type>(ctx.slots[l].device->vendor, CL_DEVICE_TYPE);
    if (type & CL_DEVICE_TYPE_CPU) ctx.memory->planner.set_copies_compete(l);
  }
}

}  // namespace

cl_int init_context_memory(_cl_context &ctx, const std::string &mem_limits) {
  // Coherence tracks a copy per device plus the host copy in one set.
  if (ctx.slots.size() + 1 > LocationSet::kCapacity)
    return refuse(CL_OUT_OF_RESOURCES, "more devices than a context of UniCL can hold");
  ctx.memory = std::make_shared<ContextMemory>(ctx.slots.size());
  const Networks networks = node_networks(ctx);
  add_direct_routes(ctx, networks);
  add_node_sites(ctx, networks);
  mark_competing_copies(ctx);
  return set_memory_limits(ctx, mem_limits);
}

}  // namespace unicl
