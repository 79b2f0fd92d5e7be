#include "sched.hpp"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <child_process.hpp>

#ifndef BENCH_PLOT_PY
#define BENCH_PLOT_PY "bench/plot.py"
#endif
#ifndef BENCH_PYTHON
#define BENCH_PYTHON "python3"
#endif

namespace bench {

ModelCache::ModelCache(const std::string &keep) {
  if (!keep.empty()) {
    dir_ = keep;
  } else {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/unicl-bench-models.XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp " + pattern + " failed");
    dir_ = pattern;
    owned_ = true;
  }
  setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
}

ModelCache::~ModelCache() {
  if (!owned_) return;
  nftw(
      dir_.c_str(), [](const char *path, const struct stat *, int, struct FTW *) { return ::remove(path); }, 16,
      FTW_DEPTH | FTW_PHYS);
}

cl::Context unicl_context(const std::vector<cl::Device> &devices, const std::string &policy, cl_ulong mem_limit,
                          const std::vector<cl_context_properties> &more) {
  cl::Platform p = platform(kUniCL);
  std::vector<cl_context_properties> props = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(p())};
  if (!policy.empty()) {
    props.push_back(CL_CONTEXT_SCHEDULER_UNICL);
    props.push_back(reinterpret_cast<cl_context_properties>(policy.c_str()));
  }
  if (mem_limit) {
    props.push_back(CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL);
    props.push_back(static_cast<cl_context_properties>(mem_limit));
  }
  props.insert(props.end(), more.begin(), more.end());
  props.push_back(0);
  return cl::Context(devices, props.data());
}

cl::CommandQueue device_less_queue(const cl::Context &ctx, cl_command_queue_properties props) {
  cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx(), nullptr, list, &err);
  if (err != CL_SUCCESS) throw cl::Error(err, "clCreateCommandQueueWithProperties(device NULL)");
  return cl::CommandQueue(q);
}

cl_device_id ran_on(const cl::Event &e) {
  cl_device_id d = nullptr;
  cl_int err = clGetEventInfo(e(), CL_EVENT_DEVICE_UNICL, sizeof d, &d, nullptr);
  if (err != CL_SUCCESS) throw cl::Error(err, "clGetEventInfo(CL_EVENT_DEVICE_UNICL)");
  return d;
}

void write_csv(const std::string &path, const std::vector<std::string> &header,
               const std::vector<std::vector<std::string>> &rows) {
  std::ofstream f(path);
  auto line = [&](const std::vector<std::string> &cells) {
    for (size_t i = 0; i < cells.size(); ++i) f << (i ? "," : "") << cells[i];
    f << '\n';
  };
  line(header);
  for (auto &r : rows) line(r);
  if (!f) throw std::runtime_error("cannot write " + path);
}

bool plot(const std::string &csv, const std::string &png, const std::string &title,
          const std::vector<std::string> &extra) {
  std::vector<std::string> args = {BENCH_PYTHON, BENCH_PLOT_PY, csv, png, "--title", title};
  args.insert(args.end(), extra.begin(), extra.end());
  child_process::Result r = child_process::run(args);
  if (!r.ok()) std::cout << "no PNG: " << BENCH_PLOT_PY << ": " << r.why() << '\n';
  return r.ok();
}

std::string output_dir(const std::string &dir) {
  if (dir.empty()) return ".";
  mkdir(dir.c_str(), 0777);  // exists already: fine; unusable: write_csv says so
  return dir;
}

}  // namespace bench
