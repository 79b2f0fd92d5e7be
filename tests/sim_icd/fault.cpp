#include "fault.hpp"

#include "api.hpp"
#include "config.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace sim {
namespace {

constexpr const char *kEntryNames[] = {
#define SIM_ENTRY_NAME(name) #name,
    SIM_IMPLEMENTED(SIM_ENTRY_NAME)
#undef SIM_ENTRY_NAME
};

// The errors a vendor may plausibly return from a valid call, by name;
// any other code can be given as a number.
#define SIM_FAULT_ERRORS(X)                                                                                  \
  X(CL_DEVICE_NOT_AVAILABLE) X(CL_COMPILER_NOT_AVAILABLE) X(CL_MEM_OBJECT_ALLOCATION_FAILURE)                \
  X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY) X(CL_PROFILING_INFO_NOT_AVAILABLE) X(CL_MAP_FAILURE)      \
  X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) X(CL_INVALID_VALUE) X(CL_INVALID_OPERATION)

struct NamedError {
  const char *name;
  cl_int code;
};
constexpr NamedError kErrors[] = {
#define SIM_NAMED_ERROR(name) {#name, name},
    SIM_FAULT_ERRORS(SIM_NAMED_ERROR)
#undef SIM_NAMED_ERROR
};

Entry entry_named(const std::string &name) {
  for (std::size_t i = 0; i < std::size(kEntryNames); ++i)
    if (name == kEntryNames[i]) return i;
  throw std::runtime_error("'" + name + "' is not an entry point of the simulator");
}

// Digits only: std::stoll alone would take "-0x5" or "5 apples".
long long integer(const std::string &text, const std::string &what) {
  std::size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  if (text.size() == start || text.size() - start > 18 || text.find_first_not_of("0123456789", start) != std::string::npos)
    throw std::runtime_error(what + ": '" + text + "' is not an integer");
  return std::stoll(text);
}

cl_int error_named(const std::string &text) {
  for (const auto &e : kErrors)
    if (text == e.name) return e.code;
  if (text.rfind("CL_", 0) == 0) throw std::runtime_error("unknown error name '" + text + "' (give its number)");
  long long code = integer(text, "error");
  if (code >= 0 || code < -10000) throw std::runtime_error("error " + text + " is not a negative OpenCL code");
  return static_cast<cl_int>(code);
}

FaultRule parse_rule(const std::string &text) {
  auto parts = split(text, ':');
  if (parts.size() < 2 || parts.size() > 3)
    throw std::runtime_error("expected entry:error[:after=N] or entry:delay=MS[:after=N], got '" + text + "'");
  FaultRule rule{entry_named(parts[0]), CL_SUCCESS};
  if (parts[1].rfind("delay=", 0) == 0) {
    long long ms = integer(parts[1].substr(6), "delay");
    if (ms <= 0 || ms > 60000) throw std::runtime_error("delay must be 1 to 60000 ms");
    rule.delay_ms = static_cast<std::uint64_t>(ms);
  } else {
    rule.error = error_named(parts[1]);
  }
  if (parts.size() == 3) {
    if (parts[2].rfind("after=", 0) != 0) throw std::runtime_error("unknown option '" + parts[2] + "' (after=N)");
    long long after = integer(parts[2].substr(6), "after");
    if (after < 0) throw std::runtime_error("after must not be negative");
    rule.after = static_cast<std::uint64_t>(after);
  }
  return rule;
}

// UNICL_SIM_FAULT_LOG names a file each injected delay or error is
// appended to as it starts, one line "<entry> <ns since the epoch>": a test
// counts the injected calls within a span of time it measured, whatever the
// machine's load does to their durations.
void log_fired(Entry e) {
  const char *path = std::getenv("UNICL_SIM_FAULT_LOG");
  if (!path || !*path) return;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  if (std::FILE *f = std::fopen(path, "a")) {
    std::fprintf(f, "%s %lld\n", entry_name(e), static_cast<long long>(ns.count()));
    std::fclose(f);
  }
}

}  // namespace

const char *entry_name(Entry e) { return e < std::size(kEntryNames) ? kEntryNames[e] : "?"; }

std::vector<FaultRule> parse_faults(const std::string &spec) {
  std::vector<FaultRule> rules;
  for (const auto &item : split(spec, ',')) {
    FaultRule rule = parse_rule(item);
    for (const auto &r : rules)
      if (r.entry == rule.entry) throw std::runtime_error(std::string(entry_name(rule.entry)) + " given twice");
    rules.push_back(rule);
  }
  return rules;
}

Faults::Faults(const std::vector<FaultRule> &rules) {
  if (!rules.empty()) armed_.resize(std::size(kEntryNames));
  for (const auto &r : rules) {
    armed_[r.entry] = std::make_unique<Armed>();
    armed_[r.entry]->rule = r;
  }
}

// Said once per rule: a test that fails for an unexpected reason then
// shows where the injected error came from.
cl_int Faults::fire(Armed &a) {
  log_fired(a.rule.entry);
  if (a.rule.delay_ms > 0) {
    if (!a.announced.exchange(true))
      std::fprintf(stderr, "unicl-sim: UNICL_SIM_FAIL: %s takes %llu ms more from now on\n", entry_name(a.rule.entry),
                   static_cast<unsigned long long>(a.rule.delay_ms));
    std::this_thread::sleep_for(std::chrono::milliseconds(a.rule.delay_ms));
    return CL_SUCCESS;
  }
  if (!a.announced.exchange(true))
    std::fprintf(stderr, "unicl-sim: UNICL_SIM_FAIL: %s fails with %d from now on\n", entry_name(a.rule.entry),
                 a.rule.error);
  return a.rule.error;
}

std::optional<std::vector<FaultRule>> load_faults_from_env() {
  const char *spec = std::getenv("UNICL_SIM_FAIL");
  if (!spec || !*spec) return std::vector<FaultRule>{};
  try {
    return parse_faults(spec);
  } catch (const std::runtime_error &e) {
    std::fprintf(stderr, "unicl-sim: UNICL_SIM_FAIL=%s: %s; no platform\n", spec, e.what());
    return std::nullopt;
  }
}

}  // namespace sim
