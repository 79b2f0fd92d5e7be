// Plain-text result tables, and the one-line verdicts bench/run.sh gathers
// into its summary.
#pragma once
#include <string>
#include <vector>

namespace bench {

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Prints right-aligned columns, wide enough for every cell.
  void print() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// Formats `v` with `decimals` digits after the point.
std::string fixed(double v, int decimals);
// "4 KiB", "16 MiB": sizes are always powers of two here.
std::string bytes(size_t n);

// One summary line, "SUMMARY|benchmark|case|measured|target|verdict", which
// bench/run.sh collects from every benchmark's output.
void summary(const std::string &benchmark, const std::string &what, const std::string &measured,
             const std::string &target, const std::string &verdict);

}  // namespace bench
