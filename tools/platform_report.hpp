// `unicl info`'s report of what the ICD loader shows: the UniCL platform and
// each of its devices with the vendor platform it comes from.
#pragma once
#include <ostream>

namespace unicl_tool {

// Returns false when the loader shows no UniCL platform.
bool print_platforms(std::ostream &out);

}  // namespace unicl_tool
