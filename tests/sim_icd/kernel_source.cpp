#include "kernel_source.hpp"

#include <cctype>
#include <map>

namespace sim {
namespace {

// Identifiers, numbers and single punctuation characters; comments and
// preprocessor lines dropped.
std::vector<std::string> tokenize(const std::string &s) {
  std::vector<std::string> out;
  bool line_start = true;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      if (i == std::string::npos) i = s.size();
    } else if (s.compare(i, 2, "/*") == 0) {
      i = s.find("*/", i + 2);
      i = i == std::string::npos ? s.size() : i + 2;
    } else if (c == '#' && line_start) {
      // A directive runs to the end of the line, including continued lines.
      while (i < s.size() && s[i] != '\n') i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back(s.substr(i, j - i));
      i = j;
      line_start = false;
    } else {
      out.emplace_back(1, c);
      ++i;
      line_start = false;
    }
  }
  return out;
}

// Index just past the group that opens with tokens[i] ("(" or "[").
size_t skip_group(const std::vector<std::string> &t, size_t i) {
  const std::string open = t[i], close = open == "(" ? ")" : "]";
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i] == open) ++depth;
    else if (t[i] == close && --depth == 0) return i + 1;
  }
  return t.size();
}

// sizeof of the scalar and vector types a private argument may have.
size_t type_size(const std::string &type) {
  static const std::map<std::string, size_t> scalars = {
      {"char", 1},  {"uchar", 1},  {"bool", 1},  {"short", 2},    {"ushort", 2},    {"half", 2},
      {"int", 4},   {"uint", 4},   {"float", 4}, {"long", 8},     {"ulong", 8},     {"double", 8},
      {"size_t", 8}, {"ptrdiff_t", 8}, {"intptr_t", 8}, {"uintptr_t", 8},
      {"unsigned char", 1}, {"unsigned short", 2}, {"unsigned int", 4}, {"unsigned long", 8}, {"unsigned", 4}};
  if (auto it = scalars.find(type); it != scalars.end()) return it->second;
  // Vector types: a scalar name followed by 2, 3, 4, 8 or 16 (3 is stored as 4).
  size_t digits = type.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(type[digits - 1]))) --digits;
  if (digits == type.size()) return 0;
  auto it = scalars.find(type.substr(0, digits));
  if (it == scalars.end()) return 0;
  int n = std::stoi(type.substr(digits));
  if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) return 0;
  return it->second * (n == 3 ? 4 : n);
}

KernelParam parse_param(const std::vector<std::string> &t) {
  static const std::map<std::string, cl_kernel_arg_address_qualifier> address = {
      {"__global", CL_KERNEL_ARG_ADDRESS_GLOBAL},   {"global", CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"__constant", CL_KERNEL_ARG_ADDRESS_CONSTANT}, {"constant", CL_KERNEL_ARG_ADDRESS_CONSTANT},
      {"__local", CL_KERNEL_ARG_ADDRESS_LOCAL},     {"local", CL_KERNEL_ARG_ADDRESS_LOCAL},
      {"__private", CL_KERNEL_ARG_ADDRESS_PRIVATE}, {"private", CL_KERNEL_ARG_ADDRESS_PRIVATE}};
  static const std::map<std::string, cl_kernel_arg_access_qualifier> access = {
      {"__read_only", CL_KERNEL_ARG_ACCESS_READ_ONLY},   {"read_only", CL_KERNEL_ARG_ACCESS_READ_ONLY},
      {"__write_only", CL_KERNEL_ARG_ACCESS_WRITE_ONLY}, {"write_only", CL_KERNEL_ARG_ACCESS_WRITE_ONLY},
      {"__read_write", CL_KERNEL_ARG_ACCESS_READ_WRITE}, {"read_write", CL_KERNEL_ARG_ACCESS_READ_WRITE}};
  static const std::map<std::string, cl_kernel_arg_type_qualifier> qualifier = {
      {"const", CL_KERNEL_ARG_TYPE_CONST},       {"volatile", CL_KERNEL_ARG_TYPE_VOLATILE},
      {"restrict", CL_KERNEL_ARG_TYPE_RESTRICT}, {"__restrict", CL_KERNEL_ARG_TYPE_RESTRICT}};

  KernelParam p;
  std::vector<std::string> words;  // type words and the name, in order
  for (size_t i = 0; i < t.size();) {
    const std::string &w = t[i];
    if (w == "__attribute__" && i + 1 < t.size() && t[i + 1] == "(") {
      i = skip_group(t, i + 1);
      continue;
    }
    if (w == "[") {  // an array parameter decays to a pointer
      p.pointer = true;
      i = skip_group(t, i);
      continue;
    }
    if (auto a = address.find(w); a != address.end()) p.address = a->second;
    else if (auto x = access.find(w); x != access.end()) p.access = x->second;
    else if (auto q = qualifier.find(w); q != qualifier.end()) p.qualifiers |= q->second;
    else if (w == "*") p.pointer = true;
    else words.push_back(w);
    ++i;
  }
  if (!words.empty()) {
    p.name = words.back();
    words.pop_back();
  }
  for (const auto &w : words) p.type_name += (p.type_name.empty() ? "" : " ") + w;
  if (p.pointer) p.type_name += "*";
  if (p.is_buffer()) p.size = sizeof(cl_mem);
  else if (!p.pointer && p.address != CL_KERNEL_ARG_ADDRESS_LOCAL) p.size = type_size(p.type_name);
  return p;
}

}  // namespace

std::vector<KernelSignature> scan_kernels(const std::string &source) {
  const auto t = tokenize(source);
  std::vector<KernelSignature> kernels;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != "__kernel" && t[i] != "kernel") continue;
    // The kernel's name is the identifier right before the first "(" that
    // does not open an attribute.
    size_t j = i + 1;
    while (j < t.size() && t[j] != "(" && t[j] != ";" && t[j] != "{") {
      if (t[j] == "__attribute__" && j + 1 < t.size() && t[j + 1] == "(") j = skip_group(t, j + 1);
      else ++j;
    }
    if (j >= t.size() || t[j] != "(" || j == i + 1) continue;
    KernelSignature k{t[j - 1], {}};
    size_t end = skip_group(t, j);
    std::vector<std::string> param;
    int depth = 0;
    for (size_t m = j + 1; m + 1 < end; ++m) {
      if (t[m] == "(" || t[m] == "[") ++depth;
      if (t[m] == ")" || t[m] == "]") --depth;
      if (t[m] == "," && depth == 0) {
        k.params.push_back(parse_param(param));
        param.clear();
      } else {
        param.push_back(t[m]);
      }
    }
    if (!param.empty() && !(param.size() == 1 && param[0] == "void")) k.params.push_back(parse_param(param));
    // Skip attributes after the parameter list; a ";" means a prototype.
    size_t after = end;
    while (after + 1 < t.size() && t[after] == "__attribute__") after = skip_group(t, after + 1);
    bool defined = after < t.size() && t[after] == "{";
    bool known = false;
    for (const auto &other : kernels) known |= other.name == k.name;
    if (defined && !known) kernels.push_back(std::move(k));
    i = end - 1;
  }
  return kernels;
}

}  // namespace sim
