// A registry of things made by name (scheduling policies, factor
// strategies): one line per entry in the layer's registry.cpp, the first
// entry the default. The layers above the core each keep one; the names are
// the one list for messages, usage text and validation.
#pragma once
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace unicl {

template <class Factory>
class NamedFactories {
 public:
  explicit NamedFactories(std::vector<std::pair<std::string, Factory>> entries) : entries_(std::move(entries)) {
    for (auto &e : entries_) names_.push_back(e.first);
  }
  // The factory called `name`, or null.
  Factory find(const std::string &name) const {
    for (auto &[n, make] : entries_)
      if (n == name) return make;
    return nullptr;
  }
  const std::vector<std::string> &names() const { return names_; }

 private:
  std::vector<std::pair<std::string, Factory>> entries_;
  std::vector<std::string> names_;
};

// Whether `name` is one of `names`.
inline bool is_named(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "a, b, c": names for a message.
inline std::string name_list(const std::vector<std::string> &names) {
  std::string list;
  for (auto &n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace unicl
