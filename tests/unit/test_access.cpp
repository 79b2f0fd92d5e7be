// What a kernel touches, as data (src/access): expressions of a launch and
// their ranges, the text the analyser writes, and the verdict at a launch.
// No compiler here: kernels are written out as the analyser would.
#include <catch2/catch.hpp>

#include <cstring>

#include "access/describe.hpp"
#include "access/launch_split.hpp"
#include "access/simplify.hpp"

using namespace unicl::access;

namespace {

Expr gid(uint32_t d) { return Expr::work_item(WorkItem::GlobalId, d); }
Expr c(int64_t v) { return Expr::constant(v); }
Expr arg_i32(uint32_t i) { return Expr::arg(i, 0, 4, true); }
// (int)get_global_id(d), as an OpenCL C `int i = get_global_id(d)` computes it.
Expr int_gid(uint32_t d) { return Expr::cast(Expr::Op::Trunc, 32, gid(d)); }
Expr widen(Expr e) { return Expr::cast(Expr::Op::SExt, 32, std::move(e)); }

std::vector<std::byte> bytes_of(int32_t v) {
  std::vector<std::byte> b(4);
  std::memcpy(b.data(), &v, 4);
  return b;
}

LaunchBox box_1d(uint64_t global, uint64_t offset = 0) {
  KernelAccess none;
  LaunchShape shape;
  shape.global[0] = global;
  shape.offset[0] = offset;
  return launch_box(none, shape, {});
}

// c[i] = a[i] + b[i] over floats: the analyser's view of vadd.
KernelAccess vadd() {
  KernelAccess k;
  k.name = "vadd";
  k.params = {{Param::Kind::Global, "a", kReads}, {Param::Kind::Global, "b", kReads},
              {Param::Kind::Global, "c", kWrites}, {Param::Kind::Scalar, "n", kNone}};
  Expr at = mul(c(4), widen(int_gid(0)));
  k.accesses = {{0, kReads, at, c(4)}, {1, kReads, at, c(4)}, {2, kWrites, at, c(4)}};
  return k;
}

struct Buffers {
  int a, b, out;
};

}  // namespace

TEST_CASE("expressions evaluate to ranges over a launch", "[unit][access]") {
  LaunchBox box = box_1d(1000, 24);
  auto r = eval(add(mul(c(4), gid(0)), c(8)), box);
  REQUIRE(r);
  CHECK(r->lo == 4 * 24 + 8);
  CHECK(r->hi == 4 * 1023 + 8);
  const auto minus_three = bytes_of(-3);
  box.args = {minus_three};
  r = eval(mul(arg_i32(0), gid(0)), box);
  REQUIRE(r);
  CHECK(r->lo == -3 * 1023);
  CHECK(r->hi == -3 * 24);
}

TEST_CASE("a value that does not fit where the kernel computed it is no value", "[unit][access]") {
  // (int)(get_global_id(0) * n) at n = 2^20 and 4096 work-items wraps.
  LaunchBox box = box_1d(4096);
  const auto large = bytes_of(1 << 20), small = bytes_of(1 << 10);
  box.args = {large};
  Expr index = widen(Expr::cast(Expr::Op::Trunc, 32, mul(gid(0), Expr::arg(0, 0, 4, true))));
  CHECK_FALSE(eval(index, box));
  box.args = {small};
  CHECK(eval(index, box));
  // zext of a negative value: an unsigned index that wrapped.
  CHECK_FALSE(eval(Expr::cast(Expr::Op::ZExt, 32, add(gid(0), c(-1))), box_1d(10)));
}

TEST_CASE("an expression is split into its step along an index and the rest", "[unit][access]") {
  // 4 * (int)(x + y * n): along y, step 4n, rest 4x.
  Expr e = mul(c(4), widen(add(int_gid(0), mul(int_gid(1), arg_i32(0)))));
  auto l = linear_in(e, WorkItem::GlobalId, 1);
  REQUIRE(l);
  CHECK(l->coefficient == mul(c(4), arg_i32(0)));
  CHECK(l->rest == mul(c(4), int_gid(0)));  // conversions off x's path stay, for eval to check
  CHECK_FALSE(linear_in(mul(gid(0), gid(0)), WorkItem::GlobalId, 0));
  auto none = linear_in(arg_i32(0), WorkItem::GlobalId, 0);
  REQUIRE(none);
  CHECK(none->coefficient == c(0));
}

