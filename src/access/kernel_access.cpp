#include "access/kernel_access.hpp"

#include <sstream>

namespace unicl::access {
namespace {

constexpr const char *kKindNames[] = {"global", "constant", "local", "scalar", "other", "image2d"};
constexpr const char *kModeNames[] = {"-", "r", "w", "rw"};

template <size_t N>
int index_of(const char *const (&names)[N], const std::string &word) {
  for (size_t i = 0; i < N; ++i)
    if (word == names[i]) return static_cast<int>(i);
  return -1;
}

// The rest of a line after its first words, without the blank before it.
std::string rest_of(std::istringstream &line) {
  std::string rest;
  std::getline(line >> std::ws, rest);
  return rest;
}

bool read_param(std::istringstream &line, KernelAccess &k) {
  std::string kind, modes;
  line >> kind >> modes;
  int kind_index = index_of(kKindNames, kind), mode_index = index_of(kModeNames, modes);
  if (kind_index < 0 || mode_index < 0) return false;
  k.params.push_back({static_cast<Param::Kind>(kind_index), rest_of(line), static_cast<uint8_t>(mode_index)});
  return true;
}

bool read_access(std::istringstream &line, KernelAccess &k) {
  MemoryAccess a;
  std::string modes;
  line >> a.arg >> modes;
  int mode_index = index_of(kModeNames, modes);
  if (!line || mode_index <= 0) return false;
  a.modes = static_cast<uint8_t>(mode_index);
  std::string rest = rest_of(line);
  size_t bar = rest.find(" | ");
  if (bar == std::string::npos) return false;
  auto size = parse_expr(rest.substr(0, bar));
  std::string offset = rest.substr(bar + 3);
  if (!size) return false;
  a.size = std::move(*size);
  if (offset != "unbounded") {
    a.offset = parse_expr(offset);
    if (!a.offset) return false;
  }
  k.accesses.push_back(std::move(a));
  return true;
}

bool read_guard(std::istringstream &line, KernelAccess &k) {
  Guard g;
  std::string sign;
  line >> g.bits >> sign;
  if (!line || k.accesses.empty() || (sign != "s" && sign != "u")) return false;
  g.is_signed = sign == "s";
  std::string rest = rest_of(line);
  size_t bar = rest.find(" | ");
  if (bar == std::string::npos) return false;
  auto value = parse_expr(rest.substr(0, bar)), limit = parse_expr(rest.substr(bar + 3));
  if (!value || !limit) return false;
  g.value = std::move(*value);
  g.limit = std::move(*limit);
  k.accesses.back().guards.push_back(std::move(g));
  return true;
}

// One line of a kernel's block; false when it is malformed.
bool read_line(const std::string &key, std::istringstream &line, KernelAccess &k) {
  if (key == "param") return read_param(line, k);
  if (key == "access") return read_access(line, k);
  if (key == "guard") return read_guard(line, k);
  if (key == "loop") {
    std::string count = rest_of(line);
    if (count == "unbounded") {
      k.loop_counts.emplace_back();
      return true;
    }
    auto e = parse_expr(count);
    if (e) k.loop_counts.push_back(std::move(*e));
    return e.has_value();
  }
  if (key == "whole") return !(k.whole_reason = rest_of(line)).empty();
  if (key == "groups") return !(k.work_group_use = rest_of(line)).empty();
  if (key == "dim") {
    unsigned d = 3;
    line >> d;
    return d < 3 && !(k.dim_reasons[d] = rest_of(line)).empty();
  }
  return false;
}

// `e` with every loop index moved up by `by`.
Expr shift_loops(Expr e, uint32_t by) {
  if (e.op == Expr::Op::Loop) e.index += by;
  for (auto &o : e.operands) o = shift_loops(std::move(o), by);
  return e;
}

void keep_first(std::string &reason, const std::string &other) {
  if (reason.empty()) reason = other;
}

}  // namespace

std::optional<KernelAccess> merge(const KernelAccess &a, const KernelAccess &b) {
  if (a.params.size() != b.params.size()) return std::nullopt;
  KernelAccess out = a;
  for (size_t i = 0; i < out.params.size(); ++i) {
    if (out.params[i].kind != b.params[i].kind) return std::nullopt;
    out.params[i].modes |= b.params[i].modes;
  }
  const auto by = static_cast<uint32_t>(a.loop_counts.size());
  for (auto &count : b.loop_counts)
    out.loop_counts.push_back(count ? std::optional<Expr>(shift_loops(*count, by)) : std::nullopt);
  for (auto access : b.accesses) {
    if (access.offset) access.offset = shift_loops(std::move(*access.offset), by);
    access.size = shift_loops(std::move(access.size), by);
    for (Guard &g : access.guards) {
      g.value = shift_loops(std::move(g.value), by);
      g.limit = shift_loops(std::move(g.limit), by);
    }
    out.accesses.push_back(std::move(access));
  }
  keep_first(out.whole_reason, b.whole_reason);
  for (size_t d = 0; d < 3; ++d) keep_first(out.dim_reasons[d], b.dim_reasons[d]);
  keep_first(out.work_group_use, b.work_group_use);
  return out;
}

std::string to_text(const std::vector<KernelAccess> &kernels) {
  std::string out;
  for (auto &k : kernels) {
    out += "kernel " + k.name + '\n';
    for (auto &p : k.params)
      out += std::string("param ") + kKindNames[static_cast<int>(p.kind)] + ' ' + kModeNames[p.modes & 3] + ' ' +
             p.name + '\n';
    for (auto &l : k.loop_counts) out += "loop " + (l ? to_text(*l) : "unbounded") + '\n';
    for (auto &a : k.accesses) {
      out += "access " + std::to_string(a.arg) + ' ' + kModeNames[a.modes & 3] + ' ' + to_text(a.size) + " | " +
             (a.offset ? to_text(*a.offset) : "unbounded") + '\n';
      for (auto &g : a.guards)
        out += "guard " + std::to_string(g.bits) + (g.is_signed ? " s " : " u ") + to_text(g.value) + " | " +
               to_text(g.limit) + '\n';
    }
    if (!k.whole_reason.empty()) out += "whole " + k.whole_reason + '\n';
    for (size_t d = 0; d < 3; ++d)
      if (!k.dim_reasons[d].empty()) out += "dim " + std::to_string(d) + ' ' + k.dim_reasons[d] + '\n';
    if (!k.work_group_use.empty()) out += "groups " + k.work_group_use + '\n';
    out += "end\n";
  }
  return out;
}

std::optional<std::vector<KernelAccess>> parse_kernels(const std::string &text) {
  std::vector<KernelAccess> kernels;
  std::istringstream in(text);
  std::string raw;
  bool open = false;
  while (std::getline(in, raw)) {
    if (raw.empty()) continue;
    std::istringstream line(raw);
    std::string key;
    line >> key;
    if (!open) {
      if (key != "kernel") return std::nullopt;
      kernels.emplace_back().name = rest_of(line);
      open = true;
    } else if (key == "end") {
      open = false;
    } else if (!read_line(key, line, kernels.back())) {
      return std::nullopt;
    }
  }
  if (open) return std::nullopt;
  return kernels;
}

}  // namespace unicl::access
