#include "exclusive_mode.hpp"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "tool_config.hpp"
#include "backend/vendor_discovery.hpp"

namespace unicl_tool {
namespace {

// Same file or folder, whatever the spelling (symlinks, trailing slashes).
bool same_file(const std::string &a, const std::string &b) {
  struct stat sa {}, sb {};
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return a == b;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

std::string env_or_empty(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

// Sets `name` to `value`; true if that changed the environment.
bool set_env(const char *name, const std::string &value) {
  if (env_or_empty(name) == value && std::getenv(name)) return false;
  setenv(name, value.c_str(), 1);
  return true;
}

}  // namespace

bool from_build_tree() {
  // /proc/self/exe rather than argv[0]: the tool may have been found on PATH
  // or through a symlink.
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string self_path = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string();
  return !self_path.empty() && same_file(self_path, UNICL_TOOL_BUILD_PATH);
}

std::string exclusive_folder() {
  if (from_build_tree() && exists(std::string(UNICL_TOOL_BUILD_EXCLUSIVE_DIR) + "/unicl.icd"))
    return UNICL_TOOL_BUILD_EXCLUSIVE_DIR;
  return UNICL_TOOL_INSTALL_EXCLUSIVE_DIR;
}

std::string default_vendors(const std::string &exclusive) {
  if (const char *own = std::getenv("UNICL_VENDORS"); own && *own) return own;
  std::vector<std::string> parts = unicl::vendor_list_entries(env_or_empty("OCL_ICD_FILENAMES"));
  bool any_folder = false;
  for (const auto &entry : unicl::vendor_list_entries(env_or_empty("OCL_ICD_VENDORS"))) {
    // Already pointing at the exclusive folder: that is UniCL alone, not
    // the vendors the user wants UniCL to load.
    if (same_file(entry, exclusive)) continue;
    parts.push_back(entry);
    any_folder = true;
  }
  if (!any_folder) parts.push_back("/etc/OpenCL/vendors");
  std::string joined;
  for (const auto &p : parts) joined += (joined.empty() ? "" : ":") + p;
  return joined;
}

bool enter_exclusive_mode(const ExclusiveOptions &options) {
  const std::string folder = exclusive_folder();
  if (!exists(folder + "/unicl.icd"))
    throw std::runtime_error("no UniCL exclusive-mode folder at " + folder +
                             " (install UniCL, or run this tool from its build tree)");
  bool changed = set_env("UNICL_VENDORS", options.vendors ? *options.vendors : default_vendors(folder));
  if (options.log) changed |= set_env("UNICL_LOG", *options.log);
  changed |= set_env("OCL_ICD_VENDORS", folder);
  if (std::getenv("OCL_ICD_FILENAMES")) {
    unsetenv("OCL_ICD_FILENAMES");
    changed = true;
  }
  return changed;
}

}  // namespace unicl_tool
