#include "access/describe.hpp"

#include <set>
#include <vector>

namespace unicl::access {
namespace {

bool is_zero(const Expr &e) { return e.is_const() && e.value == 0; }

std::vector<std::string> arg_names(const KernelAccess &k) {
  std::vector<std::string> names;
  for (auto &p : k.params) names.push_back(p.name);
  return names;
}

const char *modes_text(uint8_t modes) {
  return modes == kReads ? "read" : modes == kWrites ? "written" : "read and written";
}

// One line per distinct window of an argument's accesses along `dim`.
std::vector<std::string> windows(const KernelAccess &k, uint32_t dim) {
  const auto names = arg_names(k);
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (auto &a : k.accesses) {
    const bool rows = k.params[a.arg].kind == Param::Kind::Image2D;
    std::string where = rows ? "all of it (rows not bounded)" : "all of it (bytes not bounded)";
    if (a.offset)
      if (auto l = linear_in(*a.offset, WorkItem::GlobalId, dim)) {
        where = "i*" + to_readable(l->coefficient, names);
        if (!is_zero(l->rest)) where += " + " + to_readable(l->rest, names);
        where += ", " + to_readable(a.size, names) + (rows ? " rows" : " bytes");
        for (auto &g : a.guards) where += ", when " + to_readable(g.value, names) + " < " + to_readable(g.limit, names);
      }
    std::string line = names[a.arg] + " (" + modes_text(a.modes) + "): " + where;
    if (seen.insert(line).second) lines.push_back(line);
  }
  for (size_t l = 0; l < k.loop_counts.size(); ++l)
    lines.push_back("k" + std::to_string(l) + " from 0 to " +
                    (k.loop_counts[l] ? to_readable(*k.loop_counts[l], names) : std::string("an unbounded count")));
  return lines;
}

}  // namespace

std::optional<std::string> static_reason(const KernelAccess &k, uint32_t dim) {
  if (!k.whole_reason.empty()) return k.whole_reason;
  if (!k.dim_reasons[dim].empty()) return k.dim_reasons[dim];
  const std::string index = "get_global_id(" + std::to_string(dim) + ")";
  for (auto &a : k.accesses) {
    if (!(a.modes & kWrites)) continue;
    const std::string &name = k.params[a.arg].name;
    if (!a.offset) return "writes through " + name + " at bytes the analysis could not bound";
    auto l = linear_in(*a.offset, WorkItem::GlobalId, dim);
    if (!l) return "writes through " + name + " at bytes not linear in " + index;
    if (is_zero(l->coefficient)) return "writes through " + name + " that do not move with " + index;
  }
  return std::nullopt;
}

std::string describe(const KernelAccess &k) {
  std::string out = "kernel " + k.name + ": ";
  if (!k.whole_reason.empty()) return out + "runs whole: " + k.whole_reason + '\n';
  std::string refusals;
  std::vector<uint32_t> candidates;
  for (uint32_t d = 3; d-- > 0;) {
    if (auto why = static_reason(k, d)) refusals += "  not along dimension " + std::to_string(d) + ": " + *why + '\n';
    else candidates.push_back(d);
  }
  if (candidates.empty()) return out + "runs whole\n" + refusals;
  // A launch takes the first of them whose windows its values keep apart.
  out += "splits along dimension " + std::to_string(candidates[0]);
  for (size_t i = 1; i < candidates.size(); ++i) out += ", else " + std::to_string(candidates[i]);
  out += " (index i = get_global_id(d)) where a launch's values keep written windows apart";
  if (!k.work_group_use.empty()) out += "; with a work-group size given (it uses " + k.work_group_use + ")";
  out += '\n';
  for (uint32_t d : candidates) {
    if (candidates.size() > 1) out += "  along dimension " + std::to_string(d) + ":\n";
    for (auto &line : windows(k, d)) out += (candidates.size() > 1 ? "    " : "  ") + line + '\n';
  }
  return out;
}

}  // namespace unicl::access
