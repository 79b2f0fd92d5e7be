#include "config.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace sim {
namespace {

double number(const std::string &text, const std::string &what) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v))
    throw std::runtime_error(what + ": '" + text + "' is not a number");
  return v;
}

double positive(const std::string &text, const std::string &what) {
  double v = number(text, what);
  if (v <= 0) throw std::runtime_error(what + " must be positive");
  return v;
}

// "key=value key=value ..." after the keyword; every key at most once.
std::map<std::string, std::string> key_values(std::istringstream &words) {
  std::map<std::string, std::string> kv;
  for (std::string w; words >> w;) {
    auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) throw std::runtime_error("expected key=value, got '" + w + "'");
    if (!kv.emplace(w.substr(0, eq), w.substr(eq + 1)).second)
      throw std::runtime_error("'" + w.substr(0, eq) + "' given twice");
  }
  return kv;
}

cl_device_type device_type(const std::string &t) {
  if (t == "cpu") return CL_DEVICE_TYPE_CPU;
  if (t == "gpu") return CL_DEVICE_TYPE_GPU;
  if (t == "accelerator") return CL_DEVICE_TYPE_ACCELERATOR;
  throw std::runtime_error("type must be cpu, gpu or accelerator, not '" + t + "'");
}

const char *type_word(cl_device_type t) {
  return t == CL_DEVICE_TYPE_CPU ? "cpu" : t == CL_DEVICE_TYPE_GPU ? "gpu" : "accelerator";
}

void add_devices(Config &c, std::map<std::string, std::string> kv) {
  DeviceConfig d;
  long count = -1;  // -1: one device named exactly `name`
  if (kv.count("type")) d.type = device_type(kv["type"]);
  for (const auto &[key, value] : kv) {
    if (key == "name" || key == "type") continue;
    if (key == "gflops") d.gflops = positive(value, key);
    else if (key == "memory_mb") d.memory_bytes = static_cast<std::uint64_t>(positive(value, key) * (1 << 20));
    else if (key == "bandwidth_gbps") d.bandwidth = positive(value, key) * 1e9;
    else if (key == "latency_us") d.latency = number(value, key) * 1e-6;
    else if (key == "units") d.units = static_cast<cl_uint>(positive(value, key));
    else if (key == "copy_engine") {
      if (value != "0" && value != "1") throw std::runtime_error("copy_engine takes 0 or 1");
      d.copy_engine = value == "1";
    } else if (key == "count") count = static_cast<long>(positive(value, key));
    else throw std::runtime_error("unknown device key '" + key + "'");
  }
  if (d.latency < 0) throw std::runtime_error("latency_us must not be negative");
  std::string name = kv.count("name") ? kv["name"] : std::string(type_word(d.type));
  if (count < 0) {
    d.name = kv.count("name") ? name : name + std::to_string(c.devices.size());
    c.devices.push_back(d);
    return;
  }
  for (long i = 0; i < count; ++i) {
    d.name = name + std::to_string(i);
    c.devices.push_back(d);
  }
}

void add_kernel(Config &c, std::map<std::string, std::string> kv) {
  KernelModel k;
  if (!kv.count("name")) throw std::runtime_error("kernel needs name= (or name=*)");
  if (!kv.count("flops")) throw std::runtime_error("kernel needs flops=");
  for (const auto &[key, value] : kv) {
    if (key == "name") k.name = value;
    else if (key == "flops") k.flops = parse_cost(value);
    else if (key == "cpu") k.cpu = positive(value, key);
    else if (key == "gpu") k.gpu = positive(value, key);
    else if (key == "accelerator") k.accelerator = positive(value, key);
    else throw std::runtime_error("unknown kernel key '" + key + "'");
  }
  c.kernels.push_back(k);
}

}  // namespace

double CostExpr::operator()(double n) const {
  double sum = 0;
  for (auto [coeff, exp] : terms) sum += coeff * std::pow(n, exp);
  return sum;
}