TEST_CASE("the text form reads back what it wrote", "[unit][access]") {
  KernelAccess k = vadd();
  k.loop_counts = {add(c(-1), arg_i32(3)), std::nullopt};
  k.accesses.push_back({0, kReads, std::nullopt, c(4)});
  k.dim_reasons[1] = "calls get_group_id(1), which a piece would see as its own";
  k.work_group_use = "barrier";
  k.params.push_back({Param::Kind::Image2D, "picture", kWrites});
  auto back = parse_kernels(to_text({k}));
  REQUIRE(back);
  REQUIRE(back->size() == 1);
  CHECK(to_text(*back) == to_text({k}));
  CHECK(back->front().params.back().kind == Param::Kind::Image2D);
  CHECK_FALSE(parse_kernels("kernel x\nparam global r a\n"));      // no end
  CHECK_FALSE(parse_kernels("kernel x\naccess 0 q 4 | 0\nend\n"));  // no such mode
  CHECK_FALSE(parse_expr("(+ 1"));
  CHECK_FALSE(parse_expr("(gid 7)"));
}

TEST_CASE("a launch splits with the windows its values give", "[unit][access]") {
  KernelAccess k = vadd();
  int32_t n = 1000;
  Buffers buffers{};
  std::vector<LaunchArg> args(4);
  args[0].buffer = &buffers.a, args[1].buffer = &buffers.b, args[2].buffer = &buffers.out;
  for (int i = 0; i < 3; ++i) args[i].size = 4000;
  args[3].value = std::as_bytes(std::span(&n, 1));
  LaunchShape shape;
  shape.global[0] = 1000;
  auto v = split_at_launch(k, shape, args);
  REQUIRE(v.split);
  CHECK(v.split->dim == 0);
  REQUIRE(v.split->windows.size() == 3);
  for (auto &w : v.split->windows) {
    CHECK(w.offset == 0);
    CHECK(w.stride == 4);
    CHECK(w.size == 4);
  }
}

TEST_CASE("a launch whose written argument is another argument's memory runs whole", "[unit][access]") {
  KernelAccess k = vadd();
  int32_t n = 1000;
  Buffers buffers{};
  std::vector<LaunchArg> args(4);
  args[0].buffer = &buffers.a, args[1].buffer = &buffers.b, args[2].buffer = &buffers.a;  // c is a
  for (int i = 0; i < 3; ++i) args[i].size = 4000;
  args[3].value = std::as_bytes(std::span(&n, 1));
  LaunchShape shape;
  shape.global[0] = 1000;
  auto v = split_at_launch(k, shape, args);
  CHECK_FALSE(v.split);
  CHECK_THAT(v.reason, Catch::Contains("same memory"));
  // Disjoint sub-buffers of one buffer are not the same memory.
  args[2].origin = 4096;
  CHECK(split_at_launch(k, shape, args).split);
}

TEST_CASE("windows that overlap between indices keep a launch whole", "[unit][access]") {
  // out[i * s] = 0 over floats: disjoint while s >= 1, not at s = 0.
  KernelAccess k;
  k.name = "strided";
  k.params = {{Param::Kind::Global, "out", kWrites}, {Param::Kind::Scalar, "s", kNone}};
  k.accesses = {{0, kWrites, mul(c(4), widen(mul(int_gid(0), arg_i32(1)))), c(8)}};  // 8 bytes each
  int buffer = 0;
  int32_t s = 2;
  std::vector<LaunchArg> args(2);
  args[0].buffer = &buffer;
  args[0].size = 1 << 20;
  args[1].value = std::as_bytes(std::span(&s, 1));
  LaunchShape shape;
  shape.global[0] = 100;
  CHECK(split_at_launch(k, shape, args).split);  // 8 bytes every 8
  s = 1;
  auto v = split_at_launch(k, shape, args);  // 8 bytes every 4
  CHECK_FALSE(v.split);
  CHECK_THAT(v.reason, Catch::Contains("overlap"));
}

