#include "access/expr.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace unicl::access {
namespace {

// The text names of the work-item functions, in WorkItem order: the short
// one of the S-expressions and the OpenCL C one.
constexpr const char *kShortNames[kWorkItemCount] = {"gid", "lid", "grp", "gsz", "lsz", "ngr", "goff", "elsz"};
constexpr const char *kLongNames[kWorkItemCount] = {
    "get_global_id", "get_local_id",      "get_group_id",        "get_global_size",
    "get_local_size", "get_num_groups",   "get_global_offset",   "get_enqueued_local_size"};

struct OpName {
  Expr::Op op;
  const char *text;
};
// The operators with operands, as the S-expressions name them.
constexpr OpName kOps[] = {{Expr::Op::Add, "+"},       {Expr::Op::Mul, "*"},       {Expr::Op::SMax, "smax"},
                           {Expr::Op::UMax, "umax"},   {Expr::Op::SMin, "smin"},   {Expr::Op::UMin, "umin"},
                           {Expr::Op::UDiv, "/u"},     {Expr::Op::SExt, "sext"},   {Expr::Op::ZExt, "zext"},
                           {Expr::Op::Trunc, "trunc"}};

const char *op_text(Expr::Op op) {
  for (auto &o : kOps)
    if (o.op == op) return o.text;
  return "?";
}

bool has_bits(Expr::Op op) { return op != Expr::Op::Add && op != Expr::Op::Mul; }

void write(const Expr &e, std::string &out) {
  switch (e.op) {
    case Expr::Op::Const: out += std::to_string(e.value); return;
    case Expr::Op::Arg:
      out += "(arg " + std::to_string(e.index) + ' ' + std::to_string(e.offset) + ' ' + std::to_string(e.width) +
             (e.is_signed ? " s)" : " u)");
      return;
    case Expr::Op::WorkItem:
      out += std::string("(") + kShortNames[static_cast<int>(e.item)] + ' ' + std::to_string(e.dim) + ')';
      return;
    case Expr::Op::Loop: out += "(loop " + std::to_string(e.index) + ')'; return;
    default:
      out += '(';
      out += op_text(e.op);
      if (has_bits(e.op)) out += ' ' + std::to_string(e.bits);
      for (auto &o : e.operands) {
        out += ' ';
        write(o, out);
      }
      out += ')';
  }
}

// A reader of S-expressions over `text`.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  std::optional<Expr> expr() {
    skip();
    if (at_ >= text_.size()) return std::nullopt;
    if (text_[at_] != '(') {
      int64_t v = 0;
      if (!number(v)) return std::nullopt;
      return Expr::constant(v);
    }
    ++at_;
    std::string head = word();
    std::optional<Expr> made = head == "arg" ? arg() : head == "loop" ? loop() : work_item_or_op(head);
    skip();
    if (!made || at_ >= text_.size() || text_[at_] != ')') return std::nullopt;
    ++at_;
    return made;
  }
  bool done() {
    skip();
    return at_ == text_.size();
  }

 private:
  void skip() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  std::string word() {
    skip();
    size_t start = at_;
    while (at_ < text_.size() && text_[at_] != ' ' && text_[at_] != '(' && text_[at_] != ')') ++at_;
    return std::string(text_.substr(start, at_ - start));
  }
  template <class T>
  bool number(T &out) {
    std::string w = word();
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), out);
    return !w.empty() && ec == std::errc() && end == w.data() + w.size();
  }
  std::optional<Expr> arg() {
    uint32_t index = 0, offset = 0, width = 0;
    if (!number(index) || !number(offset) || !number(width)) return std::nullopt;
    std::string sign = word();
    if (sign != "s" && sign != "u") return std::nullopt;
    return Expr::arg(index, offset, width, sign == "s");
  }
  std::optional<Expr> loop() {
    uint32_t index = 0;
    if (!number(index)) return std::nullopt;
    return Expr::loop(index);
  }
  std::optional<Expr> work_item_or_op(const std::string &head) {
    for (int w = 0; w < kWorkItemCount; ++w)
      if (head == kShortNames[w]) {
        uint32_t dim = 0;
        if (!number(dim) || dim > 2) return std::nullopt;
        return Expr::work_item(static_cast<WorkItem>(w), dim);
      }
    const OpName *op = std::find_if(std::begin(kOps), std::end(kOps), [&](const OpName &o) { return head == o.text; });
    if (op == std::end(kOps)) return std::nullopt;
    Expr e;
    e.op = op->op;
    if (has_bits(e.op) && (!number(e.bits) || e.bits == 0 || e.bits > 64)) return std::nullopt;
    for (skip(); at_ < text_.size() && text_[at_] != ')'; skip()) {
      auto operand = expr();
      if (!operand) return std::nullopt;
      e.operands.push_back(std::move(*operand));
    }
    bool unary = e.op == Expr::Op::SExt || e.op == Expr::Op::ZExt || e.op == Expr::Op::Trunc;
    if (unary ? e.operands.size() != 1 : e.op == Expr::Op::UDiv ? e.operands.size() != 2 : e.operands.empty())
      return std::nullopt;
    return e;
  }

  std::string_view text_;
  size_t at_ = 0;
};

