// What a test scenario run in a child process is made of: the environment it
// states itself, the paths meson hands the test, and scratch folders.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "child_process.hpp"

namespace cltest {

// The OpenCL-related variables a scenario should state itself rather than
// inherit from the test's own environment.
inline child_process::EnvChanges clean_opencl_env() {
  return {{"OCL_ICD_VENDORS", std::nullopt}, {"OCL_ICD_FILENAMES", std::nullopt},
          {"UNICL_VENDORS", std::nullopt},   {"UNICL_LOG", std::nullopt},
          {"POCL_DEVICES", std::string("pthread basic")}};
}

inline std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TempDir {
 public:
  TempDir() {
    std::string templ = "/tmp/unicl-test-XXXXXX";
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ignored;  // best effort
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  // Writes `content` to name inside the folder and returns its path.
  std::string write(const std::string &name, const std::string &content) const {
    std::ofstream(file(name)) << content;
    return file(name);
  }

 private:
  std::string path_;
};

// A path meson hands the test through the environment.
inline std::string required_env(const char *name) {
  const char *v = std::getenv(name);
  if (!v || !*v) throw std::runtime_error(std::string("test environment lacks ") + name);
  return v;
}

}  // namespace cltest
