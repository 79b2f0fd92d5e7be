#include "access/simplify.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace unicl::access {
namespace {

bool is_min_max(const Expr &e) {
  return e.op == Expr::Op::SMin || e.op == Expr::Op::SMax || e.op == Expr::Op::UMin || e.op == Expr::Op::UMax;
}

// A term as coefficient * rest (rest 1 for a constant term).
std::pair<int64_t, Expr> split_coefficient(Expr term) {
  if (term.is_const()) return {term.value, Expr::constant(1)};
  if (term.op != Expr::Op::Mul) return {1, std::move(term)};
  int64_t coefficient = 1;
  Expr rest = Expr::constant(1);
  for (Expr &f : term.operands) {
    if (f.is_const()) coefficient *= f.value;
    else rest = mul(std::move(rest), std::move(f));
  }
  return {coefficient, std::move(rest)};
}

// The terms of a sum with like terms combined, constants last.
Expr combine_like_terms(std::vector<Expr> terms) {
  std::vector<std::pair<int64_t, Expr>> combined;
  for (Expr &t : terms) {
    auto [coefficient, rest] = split_coefficient(std::move(t));
    auto same = std::find_if(combined.begin(), combined.end(), [&](auto &c) { return c.second == rest; });
    if (same != combined.end()) same->first += coefficient;
    else combined.emplace_back(coefficient, std::move(rest));
  }
  Expr sum = Expr::constant(0), constant = Expr::constant(0);
  for (auto &[coefficient, rest] : combined) {
    if (rest.is_const()) constant = Expr::constant(constant.value + coefficient * rest.value);
    else sum = add(std::move(sum), mul(Expr::constant(coefficient), std::move(rest)));
  }
  return add(std::move(sum), std::move(constant));
}

// A sum whose operands are simplified: the one min or max among them, if
// only one, takes the others in.
Expr simplify_sum(Expr sum) {
  std::vector<Expr> others;
  Expr *min_max = nullptr;
  size_t count = 0;
  for (Expr &o : sum.operands)
    if (is_min_max(o)) min_max = &o, ++count;
  if (count != 1) return combine_like_terms(std::move(sum.operands));
  Expr taken = std::move(*min_max);
  for (Expr &o : sum.operands)
    if (&o != min_max) others.push_back(std::move(o));
  for (Expr &operand : taken.operands) {
    std::vector<Expr> terms = others;
    terms.push_back(std::move(operand));
    operand = simplify(Expr::nary(Expr::Op::Add, std::move(terms)));
  }
  return taken;
}

}  // namespace

Expr simplify(Expr e) {
  for (Expr &o : e.operands) o = simplify(std::move(o));
  if (e.op != Expr::Op::Add) return e;
  // Flatten sums of sums first, so that every term is seen.
  std::vector<Expr> terms;
  for (Expr &o : e.operands) {
    if (o.op == Expr::Op::Add) terms.insert(terms.end(), o.operands.begin(), o.operands.end());
    else terms.push_back(std::move(o));
  }
  e.operands = std::move(terms);
  return simplify_sum(std::move(e));
}

}  // namespace unicl::access
