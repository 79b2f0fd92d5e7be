#include "uncalibrated_shares.hpp"

#include <algorithm>

namespace unicl {

bool give_uncalibrated_a_group(const std::vector<bool> &calibrated, std::vector<size_t> &groups) {
  bool gave = false;
  for (size_t i = 0; i < groups.size() && i < calibrated.size(); ++i) {
    if (groups[i] != 0 || calibrated[i]) continue;
    auto most = std::max_element(groups.begin(), groups.end());
    if (*most < 2) break;  // nothing left to spare
    --*most;
    groups[i] = 1;
    gave = true;
  }
  return gave;
}

}  // namespace unicl
