// A fresh folder under $TMPDIR (else /tmp), removed with its content.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <stdlib.h>

namespace unit {

class TempDir {
 public:
  TempDir() {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/unicl-unit.XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp " + pattern + " failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace unit
