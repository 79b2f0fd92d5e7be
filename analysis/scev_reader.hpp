// ScalarEvolution's view of an integer value, as an expression of the
// launch (access/expr.hpp): SCEV's constants, sums, products, extensions
// and min/max become the expression's own; its unknowns become the names a
// launch fixes (a kernel argument, a field or lane of one, a work-item
// function of a constant dimension); an add-recurrence {start,+,step} of a
// loop becomes start + step * k, k the loop's iteration index, whose
// largest value (SCEV's back-edge count) the reader records per loop.
#pragma once
#include <map>
#include <optional>
#include <vector>

#include "access/expr.hpp"

namespace llvm {
class Function;
class Loop;
class SCEV;
class ScalarEvolution;
class Value;
}  // namespace llvm

namespace unicl::analysis {

class ScevReader {
 public:
  // `unsigned_args[i]`: kernel argument i holds unsigned integers (uint,
  // size_t, uint4 ...), read so at a launch.
  ScevReader(llvm::ScalarEvolution &se, const llvm::Function &kernel, std::vector<bool> unsigned_args);

  std::optional<access::Expr> read(const llvm::SCEV *s);
  // The loops met so far, in the order their indices number them.
  const std::vector<std::optional<access::Expr>> &loop_counts() const { return counts_; }

 private:
  std::optional<access::Expr> unknown(const llvm::Value *v);
  std::optional<access::Expr> add_recurrence(const llvm::SCEV *s);
  std::optional<uint32_t> loop_index(const llvm::Loop *loop);
  std::optional<access::Expr> nary(const llvm::SCEV *s, access::Expr::Op op, uint32_t bits);

  llvm::ScalarEvolution &se_;
  const llvm::Function &kernel_;
  std::vector<bool> unsigned_args_;
  std::map<const llvm::Loop *, uint32_t> loops_;
  std::vector<std::optional<access::Expr>> counts_;
};

}  // namespace unicl::analysis
