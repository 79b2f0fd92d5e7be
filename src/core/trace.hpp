// UNICL_TRACE=file.json: a Chrome trace-event file (open it in Perfetto or
// chrome://tracing) with one track per device and one slice per command
// and per transfer UniCL ran, written when the process exits. Slices are
// placed on the host clock: each ends when UniCL saw its vendor event
// complete and lasts what the vendor's profiling says it ran.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "backend/cl_headers.hpp"

namespace unicl {

class Trace {
 public:
  // `path`: where write() puts the trace; empty: tracing is off.
  explicit Trace(std::string path);
  bool on() const { return !path_.empty(); }
  // Records vendor event `e` (of a profiled queue) once it completes, as a
  // slice named `name` on the track of `device`.
  void record(cl_event e, const std::string &device, std::string name, const char *category);
  void write();

 private:
  struct Slice {
    std::string device, name;
    const char *category;
    double start_us, duration_us;
  };
  void add(cl_event e, const std::string &device, const std::string &name, const char *category);
  std::string path_;
  std::mutex mutex_;
  std::vector<Slice> slices_;
};

// A short name for a command type ("read", "write", "marker", ...).
const char *command_name(cl_command_type type);

}  // namespace unicl