TEST_CASE("a guard narrows the rows a launch rounded up to whole work-groups touches", "[unit][access]") {
  // if (x < cols) out[y * w + x] = 0, x = (int)get_global_id(0), y along 1:
  // a row holds w = cols floats; the launch's 64 columns pass cols = 50.
  KernelAccess k;
  k.name = "guarded";
  k.params = {{Param::Kind::Global, "out", kWrites}, {Param::Kind::Scalar, "w", kNone}, {Param::Kind::Scalar, "cols", kNone}};
  Expr at = mul(c(4), widen(add(mul(widen(int_gid(1)), arg_i32(1)), widen(int_gid(0)))));
  k.accesses = {{0, kWrites, at, c(4)}};
  int buffer = 0;
  int32_t w = 50, cols = 50;
  std::vector<LaunchArg> args(3);
  args[0].buffer = &buffer;
  args[0].size = 1 << 20;
  args[1].value = std::as_bytes(std::span(&w, 1));
  args[2].value = std::as_bytes(std::span(&cols, 1));
  LaunchShape shape;
  shape.dim = 2;
  shape.global[0] = 64, shape.global[1] = 16;
  // Unguarded, a row's 64 floats overlap the next row's 50.
  auto v = split_at_launch(k, shape, args);
  CHECK_FALSE(v.split);
  CHECK_THAT(v.reason, Catch::Contains("overlap"));
  k.accesses[0].guards = {{int_gid(0), arg_i32(2), 32, true}};
  v = split_at_launch(k, shape, args);
  REQUIRE(v.split);
  CHECK(v.split->dim == 1);
  REQUIRE(v.split->windows.size() == 1);
  CHECK(v.split->windows[0].stride == 200);
  CHECK(v.split->windows[0].size == 200);
  // A guard no work-item passes: the access is made by none.
  cols = -1;
  v = split_at_launch(k, shape, args);
  REQUIRE(v.split);
  CHECK(v.split->windows.empty());
  // A limit the comparison's type cannot hold tells nothing.
  k.accesses[0].guards[0].bits = 8;
  cols = 300;
  CHECK_FALSE(split_at_launch(k, shape, args).split);
  // The text form keeps guards.
  auto back = parse_kernels(to_text({k}));
  REQUIRE(back);
  CHECK(to_text(*back) == to_text({k}));
  CHECK((*back)[0].accesses[0].guards == k.accesses[0].guards);
  CHECK_FALSE(parse_kernels("kernel x\nguard 32 s (gid 0) | 4\nend\n"));  // no access before it
}

TEST_CASE("a sum holding a min is taken into it and like terms cancel", "[unit][access]") {
  // OpenCV's rows loop: min(y0 + 4, rows) - y0 - 1 iterations past the
  // first, y0 = 4 * get_global_id(1).
  Expr y0 = mul(c(4), gid(1));
  Expr count = add(add(c(-1), mul(c(-1), y0)), Expr::nary(Expr::Op::SMin, {add(c(4), y0), arg_i32(0)}, 32));
  LaunchShape shape;
  shape.dim = 2;
  shape.global[0] = 8, shape.global[1] = 100;
  int32_t rows = 398;
  std::vector<std::byte> value = bytes_of(rows);
  std::vector<LaunchArg> args(1);
  args[0].value = value;
  KernelAccess none;
  LaunchBox box = launch_box(none, shape, args);
  auto before = eval(count, box);
  REQUIRE(before);
  CHECK(before->hi > 300);  // each occurrence of y0 bounded on its own
  Expr simple = simplify(count);
  auto after = eval(simple, box);
  REQUIRE(after);
  CHECK(after->hi == 3);
  CHECK(after->lo == -4 * 99 + 398 - 1);
  CHECK(to_readable(simple) == "min(3, -4*get_global_id(1) + arg0 + -1)");
}

TEST_CASE("a kernel that depends on its work-group size splits only with one given", "[unit][access]") {
  KernelAccess k = vadd();
  k.work_group_use = "barrier";
  int32_t n = 1000;
  Buffers buffers{};
  std::vector<LaunchArg> args(4);
  args[0].buffer = &buffers.a, args[1].buffer = &buffers.b, args[2].buffer = &buffers.out;
  for (int i = 0; i < 3; ++i) args[i].size = 4000;
  args[3].value = std::as_bytes(std::span(&n, 1));
  LaunchShape shape;
  shape.global[0] = 1024;
  CHECK_FALSE(split_at_launch(k, shape, args).split);
  shape.local[0] = 64;
  CHECK(split_at_launch(k, shape, args).split);
}

TEST_CASE("two analyses of a kernel merge what either touches", "[unit][access]") {
  KernelAccess gpu = vadd(), cpu = vadd();
  gpu.accesses.pop_back();  // this build writes nothing
  gpu.params[2].modes = kNone;
  cpu.loop_counts = {c(3)};
  cpu.accesses[2].offset = add(*cpu.accesses[2].offset, mul(c(4), Expr::loop(0)));
  gpu.loop_counts = {c(7)};
  auto both = merge(gpu, cpu);
  REQUIRE(both);
  CHECK(both->params[2].modes == kWrites);
  CHECK(both->accesses.size() == 5);
  REQUIRE(both->loop_counts.size() == 2);
  CHECK(both->accesses.back().offset->names_loop(1));  // the second build's loop 0, renumbered
  KernelAccess other = vadd();
  other.params.pop_back();
  CHECK_FALSE(merge(gpu, other));
}

TEST_CASE("the verdict for people names the dimension and the windows, or why not", "[unit][access]") {
  std::string text = describe(vadd());
  CHECK_THAT(text, Catch::Contains("splits along dimension 0"));
  CHECK_THAT(text, Catch::Contains("c (written): i*4, 4 bytes"));
  KernelAccess atomics = vadd();
  atomics.whole_reason = "atomics on global memory (atomic_add)";
  CHECK_THAT(describe(atomics), Catch::Contains("runs whole: atomics on global memory"));
}
