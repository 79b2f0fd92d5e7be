#include "cluster/protocol/topology_text.hpp"

#include <hwloc.h>

#include <cstdio>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>

namespace unicl::cluster {
namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology *t) const { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

std::string size_text(hwloc_uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

std::string plural(int n, const char *word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

void print_object(std::ostream &out, hwloc_obj_t obj, int depth);

void print_children(std::ostream &out, hwloc_obj_t obj, int depth) {
  for (hwloc_obj_t m = obj->memory_first_child; m; m = m->next_sibling) print_object(out, m, depth);
  for (hwloc_obj_t c = obj->first_child; c; c = c->next_sibling) print_object(out, c, depth);
}

// Only the levels a reader needs to place devices and threads are printed;
// caches, groups and dies are walked through, their children shown in place.
void print_object(std::ostream &out, hwloc_obj_t obj, int depth) {
  const std::string indent(2 * static_cast<size_t>(depth), ' ');
  switch (obj->type) {
    case HWLOC_OBJ_MACHINE:
      out << indent << "Machine (" << size_text(obj->total_memory) << ")\n";
      print_children(out, obj, depth + 1);
      return;
    case HWLOC_OBJ_PACKAGE:
      out << indent << "Package L#" << obj->logical_index << "\n";
      print_children(out, obj, depth + 1);
      return;
    case HWLOC_OBJ_NUMANODE:
      out << indent << "NUMANode L#" << obj->logical_index << " P#" << obj->os_index << " ("
          << size_text(obj->attr->numanode.local_memory) << ")\n";
      return;
    case HWLOC_OBJ_CORE: {
      // A core's PUs on its own line keep the tree short on big hosts.
      out << indent << "Core L#" << obj->logical_index << ":";
      for (hwloc_obj_t c = obj->first_child; c; c = c->next_sibling)
        if (c->type == HWLOC_OBJ_PU) out << " PU P#" << c->os_index;
      out << "\n";
      return;
    }
    case HWLOC_OBJ_PU:
      out << indent << "PU P#" << obj->os_index << "\n";
      return;
    default:
      print_children(out, obj, depth);
  }
}

}  // namespace

std::string topology_text() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return {};
  Topology topology(raw);
  if (hwloc_topology_load(raw) != 0) return {};
  std::ostringstream out;
  const int packages = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PACKAGE);
  const int numa = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_NUMANODE);
  const int cores = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_CORE);
  const int pus = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PU);
  out << "topology (hwloc): " << plural(packages, "package") << ", " << plural(numa, "NUMA node") << ", "
      << plural(cores, "core") << ", " << plural(pus, "PU") << "\n";
  print_object(out, hwloc_get_root_obj(raw), 1);
  return out.str();
}

}  // namespace unicl::cluster
