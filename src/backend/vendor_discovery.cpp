#include "backend/vendor_discovery.hpp"

#include "backend/vendor_info.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace unicl {
namespace {

bool ends_with(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string read_icd_file(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// An entry of a vendors list: a folder of .icd files (sorted, as the
// loaders read them), one .icd file, or a library name.
void expand(const std::string &entry, std::vector<std::string> &out) {
  struct stat st {};
  if (stat(entry.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::vector<std::string> files;
    if (DIR *dir = opendir(entry.c_str())) {
      while (dirent *e = readdir(dir)) {
        std::string name = e->d_name;
        if (ends_with(name, ".icd")) files.push_back(entry + "/" + name);
      }
      closedir(dir);
    }
    std::sort(files.begin(), files.end());
    for (const auto &f : files)
      if (auto lib = read_icd_file(f); !lib.empty()) out.push_back(lib);
  } else if (ends_with(entry, ".icd")) {
    if (auto lib = read_icd_file(entry); !lib.empty()) out.push_back(lib);
  } else {
    out.push_back(entry);
  }
}

std::string resolved_path_of(const void *symbol) {
  Dl_info info{};
  if (!dladdr(symbol, &info) || !info.dli_fname) return {};
  char buf[PATH_MAX];
  return realpath(info.dli_fname, buf) ? std::string(buf) : std::string(info.dli_fname);
}

}  // namespace

std::vector<std::string> vendor_list_entries(const std::string &list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ':');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<std::string> vendor_library_names(const VendorSources &sources) {
  std::vector<std::string> names;
  if (sources.unicl_vendors) {
    for (const auto &e : vendor_list_entries(*sources.unicl_vendors)) expand(e, names);
  } else {
    for (const auto &e : vendor_list_entries(sources.icd_filenames)) names.push_back(e);
    for (const auto &e : vendor_list_entries(sources.icd_vendors)) expand(e, names);
    expand("/etc/OpenCL/vendors", names);
  }
  names.insert(names.end(), sources.extra_libraries.begin(), sources.extra_libraries.end());
  auto skipped = [&](const std::string &n) {
    const std::string file = n.substr(n.find_last_of('/') + 1);
    return std::find(sources.skip_libraries.begin(), sources.skip_libraries.end(), file) !=
           sources.skip_libraries.end();
  };
  std::vector<std::string> unique;
  for (auto &n : names)
    if (!skipped(n) && std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  return unique;
}

namespace {

void log_line(const DiscoveryLog &log, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void log_line(const DiscoveryLog &log, int level, const char *fmt, ...) {
  char line[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(line, sizeof line, fmt, args);
  va_end(args);
  log(level, line);
}

}  // namespace

std::vector<VendorPlatform> load_vendor_platforms(const VendorSources &sources, const DiscoveryLog &log) {
  using GetAddress = void *(CL_API_CALL *)(const char *);
  using IcdGetPlatforms = cl_int(CL_API_CALL *)(cl_uint, cl_platform_id *, cl_uint *);
  const std::string self = resolved_path_of(reinterpret_cast<const void *>(&vendor_list_entries));
  std::vector<std::string> seen_paths;
  std::vector<VendorPlatform> platforms;

  for (const auto &lib : vendor_library_names(sources)) {
    // RTLD_LOCAL keeps vendors' symbols (often several LLVMs) apart.
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      log_line(log, 1, "vendor %s not loaded: %s", lib.c_str(), dlerror());
      continue;
    }
    auto get_address = reinterpret_cast<GetAddress>(dlsym(handle, "clGetExtensionFunctionAddress"));
    if (!get_address) {
      log_line(log, 1, "vendor %s is not an OpenCL ICD (no clGetExtensionFunctionAddress)", lib.c_str());
      continue;
    }
    const std::string path = resolved_path_of(reinterpret_cast<const void *>(get_address));
    if (path == self) continue;  // UniCL itself, under whatever name
    if (std::find(seen_paths.begin(), seen_paths.end(), path) != seen_paths.end()) continue;
    seen_paths.push_back(path);
    auto get_platforms = reinterpret_cast<IcdGetPlatforms>(get_address("clIcdGetPlatformIDsKHR"));
    if (!get_platforms) get_platforms = reinterpret_cast<IcdGetPlatforms>(dlsym(handle, "clIcdGetPlatformIDsKHR"));
    cl_uint n = 0;
    if (!get_platforms || get_platforms(0, nullptr, &n) != CL_SUCCESS || n == 0) {
      log_line(log, 1, "vendor %s reports no platforms; skipped", lib.c_str());
      continue;
    }
    std::vector<cl_platform_id> ids(n);
    if (get_platforms(n, ids.data(), nullptr) != CL_SUCCESS) {
      log_line(log, 1, "vendor %s failed to list its platforms; skipped", lib.c_str());
      continue;
    }
    for (cl_platform_id p : ids) {
      if (!p || !*reinterpret_cast<void **>(p)) continue;
      std::string name, version;
      auto info = [p](cl_platform_info what) {
        return [p, what](size_t sz, void *v, size_t *r) { return vendor_info(p, what, sz, v, r); };
      };
      if (vendor_string(info(CL_PLATFORM_NAME), name) != CL_SUCCESS ||
          vendor_string(info(CL_PLATFORM_VERSION), version) != CL_SUCCESS) {
        log_line(log, 1, "vendor %s: platform info query failed; skipped", lib.c_str());
        continue;
      }
      platforms.push_back({path, name, p, parse_cl_version(version)});
      log_line(log, 2, "vendor platform '%s' (%s) from %s", name.c_str(), version.c_str(), path.c_str());
    }
  }
  return platforms;
}

}  // namespace unicl