// Magnitudes past which evaluation gives up: far beyond any address, and
// far from __int128's own limits, so that one product of two never wraps.
constexpr Wide kLimit = Wide(1) << 100;

bool sane(const Interval &i) { return i.lo <= i.hi && i.lo > -kLimit && i.hi < kLimit; }

// The range of a `bits`-bit integer: signed or unsigned.
Wide min_signed(uint32_t bits) { return -(Wide(1) << (bits - 1)); }
Wide max_signed(uint32_t bits) { return (Wide(1) << (bits - 1)) - 1; }
Wide max_unsigned(uint32_t bits) { return (Wide(1) << bits) - 1; }

bool fits_signed(const Interval &i, uint32_t bits) { return i.lo >= min_signed(bits) && i.hi <= max_signed(bits); }
bool fits_unsigned(const Interval &i, uint32_t bits) { return i.lo >= 0 && i.hi <= max_unsigned(bits); }

// The integer an argument's bytes hold.
std::optional<Wide> arg_value(const Expr &e, const LaunchBox &box) {
  if (e.index >= box.args.size()) return std::nullopt;
  auto bytes = box.args[e.index];
  if (e.width == 0 || e.width > 8 || bytes.size() < size_t{e.offset} + e.width) return std::nullopt;
  uint64_t raw = 0;
  std::memcpy(&raw, bytes.data() + e.offset, e.width);  // little-endian hosts and devices
  if (e.width < 8 && e.is_signed && (raw >> (8 * e.width - 1)) & 1) raw |= ~uint64_t{0} << (8 * e.width);
  return e.is_signed ? Wide(static_cast<int64_t>(raw)) : Wide(raw);
}

