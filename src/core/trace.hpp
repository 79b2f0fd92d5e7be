// UNICL_TRACE=file.json: a Chrome trace-event file (open it in Perfetto or
// chrome://tracing) with one track per device and one slice per command
// and per transfer UniCL ran, written when the process exits. Slices are
// placed on the host clock: each ends when UniCL saw its vendor event
// complete and lasts what the vendor's profiling says it ran.
//
// A device of another node reports its commands' times on this process's
// clock already (its client moves them: cluster/protocol/steady_clock.hpp),
// so its slices sit where the command ran, and two more tracks show where
// the time between them goes: "<device> · queued there", from the moment
// the node handed a command to its vendor to its start (waiting for its
// inputs or for the device), and "<device> · end reported", from its end
// to the moment this process learnt of it (a device idle while its next
// command waits on that report is a device starved by the network).
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "backend/cl_headers.hpp"

struct _cl_device_id;

namespace unicl {

class Trace {
 public:
  // `path`: where write() puts the trace; empty: tracing is off.
  explicit Trace(std::string path);
  bool on() const { return !path_.empty(); }
  // Whose clock a vendor event's profiling times are on.
  enum class Times { kVendorClock, kHostClock };
  // Records vendor event `e` (of a profiled queue) once it completes, as a
  // slice named `name` on the track of `device`.
  void record(cl_event e, const std::string &device, std::string name, const char *category,
              Times times = Times::kVendorClock);
  // The same for a command of `device`: on the host clock when the device
  // is another node's.
  void record(cl_event e, const _cl_device_id &device, std::string name, const char *category);
  // Divided launches (division.hpp) get an async track each, as Chrome's
  // nestable async events: the launch's own slice, host-clock
  // [start_us, end_us], and nested under it a slice per piece.
  void launch_span(uint64_t id, std::string name, double start_us, double end_us);
  // A piece of divided launch `id` that ran as vendor event `e` (complete).
  void piece(uint64_t id, cl_event e, std::string name);
  void write();

 private:
  struct Slice {
    std::string device, name;
    const char *category;
    double start_us, duration_us;
    uint64_t launch = 0;  // a divided launch's async track, or 0
  };
  // Vendor event `e`, complete: it ended now and ran what its profiling
  // says; on the track of `device`, or on divided launch `launch`'s.
  void add(cl_event e, const std::string &device, const std::string &name, const char *category, uint64_t launch = 0);
  // The same for an event whose times are on the host clock: it ran, it
  // waited on its node, its end travelled (the header).
  void add_on_host_clock(cl_event e, const std::string &device, const std::string &name, const char *category);
  std::string path_;
  std::mutex mutex_;
  std::vector<Slice> slices_;
};

// A short name for a command type ("read", "write", "marker", ...).
const char *command_name(cl_command_type type);

}  // namespace unicl
