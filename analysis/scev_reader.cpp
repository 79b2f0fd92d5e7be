#include "scev_reader.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "access/simplify.hpp"
#include "builtins.hpp"

namespace unicl::analysis {

using access::Expr;

ScevReader::ScevReader(llvm::ScalarEvolution &se, const llvm::Function &kernel, std::vector<bool> unsigned_args)
    : se_(se), kernel_(kernel), unsigned_args_(std::move(unsigned_args)) {}

std::optional<Expr> ScevReader::nary(const llvm::SCEV *s, Expr::Op op, uint32_t bits) {
  std::vector<const llvm::SCEV *> in;
  if (const auto *div = llvm::dyn_cast<llvm::SCEVUDivExpr>(s)) in = {div->getLHS(), div->getRHS()};
  else in.assign(llvm::cast<llvm::SCEVNAryExpr>(s)->op_begin(), llvm::cast<llvm::SCEVNAryExpr>(s)->op_end());
  std::vector<Expr> operands;
  for (const llvm::SCEV *o : in) {
    auto e = read(o);
    if (!e) return std::nullopt;
    operands.push_back(std::move(*e));
  }
  if (op == Expr::Op::Add || op == Expr::Op::Mul) {
    Expr folded = Expr::constant(op == Expr::Op::Add ? 0 : 1);
    for (auto &o : operands) folded = op == Expr::Op::Add ? access::add(std::move(folded), std::move(o)) : access::mul(std::move(folded), std::move(o));
    return folded;
  }
  return Expr::nary(op, std::move(operands), bits);
}

std::optional<Expr> ScevReader::read(const llvm::SCEV *s) {
  const uint32_t bits = static_cast<uint32_t>(se_.getTypeSizeInBits(s->getType()));
  switch (s->getSCEVType()) {
    case llvm::scConstant: {
      const llvm::APInt &v = llvm::cast<llvm::SCEVConstant>(s)->getAPInt();
      if (v.getBitWidth() > 64) return std::nullopt;
      return Expr::constant(v.getSExtValue());
    }
    case llvm::scTruncate:
    case llvm::scZeroExtend:
    case llvm::scSignExtend: {
      const auto *cast = llvm::cast<llvm::SCEVCastExpr>(s);
      auto inner = read(cast->getOperand());
      if (!inner) return std::nullopt;
      if (s->getSCEVType() == llvm::scTruncate) return Expr::cast(Expr::Op::Trunc, bits, std::move(*inner));
      const uint32_t from = static_cast<uint32_t>(se_.getTypeSizeInBits(cast->getOperand()->getType()));
      return Expr::cast(s->getSCEVType() == llvm::scSignExtend ? Expr::Op::SExt : Expr::Op::ZExt, from, std::move(*inner));
    }
    case llvm::scAddExpr: return nary(s, Expr::Op::Add, bits);
    case llvm::scMulExpr: return nary(s, Expr::Op::Mul, bits);
    case llvm::scUDivExpr: return nary(s, Expr::Op::UDiv, bits);
    case llvm::scSMaxExpr: return nary(s, Expr::Op::SMax, bits);
    case llvm::scUMaxExpr: return nary(s, Expr::Op::UMax, bits);
    case llvm::scSMinExpr: return nary(s, Expr::Op::SMin, bits);
    case llvm::scUMinExpr:
    case llvm::scSequentialUMinExpr: return nary(s, Expr::Op::UMin, bits);
    case llvm::scAddRecExpr: return add_recurrence(s);
    case llvm::scUnknown: return unknown(llvm::cast<llvm::SCEVUnknown>(s)->getValue());
    default: return std::nullopt;  // pointer-to-integer, could-not-compute
  }
}

std::optional<Expr> ScevReader::add_recurrence(const llvm::SCEV *s) {
  const auto *rec = llvm::cast<llvm::SCEVAddRecExpr>(s);
  if (!rec->isAffine()) return std::nullopt;
  auto start = read(rec->getStart());
  auto step = read(rec->getStepRecurrence(se_));
  auto index = loop_index(rec->getLoop());
  if (!start || !step || !index) return std::nullopt;
  return access::add(std::move(*start), access::mul(std::move(*step), Expr::loop(*index)));
}

std::optional<uint32_t> ScevReader::loop_index(const llvm::Loop *loop) {
  if (auto found = loops_.find(loop); found != loops_.end()) return found->second;
  // The loops its count may name are numbered first (the count of a loop
  // names only loops before it).
  if (loop->getParentLoop() && !loop_index(loop->getParentLoop())) return std::nullopt;
  const llvm::SCEV *count = se_.getBackedgeTakenCount(loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(count)) count = se_.getSymbolicMaxBackedgeTakenCount(loop);
  std::optional<Expr> read_count;
  if (!llvm::isa<llvm::SCEVCouldNotCompute>(count)) read_count = read(count);
  if (read_count) read_count = access::simplify(std::move(*read_count));
  if (auto found = loops_.find(loop); found != loops_.end()) return found->second;  // numbered while reading it
  uint32_t index = static_cast<uint32_t>(counts_.size());
  loops_[loop] = index;
  counts_.push_back(std::move(read_count));
  return index;
}

std::optional<Expr> ScevReader::unknown(const llvm::Value *v) {
  const llvm::DataLayout &layout = kernel_.getParent()->getDataLayout();
  auto width = [&](const llvm::Type *t) { return static_cast<uint32_t>(layout.getTypeStoreSize(const_cast<llvm::Type *>(t))); };
  if (const auto *arg = llvm::dyn_cast<llvm::Argument>(v); arg && arg->getParent() == &kernel_ && arg->getType()->isIntegerTy()) {
    uint32_t i = arg->getArgNo();
    return Expr::arg(i, 0, width(arg->getType()), !(i < unsigned_args_.size() && unsigned_args_[i]));
  }
  // A lane of a vector argument (int4 dims: dims.y).
  if (const auto *lane = llvm::dyn_cast<llvm::ExtractElementInst>(v)) {
    const auto *arg = llvm::dyn_cast<llvm::Argument>(lane->getVectorOperand());
    const auto *at = llvm::dyn_cast<llvm::ConstantInt>(lane->getIndexOperand());
    if (arg && at && arg->getParent() == &kernel_ && lane->getType()->isIntegerTy()) {
      uint32_t i = arg->getArgNo(), w = width(lane->getType());
      return Expr::arg(i, static_cast<uint32_t>(at->getZExtValue()) * w, w, !(i < unsigned_args_.size() && unsigned_args_[i]));
    }
  }
  // A field of a struct argument, passed by value.
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(v); load && load->getType()->isIntegerTy()) {
    int64_t offset = 0;
    const llvm::Value *base = llvm::GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset, layout);
    const auto *arg = llvm::dyn_cast<llvm::Argument>(base);
    if (arg && arg->getParent() == &kernel_ && arg->hasByValAttr() && offset >= 0)
      return Expr::arg(arg->getArgNo(), static_cast<uint32_t>(offset), width(load->getType()), true);
  }
  // A work-item function of a constant dimension.
  if (const auto *call = llvm::dyn_cast<llvm::CallInst>(v); call && call->getCalledFunction() && call->arg_size() == 1) {
    auto b = builtin(plain_name(call->getCalledFunction()->getName().str()));
    const auto *dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    if (b && b->kind == Builtin::Kind::WorkItem && dim && dim->getZExtValue() < 3)
      return Expr::work_item(b->item, static_cast<uint32_t>(dim->getZExtValue()));
  }
  return std::nullopt;
}

}  // namespace unicl::analysis
