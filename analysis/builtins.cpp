#include "builtins.hpp"

#include <cctype>

namespace unicl::analysis {
namespace {

bool starts_with(const std::string &s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// The elements of a vload/vstore name after its prefix: "4" -> 4,
// "_half" -> 1, "_half8_rte" -> 8, "a_half4" -> 4.
unsigned lanes_of(std::string_view rest) {
  for (std::string_view half : {"a_half", "_half"})
    if (rest.substr(0, half.size()) == half) rest.remove_prefix(half.size());
  unsigned n = 0;
  for (size_t i = 0; i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i])); ++i) n = n * 10 + unsigned(rest[i] - '0');
  return n ? n : 1;
}

constexpr std::pair<const char *, access::WorkItem> kWorkItems[] = {
    {"get_global_id", access::WorkItem::GlobalId},
    {"get_local_id", access::WorkItem::LocalId},
    {"get_group_id", access::WorkItem::GroupId},
    {"get_global_size", access::WorkItem::GlobalSize},
    {"get_local_size", access::WorkItem::LocalSize},
    {"get_num_groups", access::WorkItem::NumGroups},
    {"get_global_offset", access::WorkItem::GlobalOffset},
    {"get_enqueued_local_size", access::WorkItem::EnqueuedLocalSize},
};

// Functions that tie the work-items of a work-group (or sub-group) together.
constexpr const char *kWorkGroupPrefixes[] = {"work_group_", "sub_group_", "get_sub_group", "get_num_sub_groups",
                                              "get_max_sub_group", "get_enqueued_num_sub_groups", "intel_sub_group"};
constexpr const char *kWorkGroupNames[] = {"barrier", "wait_group_events", "get_local_linear_id"};
// Functions known to touch no memory a kernel argument points to (a
// pointer reaches them only as a format string or a prefetch hint).
constexpr const char *kNoMemory[] = {"printf", "prefetch", "mem_fence", "read_mem_fence", "write_mem_fence",
                                     "get_work_dim", "atomic_work_item_fence"};

}  // namespace

std::string plain_name(std::string_view mangled) {
  if (mangled.substr(0, 2) != "_Z") return std::string(mangled);
  size_t at = 2, length = 0;
  while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) length = length * 10 + size_t(mangled[at++] - '0');
  if (length == 0 || at + length > mangled.size()) return std::string(mangled);
  return std::string(mangled.substr(at, length));
}

std::optional<Builtin> builtin(const std::string &name) {
  for (auto &[text, item] : kWorkItems)
    if (name == text) return Builtin{Builtin::Kind::WorkItem, item};
  if (name == "get_global_linear_id") return Builtin{Builtin::Kind::LinearId};
  for (const char *n : kNoMemory)
    if (name == n) return Builtin{Builtin::Kind::NoMemory};
  for (const char *n : kWorkGroupNames)
    if (name == n) return Builtin{Builtin::Kind::WorkGroupOnly};
  for (const char *p : kWorkGroupPrefixes)
    if (starts_with(name, p)) return Builtin{Builtin::Kind::WorkGroupOnly};
  if (starts_with(name, "async_work_group_")) return Builtin{Builtin::Kind::AsyncCopy};
  // An image's size and format are not its pixels.
  if (starts_with(name, "get_image_")) return Builtin{Builtin::Kind::NoMemory};
  if (starts_with(name, "read_image")) return Builtin{Builtin::Kind::ImageRead};
  if (starts_with(name, "write_image")) return Builtin{Builtin::Kind::ImageWrite};
  if (starts_with(name, "atomic_") || starts_with(name, "atom_")) return Builtin{Builtin::Kind::Atomic};
  for (auto [prefix, kind] : {std::pair{"vload", Builtin::Kind::VectorLoad}, std::pair{"vstore", Builtin::Kind::VectorStore}})
    if (starts_with(name, prefix)) {
      Builtin b{kind};
      b.lanes = lanes_of(std::string_view(name).substr(std::string_view(prefix).size()));
      b.half = name.find("half") != std::string::npos;
      return b;
    }
  return std::nullopt;
}

}  // namespace unicl::analysis
