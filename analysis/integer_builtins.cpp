#include "integer_builtins.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <string>
#include <vector>

#include "builtins.hpp"

namespace unicl::analysis {
namespace {

enum class Lowered { Mad24, Mul24, Min, Max, Clamp };

// What `name` (plain) is, if one of the built-ins lowered here.
std::optional<Lowered> lowered(const std::string &name) {
  if (name == "mad24") return Lowered::Mad24;
  if (name == "mul24") return Lowered::Mul24;
  if (name == "min") return Lowered::Min;
  if (name == "max") return Lowered::Max;
  if (name == "clamp") return Lowered::Clamp;
  return std::nullopt;
}

// Whether the first operand of mangled `name` is an unsigned integer
// (Itanium mangling: h uchar, t ushort, j uint, m ulong); nullopt for any
// other operand (vectors, floating point).
std::optional<bool> unsigned_operand(const std::string &mangled) {
  const std::string plain = plain_name(mangled);
  const size_t at = mangled.find(plain);
  if (mangled.rfind("_Z", 0) != 0 || at == std::string::npos || at + plain.size() >= mangled.size()) return std::nullopt;
  switch (mangled[at + plain.size()]) {
    case 'c': case 'a': case 's': case 'i': case 'l': return false;
    case 'h': case 't': case 'j': case 'm': return true;
    default: return std::nullopt;
  }
}

llvm::Value *lower(llvm::IRBuilder<> &b, Lowered what, bool is_unsigned, llvm::CallInst &c) {
  auto min = [&](llvm::Value *x, llvm::Value *y) {
    return b.CreateBinaryIntrinsic(is_unsigned ? llvm::Intrinsic::umin : llvm::Intrinsic::smin, x, y);
  };
  auto max = [&](llvm::Value *x, llvm::Value *y) {
    return b.CreateBinaryIntrinsic(is_unsigned ? llvm::Intrinsic::umax : llvm::Intrinsic::smax, x, y);
  };
  llvm::Value *x = c.getArgOperand(0), *y = c.getArgOperand(1);
  switch (what) {
    case Lowered::Mad24: return b.CreateAdd(b.CreateMul(x, y), c.getArgOperand(2));
    case Lowered::Mul24: return b.CreateMul(x, y);
    case Lowered::Min: return min(x, y);
    case Lowered::Max: return max(x, y);
    case Lowered::Clamp: return min(max(x, y), c.getArgOperand(2));
  }
  return nullptr;
}

}  // namespace

void lower_integer_builtins(llvm::Module &module) {
  std::vector<std::pair<llvm::CallInst *, std::pair<Lowered, bool>>> calls;
  for (llvm::Function &f : module) {
    if (!f.isDeclaration() || !f.getReturnType()->isIntegerTy()) continue;
    const std::string name = f.getName().str();
    auto what = lowered(plain_name(name));
    auto is_unsigned = unsigned_operand(name);
    const unsigned operands = what == Lowered::Mad24 || what == Lowered::Clamp ? 3 : 2;
    if (!what || !is_unsigned || f.arg_size() != operands) continue;
    for (llvm::User *u : f.users())
      if (auto *c = llvm::dyn_cast<llvm::CallInst>(u); c && c->getCalledFunction() == &f)
        calls.push_back({c, {*what, *is_unsigned}});
  }
  for (auto &[c, how] : calls) {
    llvm::IRBuilder<> b(c);
    c->replaceAllUsesWith(lower(b, how.first, how.second, *c));
    c->eraseFromParent();
  }
}

}  // namespace unicl::analysis
