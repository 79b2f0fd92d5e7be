// Integer expressions over what a kernel launch fixes: the kernel's scalar
// arguments, the work-item functions (get_global_id(d), get_local_size(d),
// ...) and the iteration index of each loop. The kernel analysis (analysis/)
// writes each memory access's byte offset as one; at a launch UniCL
// evaluates it over the launch's values (eval), as an interval: a point
// for what the launch fixes, a range for what varies between work-items
// (another dimension's global id, a loop's iteration).
//
// Values are mathematical integers. Where the kernel computed in fewer bits
// (an `int` index), the expression keeps the conversion (sext, zext,
// trunc), and evaluation fails when a value it converts does not fit the
// narrower type at that launch: wrapped arithmetic then does not compute
// the expression's value, so nothing inferred from it holds. Operations
// that are not ring operations (max, min, division) carry their width and
// fail the same way, since wrapping before them changes their result.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace unicl::access {

// The work-item functions whose value a launch fixes (per dimension).
enum class WorkItem : uint8_t {
  GlobalId,           // get_global_id
  LocalId,            // get_local_id
  GroupId,            // get_group_id
  GlobalSize,         // get_global_size
  LocalSize,          // get_local_size
  NumGroups,          // get_num_groups
  GlobalOffset,       // get_global_offset
  EnqueuedLocalSize,  // get_enqueued_local_size
};
inline constexpr int kWorkItemCount = 8;
// The OpenCL C name of `w` ("get_global_id").
const char *work_item_name(WorkItem w);

using Wide = __int128;

struct Expr {
  enum class Op : uint8_t {
    Const,     // value
    Arg,       // bytes [offset, offset + width) of kernel argument `index`, read as an integer
    WorkItem,  // work-item function `item` of dimension `dim`
    Loop,      // the iteration index of loop `index` (0 .. its count)
    Add,
    Mul,
    SMax,
    UMax,
    SMin,
    UMin,
    UDiv,      // operands[0] / operands[1], unsigned
    SExt,      // operands[0], computed in `bits` bits, sign-extended
    ZExt,      // operands[0], computed in `bits` bits, zero-extended
    Trunc,     // operands[0] truncated to `bits` bits
  };
  Op op = Op::Const;
  int64_t value = 0;         // Const
  uint32_t index = 0;        // Arg: the argument; Loop: the loop
  uint32_t offset = 0;       // Arg: byte offset in the argument's value (a struct's field, a vector's lane)
  uint32_t width = 0;        // Arg: bytes read
  bool is_signed = false;    // Arg: the bytes are a signed integer
  WorkItem item = WorkItem::GlobalId;
  uint32_t dim = 0;          // WorkItem: the dimension
  uint32_t bits = 64;        // casts, max, min, division: the width they compute in
  std::vector<Expr> operands;

  static Expr constant(int64_t v);
  static Expr arg(uint32_t index, uint32_t offset, uint32_t width, bool is_signed);
  static Expr work_item(WorkItem w, uint32_t dim);
  static Expr loop(uint32_t index);
  static Expr nary(Op op, std::vector<Expr> operands, uint32_t bits = 64);
  static Expr cast(Op op, uint32_t bits, Expr operand);

  bool is_const() const { return op == Op::Const; }
  bool operator==(const Expr &) const = default;
  // Whether the expression names work-item function `w` of dimension `dim`
  // (any dimension when `dim` is negative), or loop `loop` (any loop: -1).
  bool names(WorkItem w, int dim = -1) const;
  bool names_loop(int loop = -1) const;
};

// A + B, A * B with constants folded and zeros dropped.
Expr add(Expr a, Expr b);
Expr mul(Expr a, Expr b);

// The S-expression form of an expression (`(+ (* 4 (gid 0)) 8)`), and back.
// to_text(parse(t)) == t for every text to_text wrote.
std::string to_text(const Expr &e);
std::optional<Expr> parse_expr(std::string_view text);
// A form for people: `4*get_global_id(0) + 8`, arguments by their names.
std::string to_readable(const Expr &e, std::span<const std::string> arg_names = {});

struct Interval {
  Wide lo = 0, hi = 0;
  bool point() const { return lo == hi; }
};

// The values a launch gives the names of an expression.
struct LaunchBox {
  // Kernel argument values as set (empty: not a value UniCL can read).
  std::vector<std::span<const std::byte>> args;
  // Per work-item function and dimension: its range over the launch (a
  // point for the sizes and offsets it fixes).
  Interval work_items[kWorkItemCount][3];
  // Per loop: the range of its iteration index (nullopt: unbounded).
  std::vector<std::optional<Interval>> loops;
};

// The range of `e` over `box`; nullopt when it cannot be bounded (an
// argument UniCL cannot read, a value that does not fit where the kernel
// computed it, a division by a range holding 0, magnitudes beyond 2^100).
std::optional<Interval> eval(const Expr &e, const LaunchBox &box);

// `e` as A * x + R, x the work-item function `w` of dimension `dim`, A and
// R not naming x; nullopt when `e` is not of that form (x under a max or
// a division, x times x). Conversions between widths are left out: eval
// of `e` itself says whether they hold at a launch.
struct Linear {
  Expr coefficient, rest;
};
std::optional<Linear> linear_in(const Expr &e, WorkItem w, uint32_t dim);

}  // namespace unicl::access