double KernelModel::efficiency(cl_device_type type) const {
  return type == CL_DEVICE_TYPE_CPU ? cpu : type == CL_DEVICE_TYPE_GPU ? gpu : accelerator;
}

// expr   := term ('+' term)*
// term   := factor ('*' factor)*
// factor := NUMBER | 'n' | 'n^' NUMBER
CostExpr parse_cost(const std::string &text) {
  if (text.empty()) throw std::runtime_error("empty flops expression");
  CostExpr e;
  for (const auto &term : split(text, '+')) {
    double coeff = 1, exp = 0;
    for (const auto &factor : split(term, '*')) {
      if (factor == "n") exp += 1;
      else if (factor.rfind("n^", 0) == 0) exp += number(factor.substr(2), "exponent");
      else coeff *= number(factor, "flops factor");
    }
    e.terms.emplace_back(coeff, exp);
  }
  return e;
}

Config parse_config(std::istream &in) {
  Config c;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    try {
      line = line.substr(0, line.find('#'));
      std::istringstream words(line);
      std::string keyword;
      if (!(words >> keyword)) continue;
      if (keyword == "mode") {
        std::string m, extra;
        words >> m;
        if (m != "timing" && m != "correctness") throw std::runtime_error("mode must be timing or correctness");
        if (words >> extra) throw std::runtime_error("unexpected '" + extra + "'");
        c.correctness = m == "correctness";
      } else if (keyword == "move_bytes") {
        std::string v, extra;
        words >> v;
        if (v != "yes" && v != "no") throw std::runtime_error("move_bytes must be yes or no");
        if (words >> extra) throw std::runtime_error("unexpected '" + extra + "'");
        c.move_bytes = v == "yes";
      } else if (keyword == "time_scale") {
        std::string v, extra;
        words >> v;
        c.time_scale = number(v, "time_scale");
        if (c.time_scale < 0) throw std::runtime_error("time_scale must not be negative");
        if (words >> extra) throw std::runtime_error("unexpected '" + extra + "'");
      } else if (keyword == "device") {
        add_devices(c, key_values(words));
      } else if (keyword == "kernel") {
        add_kernel(c, key_values(words));
      } else {
        throw std::runtime_error("unknown keyword '" + keyword + "'");
      }
    } catch (const std::runtime_error &e) {
      throw std::runtime_error("line " + std::to_string(line_no) + ": " + e.what());
    }
  }
  return c;
}

const KernelModel &Config::kernel_model(const std::string &kernel) const {
  static const KernelModel fallback{"*", parse_cost("1000*n")};
  const KernelModel *model = &fallback;
  for (const auto &k : kernels) {
    if (k.name == kernel) return k;
    if (k.name == "*") model = &k;  // a named entry later in the file still wins
  }
  return *model;
}

double Config::kernel_seconds(const std::string &kernel, const DeviceConfig &d, double work_items) const {
  const KernelModel &model = kernel_model(kernel);
  return model.flops(work_items) / (d.gflops * model.efficiency(d.type) * 1e9) * time_scale;
}

double Config::transfer_seconds(const DeviceConfig &d, std::uint64_t bytes) const {
  return (d.latency + static_cast<double>(bytes) / d.bandwidth) * time_scale;
}

std::optional<Config> load_config_from_env() {
  const char *path = std::getenv("UNICL_SIM_CONFIG");
  if (!path || !*path) return std::nullopt;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "unicl-sim: cannot read UNICL_SIM_CONFIG=%s; no platform\n", path);
    return std::nullopt;
  }
  try {
    Config c = parse_config(in);
    if (c.devices.empty()) std::fprintf(stderr, "unicl-sim: %s describes no device; no platform\n", path);
    if (c.devices.empty()) return std::nullopt;
    return c;
  } catch (const std::runtime_error &e) {
    std::fprintf(stderr, "unicl-sim: %s: %s; no platform\n", path, e.what());
    return std::nullopt;
  }
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

}  // namespace sim
