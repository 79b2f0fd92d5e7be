#include "table.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace bench {

void Table::print() const {
  std::vector<size_t> width(headers_.size());
  for (size_t c = 0; c < headers_.size(); ++c) width[c] = headers_[c].size();
  for (auto &r : rows_)
    for (size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
  auto line = [&](const std::vector<std::string> &cells) {
    for (size_t c = 0; c < width.size(); ++c) {
      std::string cell = c < cells.size() ? cells[c] : "";
      std::cout << (c ? "  " : "") << std::string(width[c] - cell.size(), ' ') << cell;
    }
    std::cout << '\n';
  };
  line(headers_);
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  std::cout << std::string(total - 2, '-') << '\n';
  for (auto &r : rows_) line(r);
  std::cout << std::flush;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string bytes(size_t n) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (n >= 1024 && u < 3 && n % 1024 == 0) {
    n /= 1024;
    ++u;
  }
  return std::to_string(n) + " " + units[u];
}

void summary(const std::string &benchmark, const std::string &what, const std::string &measured,
             const std::string &target, const std::string &verdict) {
  std::cout << "SUMMARY|" << benchmark << '|' << what << '|' << measured << '|' << target << '|' << verdict << '\n'
            << std::flush;
}

}  // namespace bench
