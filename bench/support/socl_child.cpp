#include "socl_child.hpp"

#include <child_process.hpp>

#include <algorithm>
#include <sstream>

namespace bench {

std::map<std::string, double> measure_socl_child(const std::string &socl_vendors, int launches, std::string &why) {
  std::map<std::string, double> out;
  if (socl_vendors.empty()) {
    why = "not requested (--socl-vendors DIR)";
    return out;
  }
  int n = std::max(100, launches / 10);
  child_process::Result r = child_process::run_self({"--socl-child", "--launches", std::to_string(n), "--reps", "3"},
                                                    {{"OCL_ICD_VENDORS", socl_vendors},
                                                     {"STARPU_OPENCL_ON_CPUS", "1"},
                                                     // StarPU's own CPU workers would only compete for the cores.
                                                     {"STARPU_NCPU", "0"},
                                                     {"STARPU_SILENT", "1"}},
                                                    120);
  std::istringstream lines(r.out);
  std::string tag, key;
  double value;
  while (lines >> tag >> key >> value)
    if (tag == "SOCL") out[key] = value;
  if (!r.ok()) why = r.why();
  return out;
}

}  // namespace bench
