// UniCL's settings from the environment, read once when the runtime starts
// (Runtime::config()): a variable changed later in the process has no
// effect, so every part of UniCL sees the same settings.
#pragma once
#include <functional>
#include <optional>
#include <string>

namespace unicl {

struct Config {
  // UNICL_LOG: verbosity of the lines on stderr (0, unset or not a number:
  // quiet).
  int log_level = 0;
  // UNICL_TRACE: the Chrome trace file written at exit; empty: no trace.
  std::string trace_path;
  // UNICL_SCHEDULER: the policy of multi-device contexts made without the
  // context property; empty: the default policy. Context creation checks
  // the name (the scheduling layer knows the policies).
  std::string scheduler;
  // UNICL_DEVICE_MEM_LIMIT as given; empty: none. Context creation parses
  // it (apply_mem_limits, memory/coherence.hpp) and fails when malformed.
  std::string device_mem_limit;
  // UNICL_GRANULARITY: the factor strategy of divided launches in contexts
  // made without the context property; empty: the default. Checked at
  // context creation, like the policy.
  std::string granularity;
  // UNICL_DIVIDE_FACTOR as given: a fixed factor for every divided launch
  // (CL_CONTEXT_DIVIDE_FACTOR_UNICL); empty: learnt. Context creation parses
  // it and fails when it is not a number.
  std::string divide_factor;
  // UNICL_SOCL_COMPAT set to anything but "" or "0": the platform answers
  // StarPU SOCL's name and vendor strings, and builds define SOCL's
  // per-device macro, so that programs written for SOCL run unchanged.
  bool socl_compat = false;
  // UNICL_SCHEDULE_ALL set to anything but "" or "0": queues made for one
  // device of a multi-device context are scheduled too.
  bool schedule_all = false;
  // UNICL_AUTO_SPLIT "0": launches of kernels that declared no split are
  // never split on UniCL's own, whatever the analysis of their source found
  // (CL_CONTEXT_AUTO_SPLIT_UNICL, per context). Default: they may be.
  bool auto_split = true;
  // UNICL_COMPOSITE: empty or "0": the platform lists every device; "1":
  // it lists one device, the composite of all of them
  // (core/composite_device.hpp); a comma-separated list of name parts: the
  // composite of the devices whose names contain one of them.
  std::string composite;
  // UniCL's per-user cache folder: $XDG_CACHE_HOME/unicl, else
  // $HOME/.cache/unicl; empty when neither variable is set.
  std::string cache_dir;
  // Where vendor discovery looks (backend/vendor_discovery.hpp). UNICL_VENDORS
  // set but empty means no vendor, hence the optional.
  std::optional<std::string> unicl_vendors;
  std::string icd_filenames;  // OCL_ICD_FILENAMES
  std::string icd_vendors;    // OCL_ICD_VENDORS
  // This process is the application of an MPI job whose other ranks run
  // unicl-node (`mpirun -np 1 ./app : -np K unicl-node`: rank 0, alone in
  // the first of several application contexts, as Open MPI describes the
  // job in its environment), and UNICL_CLUSTER is not "0": the nodes'
  // devices join the platform.
  bool cluster_job = false;
  // UNICL_NODES ("host[:count],..." or a count), in a process that is not
  // part of a larger MPI job: UniCL starts the node processes itself
  // (MPI_Comm_spawn), so programs not started by mpirun (clinfo, Python)
  // see the nodes' devices too.
  std::string spawn_nodes;

  // The value of a variable, or null when it is unset.
  using Lookup = std::function<const char *(const char *name)>;
  static Config parse(const Lookup &lookup);
  static Config from_environment();
};

}  // namespace unicl
