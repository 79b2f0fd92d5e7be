// Shared pieces of the discovery tests: run unicl-probe under a vendor
// setting and read back what it saw.
#pragma once
#include <string>
#include <vector>

#include "scenario.hpp"

namespace cltest {

struct ProbedPlatform {
  std::string name;
  unsigned device_count = 0;
  std::vector<std::string> devices;
  bool devices_point_back = true;  // CL_DEVICE_PLATFORM of every device is this platform
};

struct Probe {
  child_process::Result run;
  std::vector<ProbedPlatform> platforms;

  const ProbedPlatform *find(const std::string &name) const {
    for (const auto &p : platforms)
      if (p.name == name) return &p;
    return nullptr;
  }
  size_t count(const std::string &name) const {
    size_t n = 0;
    for (const auto &p : platforms) n += p.name == name;
    return n;
  }
};

inline Probe probe(const child_process::EnvChanges &env) {
  Probe p;
  p.run = child_process::run({required_env("UNICL_PROBE")}, env);
  for (const auto &line : p.run.out_lines()) {
    if (line.rfind("platform ", 0) == 0) {
      auto bar = line.find('|');
      p.platforms.push_back({line.substr(9, bar - 9), static_cast<unsigned>(std::stoul(line.substr(bar + 1))), {}, true});
    } else if (line.rfind("device ", 0) == 0 && !p.platforms.empty()) {
      auto rest = line.substr(7);
      auto b1 = rest.find('|'), b2 = rest.rfind('|');
      p.platforms.back().devices.push_back(rest.substr(b1 + 1, b2 - b1 - 1));
      if (rest.substr(b2 + 1) != "1") p.platforms.back().devices_point_back = false;
    }
  }
  return p;
}

inline std::string build_root() { return required_env("UNICL_BUILD_ROOT"); }
inline std::string test_vendors_dir() { return build_root() + "/vendors-test"; }
inline std::string exclusive_dir() { return build_root() + "/vendors-exclusive"; }

// The library a one-line .icd file names.
inline std::string icd_library(const std::string &icd_file) {
  auto text = slurp(icd_file);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Environment in which the loader sees only UniCL and UniCL loads `vendors`.
inline child_process::EnvChanges exclusive_env(const std::string &vendors) {
  auto env = clean_opencl_env();
  env["OCL_ICD_VENDORS"] = exclusive_dir();
  env["UNICL_VENDORS"] = vendors;
  return env;
}

// Device counts of the test vendors with POCL_DEVICES="pthread basic".
constexpr unsigned kPoclDevices = 2;
constexpr unsigned kOclgrindDevices = 1;

}  // namespace cltest
