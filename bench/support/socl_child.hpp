// StarPU's SOCL as a measured reference, run in a child process of the
// benchmark (the same executable, given --socl-child): SOCL needs a vendor
// folder of its own (its .icd beside PoCL's) and may crash or hang, which
// must not take the benchmark down.
#pragma once
#include <map>
#include <string>

namespace bench {

// Runs this executable again with `--socl-child --launches N --reps 3`
// (N a tenth of `launches`, at least 100: SOCL costs tens of microseconds
// per command, so fewer give the same precision) and the loader pointed at
// `socl_vendors`; returns what the child printed as "SOCL <key> <value>"
// lines, by key. Empty, with `why` set, when `socl_vendors` is empty or the
// child failed.
std::map<std::string, double> measure_socl_child(const std::string &socl_vendors, int launches, std::string &why);

}  // namespace bench
