#include "core/trace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "backend/profiling.hpp"
#include "backend/vendor.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_status.hpp"
#include "core/device.hpp"

namespace unicl {
namespace {

double host_now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string json_escaped(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

}  // namespace

Trace::Trace(std::string path) : path_(std::move(path)) {}

void Trace::add(cl_event e, const std::string &device, const std::string &name, const char *category,
                uint64_t launch) {
  cl_ulong start = 0, end = 0;
  double duration = 0;
  if (profiling_times(e, start, end)) duration = static_cast<double>(end - start) / 1e3;
  double now = host_now_us();
  std::lock_guard lock(mutex_);
  slices_.push_back({device, name, category, now - duration, duration, launch});
}

void Trace::add_on_host_clock(cl_event e, const std::string &device, const std::string &name, const char *category) {
  cl_ulong queued = 0, start = 0, end = 0;
  if (!profiling_times(e, start, end)) return add(e, device, name, category);
  vendor_profiling_info(e, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr);
  const double learnt = host_now_us(), start_us = static_cast<double>(start) / 1e3,
               end_us = static_cast<double>(end) / 1e3, queued_us = static_cast<double>(queued) / 1e3;
  std::lock_guard lock(mutex_);
  slices_.push_back({device, name, category, start_us, end_us - start_us});
  if (queued && queued_us < start_us)
    slices_.push_back({device + " · queued there", name, "queued", queued_us, start_us - queued_us});
  // The two clocks agree to a few microseconds (the offset's estimate):
  // an end learnt sooner than that shows as learnt at once.
  slices_.push_back({device + " · end reported", name, "report", end_us, std::max(learnt, end_us) - end_us});
}

void Trace::record(cl_event e, const std::string &device, std::string name, const char *category, Times times) {
  if (!on()) return;
  // `e` is alive whenever the run is made: at once, or inside its callback.
  when_vendor_status(e, CL_COMPLETE, [this, e, device, name = std::move(name), category, times](cl_int status) {
    if (status != CL_COMPLETE) return;
    if (times == Times::kHostClock) add_on_host_clock(e, device, name, category);
    else add(e, device, name, category);
  });
}

void Trace::record(cl_event e, const _cl_device_id &device, std::string name, const char *category) {
  record(e, device.name, std::move(name), category, device.node ? Times::kHostClock : Times::kVendorClock);
}

// A launch and its pieces share one category and id: Chrome nests async
// slices only then.
constexpr const char *kDivided = "divided";

void Trace::launch_span(uint64_t id, std::string name, double start_us, double end_us) {
  if (!on()) return;
  std::lock_guard lock(mutex_);
  slices_.push_back({"", std::move(name), kDivided, start_us, end_us - start_us, id});
}

void Trace::piece(uint64_t id, cl_event e, std::string name) {
  if (on()) add(e, "", name, kDivided, id);
}

void Trace::write() {
  if (!on()) return;
  std::lock_guard lock(mutex_);
  std::FILE *f = std::fopen(path_.c_str(), "w");
  if (!f) return;
  std::map<std::string, int> tracks;
  for (auto &s : slices_)
    if (!s.launch) tracks.emplace(s.device, static_cast<int>(tracks.size()) + 1);
  std::fprintf(f, "{\"traceEvents\":[\n");
  bool first = true;
  for (auto &[device, tid] : tracks) {
    std::fprintf(f, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
                 first ? "" : ",\n", tid, json_escaped(device).c_str());
    first = false;
  }
  for (auto &s : slices_) {
    if (s.launch) {
      // A begin and an end on the launch's async track.
      for (auto [ph, ts] : {std::pair{'b', s.start_us}, std::pair{'e', s.start_us + s.duration_us}})
        std::fprintf(f, "%s{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"%c\",\"id\":%llu,\"pid\":1,\"ts\":%.3f}",
                     first ? "" : ",\n", json_escaped(s.name).c_str(), s.category, ph,
                     static_cast<unsigned long long>(s.launch), ts),
            first = false;
      continue;
    }
    std::fprintf(f, "%s{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}",
                 first ? "" : ",\n", json_escaped(s.name).c_str(), s.category, tracks[s.device], s.start_us,
                 s.duration_us),
        first = false;
  }
  std::fprintf(f, "\n],\"displayTimeUnit\":\"ms\"}\n");
  std::fclose(f);
}

const char *command_name(cl_command_type type) {
  switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL: return "kernel";
    case CL_COMMAND_TASK: return "task";
    case CL_COMMAND_NATIVE_KERNEL: return "native kernel";
    case CL_COMMAND_READ_BUFFER: case CL_COMMAND_READ_BUFFER_RECT: case CL_COMMAND_READ_IMAGE: return "read";
    case CL_COMMAND_WRITE_BUFFER: case CL_COMMAND_WRITE_BUFFER_RECT: case CL_COMMAND_WRITE_IMAGE: return "write";
    case CL_COMMAND_COPY_BUFFER: case CL_COMMAND_COPY_BUFFER_RECT: case CL_COMMAND_COPY_IMAGE:
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: case CL_COMMAND_COPY_BUFFER_TO_IMAGE: return "copy";
    case CL_COMMAND_FILL_BUFFER: case CL_COMMAND_FILL_IMAGE: return "fill";
    case CL_COMMAND_MAP_BUFFER: case CL_COMMAND_MAP_IMAGE: return "map";
    case CL_COMMAND_UNMAP_MEM_OBJECT: return "unmap";
    case CL_COMMAND_MARKER: return "marker";
    case CL_COMMAND_BARRIER: return "barrier";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS: return "migrate";
    default: return "command";
  }
}

}  // namespace unicl
