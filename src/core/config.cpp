#include "core/config.hpp"

#include <algorithm>
#include <cstdlib>

namespace unicl {

Config Config::parse(const Lookup &lookup) {
  auto text = [&](const char *name) {
    const char *v = lookup(name);
    return std::string(v ? v : "");
  };
  Config c;
  c.log_level = std::max(0, std::atoi(text("UNICL_LOG").c_str()));
  c.trace_path = text("UNICL_TRACE");
  c.scheduler = text("UNICL_SCHEDULER");
  c.device_mem_limit = text("UNICL_DEVICE_MEM_LIMIT");
  c.granularity = text("UNICL_GRANULARITY");
  c.divide_factor = text("UNICL_DIVIDE_FACTOR");
  const std::string socl = text("UNICL_SOCL_COMPAT");
  c.socl_compat = !socl.empty() && socl != "0";
  const std::string all = text("UNICL_SCHEDULE_ALL");
  c.schedule_all = !all.empty() && all != "0";
  c.auto_split = text("UNICL_AUTO_SPLIT") != "0";
  if (std::string composite = text("UNICL_COMPOSITE"); composite != "0") c.composite = composite;
  if (std::string xdg = text("XDG_CACHE_HOME"); !xdg.empty()) c.cache_dir = xdg + "/unicl";
  else if (std::string home = text("HOME"); !home.empty()) c.cache_dir = home + "/.cache/unicl";
  if (const char *own = lookup("UNICL_VENDORS")) c.unicl_vendors = own;
  c.icd_filenames = text("OCL_ICD_FILENAMES");
  c.icd_vendors = text("OCL_ICD_VENDORS");
  // OMPI_APP_CTX_NUM_PROCS lists the size of each application context
  // ("1 2" for -np 1 ./app : -np 2 unicl-node).
  const int world = std::atoi(text("OMPI_COMM_WORLD_SIZE").c_str());
  const int first_context = std::atoi(text("OMPI_APP_CTX_NUM_PROCS").c_str());
  c.cluster_job = text("UNICL_CLUSTER") != "0" && world > 1 && text("OMPI_COMM_WORLD_RANK") == "0" &&
                  text("OMPI_MCA_orte_app_num") == "0" && first_context == 1;
  if (text("UNICL_CLUSTER") != "0" && world <= 1) c.spawn_nodes = text("UNICL_NODES");
  return c;
}

Config Config::from_environment() {
  return parse([](const char *name) -> const char * { return std::getenv(name); });
}

}  // namespace unicl