std::optional<Interval> eval_nary(const Expr &e, const LaunchBox &box) {
  std::vector<Interval> in;
  for (auto &o : e.operands) {
    auto v = eval(o, box);
    if (!v) return std::nullopt;
    in.push_back(*v);
  }
  Interval r = in.front();
  auto each = [&](auto combine) {
    for (size_t i = 1; i < in.size(); ++i) r = combine(r, in[i]);
  };
  switch (e.op) {
    case Expr::Op::Add: each([](Interval a, Interval b) { return Interval{a.lo + b.lo, a.hi + b.hi}; }); break;
    case Expr::Op::Mul:
      each([](Interval a, Interval b) {
        Wide c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return Interval{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
      });
      break;
    case Expr::Op::SMax:
    case Expr::Op::SMin:
    case Expr::Op::UMax:
    case Expr::Op::UMin: {
      bool is_unsigned = e.op == Expr::Op::UMax || e.op == Expr::Op::UMin;
      for (auto &i : in)
        if (is_unsigned ? !fits_unsigned(i, e.bits) : !fits_signed(i, e.bits)) return std::nullopt;
      bool is_max = e.op == Expr::Op::SMax || e.op == Expr::Op::UMax;
      each([is_max](Interval a, Interval b) {
        return is_max ? Interval{std::max(a.lo, b.lo), std::max(a.hi, b.hi)}
                      : Interval{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
      });
      break;
    }
    case Expr::Op::UDiv:
      if (!fits_unsigned(in[0], e.bits) || !fits_unsigned(in[1], e.bits) || in[1].lo == 0) return std::nullopt;
      r = {in[0].lo / in[1].hi, in[0].hi / in[1].lo};
      break;
    case Expr::Op::SExt:
      if (!fits_signed(r, e.bits)) return std::nullopt;
      break;
    case Expr::Op::ZExt:
      if (!fits_unsigned(r, e.bits)) return std::nullopt;
      break;
    case Expr::Op::Trunc:
      // The value must survive in `bits` bits read either way; the
      // conversion that reads it (or the address) checks which.
      if (r.lo < min_signed(e.bits) || r.hi > max_unsigned(e.bits)) return std::nullopt;
      break;
    default: return std::nullopt;
  }
  if (!sane(r)) return std::nullopt;
  return r;
}

void readable(const Expr &e, std::span<const std::string> names, std::string &out, int outer);

// Precedence for parentheses: sums bind loosest.
constexpr int kSum = 1, kProduct = 2;

void readable_list(const Expr &e, std::span<const std::string> names, std::string &out, const char *sep, int prec,
                   int outer) {
  if (outer > prec) out += '(';
  for (size_t i = 0; i < e.operands.size(); ++i) {
    if (i) out += sep;
    readable(e.operands[i], names, out, prec + (prec == kSum ? 0 : 1));
  }
  if (outer > prec) out += ')';
}

void readable(const Expr &e, std::span<const std::string> names, std::string &out, int outer) {
  switch (e.op) {
    case Expr::Op::Const: out += std::to_string(e.value); return;
    case Expr::Op::Arg:
      out += e.index < names.size() && !names[e.index].empty() ? names[e.index] : "arg" + std::to_string(e.index);
      if (e.offset) out += "@" + std::to_string(e.offset);
      return;
    case Expr::Op::WorkItem:
      out += std::string(kLongNames[static_cast<int>(e.item)]) + "(" + std::to_string(e.dim) + ")";
      return;
    case Expr::Op::Loop: out += "k" + std::to_string(e.index); return;
    case Expr::Op::Add: readable_list(e, names, out, " + ", kSum, outer); return;
    case Expr::Op::Mul: readable_list(e, names, out, "*", kProduct, outer); return;
    case Expr::Op::SExt:
    case Expr::Op::ZExt:
    case Expr::Op::Trunc: readable(e.operands[0], names, out, outer); return;  // values, not their widths
    default:
      out += e.op == Expr::Op::UDiv ? "div" : op_text(e.op) + 1;  // "max", "min" for either sign
      out += '(';
      for (size_t i = 0; i < e.operands.size(); ++i) {
        if (i) out += ", ";
        readable(e.operands[i], names, out, 0);
      }
      out += ')';
  }
}

}  // namespace

const char *work_item_name(WorkItem w) { return kLongNames[static_cast<int>(w)]; }

Expr Expr::constant(int64_t v) {
  Expr e;
  e.value = v;
  return e;
}

Expr Expr::arg(uint32_t index, uint32_t offset, uint32_t width, bool is_signed) {
  Expr e;
  e.op = Op::Arg;
  e.index = index;
  e.offset = offset;
  e.width = width;
  e.is_signed = is_signed;
  return e;
}

Expr Expr::work_item(WorkItem w, uint32_t dim) {
  Expr e;
  e.op = Op::WorkItem;
  e.item = w;
  e.dim = dim;
  return e;
}

Expr Expr::loop(uint32_t index) {
  Expr e;
  e.op = Op::Loop;
  e.index = index;
  return e;
}

Expr Expr::nary(Op op, std::vector<Expr> operands, uint32_t bits) {
  Expr e;
  e.op = op;
  e.bits = bits;
  e.operands = std::move(operands);
  return e;
}

Expr Expr::cast(Op op, uint32_t bits, Expr operand) { return nary(op, {std::move(operand)}, bits); }

bool Expr::names(WorkItem w, int d) const {
  if (op == Op::WorkItem && item == w && (d < 0 || dim == static_cast<uint32_t>(d))) return true;
  return std::any_of(operands.begin(), operands.end(), [&](const Expr &o) { return o.names(w, d); });
}

bool Expr::names_loop(int loop) const {
  if (op == Op::Loop && (loop < 0 || index == static_cast<uint32_t>(loop))) return true;
  return std::any_of(operands.begin(), operands.end(), [&](const Expr &o) { return o.names_loop(loop); });
}

Expr add(Expr a, Expr b) {
  if (a.is_const() && a.value == 0) return b;
  if (b.is_const() && b.value == 0) return a;
  if (a.is_const() && b.is_const()) return Expr::constant(a.value + b.value);
  std::vector<Expr> terms;
  for (Expr *x : {&a, &b}) {
    if (x->op == Expr::Op::Add) terms.insert(terms.end(), x->operands.begin(), x->operands.end());
    else terms.push_back(std::move(*x));
  }
  return Expr::nary(Expr::Op::Add, std::move(terms));
}

Expr mul(Expr a, Expr b) {
  if ((a.is_const() && a.value == 0) || (b.is_const() && b.value == 0)) return Expr::constant(0);
  if (a.is_const() && a.value == 1) return b;
  if (b.is_const() && b.value == 1) return a;
  if (a.is_const() && b.is_const()) return Expr::constant(a.value * b.value);
  std::vector<Expr> factors;
  for (Expr *x : {&a, &b}) {
    if (x->op == Expr::Op::Mul) factors.insert(factors.end(), x->operands.begin(), x->operands.end());
    else factors.push_back(std::move(*x));
  }
  return Expr::nary(Expr::Op::Mul, std::move(factors));
}

std::string to_text(const Expr &e) {
  std::string out;
  write(e, out);
  return out;
}

std::optional<Expr> parse_expr(std::string_view text) {
  Reader r(text);
  auto e = r.expr();
  if (!e || !r.done()) return std::nullopt;
  return e;
}

std::string to_readable(const Expr &e, std::span<const std::string> arg_names) {
  std::string out;
  readable(e, arg_names, out, 0);
  return out;
}

std::optional<Interval> eval(const Expr &e, const LaunchBox &box) {
  switch (e.op) {
    case Expr::Op::Const: return Interval{e.value, e.value};
    case Expr::Op::Arg: {
      auto v = arg_value(e, box);
      if (!v) return std::nullopt;
      return Interval{*v, *v};
    }
    case Expr::Op::WorkItem:
      if (e.dim > 2) return std::nullopt;
      return box.work_items[static_cast<int>(e.item)][e.dim];
    case Expr::Op::Loop:
      if (e.index >= box.loops.size()) return std::nullopt;
      return box.loops[e.index];
    default: return eval_nary(e, box);
  }
}

std::optional<Linear> linear_in(const Expr &e, WorkItem w, uint32_t dim) {
  if (e.op == Expr::Op::WorkItem && e.item == w && e.dim == dim) return Linear{Expr::constant(1), Expr::constant(0)};
  if (!e.names(w, static_cast<int>(dim))) return Linear{Expr::constant(0), e};
  switch (e.op) {
    case Expr::Op::SExt:
    case Expr::Op::ZExt:
    case Expr::Op::Trunc: return linear_in(e.operands[0], w, dim);
    case Expr::Op::Add: {
      Linear sum{Expr::constant(0), Expr::constant(0)};
      for (auto &o : e.operands) {
        auto part = linear_in(o, w, dim);
        if (!part) return std::nullopt;
        sum.coefficient = add(std::move(sum.coefficient), std::move(part->coefficient));
        sum.rest = add(std::move(sum.rest), std::move(part->rest));
      }
      return sum;
    }
    case Expr::Op::Mul: {
      // One factor may name x; the product of the others scales it.
      Linear product{Expr::constant(0), Expr::constant(1)};
      bool named = false;
      for (auto &o : e.operands) {
        auto part = linear_in(o, w, dim);
        if (!part) return std::nullopt;
        bool names_x = !(part->coefficient.is_const() && part->coefficient.value == 0);
        if (names_x && named) return std::nullopt;  // x times x
        if (names_x) {
          product.coefficient = mul(product.rest, std::move(part->coefficient));
          product.rest = mul(std::move(product.rest), std::move(part->rest));
          named = true;
        } else {
          product.coefficient = mul(std::move(product.coefficient), part->rest);
          product.rest = mul(std::move(product.rest), std::move(part->rest));
        }
      }
      return product;
    }
    default: return std::nullopt;
  }
}

}  // namespace unicl::access
