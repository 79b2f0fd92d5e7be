// What one kernel touches, as the kernel analysis (analysis/) found it in
// the kernel's source: per argument, its kind and whether the kernel reads
// or writes through it; every access to global or constant memory, with
// its byte offset from the argument as an expression of the launch
// (access/expr.hpp); and what keeps the kernel from being split, along
// every dimension or along one. Plain data, written as text by the
// analyser process and read back by UniCL (to_text / parse_kernels).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "access/expr.hpp"

namespace unicl::access {

// Modes of access, as bits.
enum Mode : uint8_t { kNone = 0, kReads = 1, kWrites = 2 };

struct Param {
  // Image2D: an image2d_t, whose accesses' offsets and sizes count rows,
  // not bytes (a write's row coordinate; reads are unbounded: a sampler
  // may read any pixel). Other: the other images, samplers, pipes, events.
  enum class Kind : uint8_t { Global, Constant, Local, Scalar, Other, Image2D };
  Kind kind = Kind::Other;
  std::string name;
  uint8_t modes = kNone;  // pointers: what the kernel does through it
  bool is_pointer() const { return kind == Kind::Global || kind == Kind::Constant || kind == Kind::Local; }
};

// A condition every work-item that makes an access has met: `value` <
// `limit`, compared as `bits`-bit integers, signed or not (the kernel's
// `if (x < cols)` around it, or the `return` it passed). At a launch it
// narrows the range of the global id `value` grows with: a launch's
// global size is rounded up to whole work-groups, and the work-items past
// the data touch nothing.
struct Guard {
  Expr value, limit;
  uint32_t bits = 32;
  bool is_signed = true;
  bool operator==(const Guard &) const = default;
};

// One access to global or constant memory (or a 2-D image) through a
// kernel argument.
struct MemoryAccess {
  uint32_t arg = 0;
  uint8_t modes = kReads;
  // Byte offset from the argument's address and bytes accessed there (rows
  // of a 2-D image), as expressions of the launch; no offset: the analysis
  // could not bound it.
  std::optional<Expr> offset;
  Expr size = Expr::constant(0);
  std::vector<Guard> guards;
};

struct KernelAccess {
  std::string name;
  std::vector<Param> params;
  std::vector<MemoryAccess> accesses;
  // Per loop, the largest value of its iteration index (its back-edge
  // count; nullopt: unbounded), in the loops' order: a loop's count may
  // name only loops before it.
  std::vector<std::optional<Expr>> loop_counts;
  // Why no launch of the kernel may be split (empty: some may), and why
  // none along dimension d may be.
  std::string whole_reason;
  std::array<std::string, 3> dim_reasons;
  // What makes the kernel's results depend on its work-group size
  // (barriers, local memory, get_local_id, ...); empty when nothing does.
  // A launch that leaves the work-group size to the device runs whole
  // then: a piece might get another size.
  std::string work_group_use;
};

// What one kernel touches in either of two analyses of it (its source built
// with different macros, as different devices build it): every access of
// both, the first reasons of each kind; nullopt when their parameters
// differ (then they are not one kernel to split).
std::optional<KernelAccess> merge(const KernelAccess &a, const KernelAccess &b);

// The text form: one block per kernel.
//   kernel NAME
//   param global|constant|local|scalar|other|image2d -|r|w|rw NAME
//   loop EXPR|unbounded
//   access ARG r|w|rw SIZE | OFFSET|unbounded
//   guard BITS s|u VALUE | LIMIT        (of the access above)
//   whole REASON
//   dim D REASON
//   groups WHAT
//   end
std::string to_text(const std::vector<KernelAccess> &kernels);
// Nullopt when the text is not what to_text writes.
std::optional<std::vector<KernelAccess>> parse_kernels(const std::string &text);

}  // namespace unicl::access
