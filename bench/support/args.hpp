// Command-line options of the benchmarks: each benchmark names its options
// once, with the variable each value goes to, and gets the parsing, the
// "missing value" errors and the usage line from here.
#pragma once
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace bench {

class Args {
 public:
  // `usage`: the options as the usage line shows them, e.g. "[--reps R]".
  Args(std::string program, std::string usage) : program_(std::move(program)), usage_(std::move(usage)) {}

  // "--name NUMBER" stores NUMBER x `unit` in `out`.
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
  Args &value(const std::string &name, T &out, T unit = T(1)) {
    return with(name, [&out, unit](const std::string &text) {
      size_t used = 0;
      if constexpr (std::is_floating_point_v<T>) out = static_cast<T>(std::stod(text, &used)) * unit;
      else if constexpr (std::is_signed_v<T>) out = static_cast<T>(std::stoll(text, &used)) * unit;
      else out = static_cast<T>(std::stoull(text, &used)) * unit;
      if (used != text.size()) throw std::invalid_argument(text);  // "3x" is not 3
    });
  }
  // "--name TEXT" stores TEXT in `out`.
  Args &value(const std::string &name, std::string &out) {
    return with(name, [&out](const std::string &text) { out = text; });
  }
  // "--name VALUE" hands VALUE to `take`.
  Args &with(const std::string &name, std::function<void(const std::string &)> take) {
    takes_value_[name] = std::move(take);
    return *this;
  }
  // "--name" alone sets `out`.
  Args &flag(const std::string &name, bool &out) {
    flags_[name] = &out;
    return *this;
  }

  void parse(int argc, char **argv) const {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (auto f = flags_.find(a); f != flags_.end()) {
        *f->second = true;
        continue;
      }
      auto v = takes_value_.find(a);
      if (v == takes_value_.end()) throw std::runtime_error("usage: " + program_ + " " + usage_);
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + a);
      try {
        v->second(argv[++i]);
      } catch (const std::logic_error &) {  // std::stoi and friends: not a number, or out of range
        throw std::runtime_error("bad value '" + std::string(argv[i]) + "' after " + a);
      }
    }
  }

 private:
  std::string program_, usage_;
  std::map<std::string, std::function<void(const std::string &)>> takes_value_;
  std::map<std::string, bool *> flags_;
};

}  // namespace bench
