#include "kernel_corpus.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

namespace corpus {
namespace {

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

template <class T>
void append(std::vector<std::byte> &bytes, T value) {
  auto *p = reinterpret_cast<const std::byte *>(&value);
  bytes.insert(bytes.end(), p, p + sizeof value);
}

// `global=64,32 local=8,8 offset=0,4` into a case.
void read_launch(const std::string &text, Case &c) {
  std::stringstream in(text);
  for (std::string word; in >> word;) {
    auto eq = word.find('=');
    if (eq == std::string::npos) throw std::runtime_error("launch: '" + word + "' is not key=value");
    std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "local" && value == "-") continue;
    auto numbers = split(value, ',');
    if (numbers.empty() || numbers.size() > 3) throw std::runtime_error("launch: " + key + " needs 1 to 3 numbers");
    size_t *target = key == "global" ? c.global : key == "local" ? c.local : key == "offset" ? c.offset : nullptr;
    if (!target) throw std::runtime_error("launch: unknown key " + key);
    for (size_t i = 0; i < numbers.size(); ++i) target[i] = std::stoull(numbers[i]);
    if (key == "global") c.dim = static_cast<uint32_t>(numbers.size());
    if (key == "local") c.local_given = true;
  }
}

Arg buffer_arg(const std::string &type, const std::vector<std::string> &f, std::mt19937 &random) {
  Arg a;
  a.kind = Arg::Kind::Buffer;
  const size_t n = std::stoull(f.at(1));
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  if (type == "f32")
    for (size_t i = 0; i < n; ++i) append(a.bytes, unit(random));
  else if (type == "f64")
    for (size_t i = 0; i < n; ++i) append(a.bytes, static_cast<double>(unit(random)));
  else if (type == "i32")
    for (size_t i = 0, m = std::stoull(f.at(2)); i < n; ++i) append(a.bytes, static_cast<int32_t>(random() % m));
  else if (type == "u8")
    for (size_t i = 0; i < n; ++i) a.bytes.push_back(static_cast<std::byte>(random()));
  else if (type == "zero")
    a.bytes.assign(n, std::byte{0});
  else if (type == "perm") {
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), random);
    for (int32_t v : order) append(a.bytes, v);
  }
  return a;
}

Arg scalar_arg(const std::string &type, const std::string &value) {
  Arg a;
  if (type == "int") append(a.bytes, static_cast<int32_t>(std::stol(value)));
  else if (type == "uint") append(a.bytes, static_cast<uint32_t>(std::stoul(value)));
  else if (type == "long") append(a.bytes, static_cast<int64_t>(std::stoll(value)));
  else if (type == "float") append(a.bytes, std::stof(value));
  else if (type == "int4")
    for (auto &v : split(value, ',')) append(a.bytes, static_cast<int32_t>(std::stol(v)));
  else if (type == "struct")
    for (auto &field : split(value, ',')) {
      auto tv = split(field, ':');
      if (tv.at(0) == "i32") append(a.bytes, static_cast<int32_t>(std::stol(tv.at(1))));
      else append(a.bytes, std::stof(tv.at(1)));
    }
  else throw std::runtime_error("args: unknown scalar type " + type);
  return a;
}

Arg read_arg(const std::string &spec, std::mt19937 &random) {
  if (auto eq = spec.find('='); eq != std::string::npos) return scalar_arg(spec.substr(0, eq), spec.substr(eq + 1));
  auto f = split(spec, ':');
  if (f.size() < 2) throw std::runtime_error("args: '" + spec + "' is not a buffer, local or scalar");
  if (f[0] == "local") {
    Arg a;
    a.kind = Arg::Kind::Local;
    a.local_bytes = std::stoull(f[1]);
    return a;
  }
  if (f[0] == "img") {  // img:W:H, RGBA floats as f32:W*H*4
    Arg a = buffer_arg("f32", {"f32", std::to_string(std::stoull(f.at(1)) * std::stoull(f.at(2)) * 4)}, random);
    a.kind = Arg::Kind::Image;
    a.width = std::stoull(f[1]);
    a.height = std::stoull(f[2]);
    return a;
  }
  static const char *kBuffers[] = {"f32", "f64", "i32", "u8", "zero", "perm"};
  if (std::find(std::begin(kBuffers), std::end(kBuffers), f[0]) == std::end(kBuffers))
    throw std::runtime_error("args: unknown buffer type " + f[0]);
  return buffer_arg(f[0], f, random);
}

// `split 1 | 0:0:128:128 2:0:4:4` or `whole words...`.
void read_expect(const std::string &text, Case &c) {
  if (text.rfind("whole ", 0) == 0) {
    c.whole_words = text.substr(6);
    return;
  }
  if (text.rfind("split ", 0) != 0) throw std::runtime_error("expect: neither split nor whole");
  auto bar = text.find('|');
  c.split_dim = static_cast<uint32_t>(std::stoul(text.substr(6, bar - 6)));
  std::stringstream in(bar == std::string::npos ? "" : text.substr(bar + 1));
  for (std::string w; in >> w;) {
    auto f = split(w, ':');
    if (f.size() != 4) throw std::runtime_error("expect: window '" + w + "' is not ARG:OFFSET:STRIDE:SIZE");
    c.windows.push_back({static_cast<uint32_t>(std::stoul(f[0])), std::stoll(f[1]), std::stoll(f[2]), std::stoull(f[3])});
  }
}

void read_header_line(const std::string &key, const std::string &value, Kernel &k, std::mt19937 &random) {
  if (key == "build") k.build = value;
  else if (key == "modes") k.modes = split(value, ' ');
  else if (key == "run") k.run = value != "no";
  else if (key == "launch") read_launch(value, k.cases.emplace_back());
  else if (key == "args" || key == "expect") {
    if (k.cases.empty()) throw std::runtime_error(key + " before any launch");
    if (key == "expect") read_expect(value, k.cases.back());
    else {
      std::stringstream in(value);
      for (std::string spec; in >> spec;) k.cases.back().args.push_back(read_arg(spec, random));
    }
  }
}

Kernel read_kernel(const std::filesystem::path &path) {
  Kernel k;
  k.name = path.stem().string();
  k.path = path.string();
  std::ifstream file(path);
  std::stringstream all;
  all << file.rdbuf();
  k.source = all.str();
  std::mt19937 random(static_cast<unsigned>(std::hash<std::string>{}(k.name)));
  std::stringstream lines(k.source);
  int number = 0;
  for (std::string line; std::getline(lines, line) && line.rfind("//", 0) == 0;) {
    ++number;
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;  // the description
    std::string key = line.substr(3, colon - 3), value = line.substr(colon + 2);
    if (key.find(' ') != std::string::npos) continue;  // prose with a colon
    try {
      read_header_line(key, value, k, random);
    } catch (const std::exception &e) {
      throw std::runtime_error(k.path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return k;
}

}  // namespace

std::vector<Kernel> load(const std::string &folder) {
  std::vector<std::filesystem::path> files;
  for (auto &entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".cl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<Kernel> out;
  for (auto &f : files) out.push_back(read_kernel(f));
  return out;
}

}  // namespace corpus
