#include "kernel_reader.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

#include "builtins.hpp"
#include "scev_reader.hpp"

namespace unicl::analysis {
namespace {

using access::Expr;
using access::KernelAccess;
using access::Param;

// SPIR's address spaces.
enum AddressSpace : unsigned { kPrivate = 0, kGlobal = 1, kConstant = 2, kLocal = 3, kGeneric = 4 };

// The strings of the kernel's argument metadata `name` (kernel_arg_type,
// kernel_arg_name, ...), one per argument; empty when absent.
std::vector<std::string> arg_metadata(const llvm::Function &f, const char *name) {
  std::vector<std::string> out;
  if (const llvm::MDNode *node = f.getMetadata(name))
    for (const llvm::MDOperand &op : node->operands())
      out.push_back(op ? llvm::cast<llvm::MDString>(op.get())->getString().str() : "");
  out.resize(f.arg_size());
  return out;
}

bool is_unsigned_type(const std::string &type) {
  return type.rfind("u", 0) == 0 || type.rfind("unsigned", 0) == 0 || type.rfind("size_t", 0) == 0;
}

std::vector<Param> params_of(const llvm::Function &f) {
  auto types = arg_metadata(f, "kernel_arg_type"), names = arg_metadata(f, "kernel_arg_name");
  std::vector<Param> out;
  for (const llvm::Argument &a : f.args()) {
    Param p;
    unsigned i = a.getArgNo();
    p.name = names[i].empty() ? "arg" + std::to_string(i) : names[i];
    const std::string &type = types[i];
    bool opaque = type.find("image") != std::string::npos || type == "sampler_t" || type.rfind("pipe", 0) == 0 ||
                  type == "queue_t" || type == "clk_event_t";
    if (type == "image2d_t") p.kind = Param::Kind::Image2D;
    else if (opaque) p.kind = Param::Kind::Other;
    else if (!a.getType()->isPointerTy() || a.hasByValAttr()) p.kind = Param::Kind::Scalar;
    else if (a.getType()->getPointerAddressSpace() == kGlobal) p.kind = Param::Kind::Global;
    else if (a.getType()->getPointerAddressSpace() == kConstant) p.kind = Param::Kind::Constant;
    else if (a.getType()->getPointerAddressSpace() == kLocal) p.kind = Param::Kind::Local;
    out.push_back(std::move(p));
  }
  return out;
}

class KernelReader {
 public:
  KernelReader(llvm::Function &f, llvm::ScalarEvolution &se, llvm::LoopInfo &loops, llvm::DominatorTree &dominators)
      : f_(f), se_(se), loops_(loops), dominators_(dominators), layout_(f.getParent()->getDataLayout()),
        reader_(se, f, unsigned_args(f)) {
    k_.name = f.getName().str();
    k_.params = params_of(f);
  }

  KernelAccess read() {
    for (llvm::Instruction &i : llvm::instructions(f_)) visit(i);
    k_.loop_counts = reader_.loop_counts();
    return std::move(k_);
  }

 private:
  static std::vector<bool> unsigned_args(const llvm::Function &f) {
    std::vector<bool> out;
    for (auto &t : arg_metadata(f, "kernel_arg_type")) out.push_back(is_unsigned_type(t));
    return out;
  }

  void whole(const std::string &why) {
    if (k_.whole_reason.empty()) k_.whole_reason = why;
  }
  void work_group(const std::string &what) {
    if (k_.work_group_use.empty()) k_.work_group_use = what;
  }
  Expr bytes(const llvm::Type *t) { return Expr::constant(static_cast<int64_t>(layout_.getTypeStoreSize(const_cast<llvm::Type *>(t)))); }

  void visit(llvm::Instruction &i) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      record(i, load->getPointerOperand(), se_.getSCEV(load->getPointerOperand()), bytes(load->getType()), access::kReads);
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      escapes(store->getValueOperand());
      record(i, store->getPointerOperand(), se_.getSCEV(store->getPointerOperand()),
             bytes(store->getValueOperand()->getType()), access::kWrites);
    } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
      atomic(i, rmw->getPointerOperand(), "an atomic instruction");
    } else if (auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
      atomic(i, cmpxchg->getPointerOperand(), "an atomic instruction");
    } else if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i)) {
      this->call(*call);
    }
  }

  // A pointer to a kernel argument's memory stored in memory: whatever
  // reads it back accesses bytes the analysis does not follow.
  void escapes(const llvm::Value *v) {
    if (!v->getType()->isPointerTy()) return;
    if (const auto *arg = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(v));
        arg && arg->getParent() == &f_ && k_.params[arg->getArgNo()].kind != Param::Kind::Scalar)
      whole("stores a pointer to " + k_.params[arg->getArgNo()].name + " in memory");
  }

  // An atomic read-modify-write: local ones tie a work-group together;
  // global ones make every work-item's result depend on all others'.
  void atomic(llvm::Instruction &i, const llvm::Value *ptr, const std::string &what) {
    unsigned space = ptr->getType()->getPointerAddressSpace();
    if (space == kLocal) return work_group("atomics on local memory");
    if (space == kPrivate) return;
    whole("atomics on global memory (" + what + ")");
    record(i, ptr, nullptr, Expr::constant(0), access::kReads | access::kWrites);
  }

  void call(llvm::CallInst &c) {
    llvm::Function *callee = c.getCalledFunction();
    if (auto *mem = llvm::dyn_cast<llvm::MemIntrinsic>(&c)) return memory_intrinsic(c, *mem);
    if (callee && callee->isIntrinsic()) return;  // lifetime markers, fmuladd, ...: no memory of the kernel's
    std::string name = callee ? plain_name(callee->getName().str()) : "an indirect call";
    auto b = callee && callee->isDeclaration() ? builtin(name) : std::nullopt;
    if (!b) return unknown_call(c, name);
    switch (b->kind) {
      case Builtin::Kind::WorkItem: return work_item(c, b->item);
      case Builtin::Kind::LinearId: return whole("calls get_global_linear_id, whose value depends on every dimension's offset and size");
      case Builtin::Kind::WorkGroupOnly: return work_group(name);
      case Builtin::Kind::VectorLoad: return vector_access(c, *b, c.getArgOperand(0), c.getArgOperand(1), c.getType(), access::kReads);
      case Builtin::Kind::VectorStore:
        return vector_access(c, *b, c.getArgOperand(1), c.getArgOperand(2), c.getArgOperand(0)->getType(), access::kWrites);
      case Builtin::Kind::Atomic: return atomic(c, c.getArgOperand(0), name);
      case Builtin::Kind::AsyncCopy: return async_copy(c, name);
      case Builtin::Kind::ImageRead: return image_access(c, access::kReads);
      case Builtin::Kind::ImageWrite: return image_access(c, access::kWrites);
      case Builtin::Kind::NoMemory: return;
    }
  }

  void work_item(llvm::CallInst &c, access::WorkItem item) {
    using access::WorkItem;
    const std::string name = access::work_item_name(item);
    if (item != WorkItem::GlobalId && item != WorkItem::GlobalSize && item != WorkItem::GlobalOffset) work_group(name);
    // What a piece of a split launch sees as its own along its dimension.
    const bool piece_sees_its_own = item == WorkItem::GroupId || item == WorkItem::NumGroups || item == WorkItem::GlobalSize ||
                                    item == WorkItem::GlobalOffset || item == WorkItem::EnqueuedLocalSize;
    if (!piece_sees_its_own) return;
    const auto *dim = llvm::dyn_cast<llvm::ConstantInt>(c.getArgOperand(0));
    if (!dim) return whole("calls " + name + " with a dimension that is not a constant");
    uint64_t d = dim->getZExtValue();
    if (d < 3 && k_.dim_reasons[d].empty())
      k_.dim_reasons[d] = "calls " + name + "(" + std::to_string(d) + "), which a piece of the launch would see as its own";
  }

  // vloadN(offset, p) reads N elements at p + offset * N; vstoreN(data,
  // offset, p) writes them.
  void vector_access(llvm::CallInst &c, const Builtin &b, llvm::Value *offset, llvm::Value *ptr, llvm::Type *data,
                     uint8_t modes) {
    const uint64_t element = b.half ? 2 : layout_.getTypeStoreSize(data->getScalarType());
    const uint64_t span = element * b.lanes;
    const llvm::SCEV *at = se_.getAddExpr(
        se_.getSCEV(ptr), se_.getMulExpr(se_.getTruncateOrSignExtend(se_.getSCEV(offset), se_.getEffectiveSCEVType(ptr->getType())),
                                         se_.getConstant(se_.getEffectiveSCEVType(ptr->getType()), span)));
    record(c, ptr, at, Expr::constant(static_cast<int64_t>(span)), modes);
  }

  // async_work_group_copy(dst, src, ...): the global side is read or
  // written at bytes the analysis does not bound, and the copy is the
  // work-group's.
  void async_copy(llvm::CallInst &c, const std::string &name) {
    work_group(name);
    for (unsigned i = 0; i < 2; ++i) {
      llvm::Value *ptr = c.getArgOperand(i);
      if (ptr->getType()->getPointerAddressSpace() != kLocal)
        record(c, ptr, nullptr, Expr::constant(0), i == 0 ? access::kWrites : access::kReads);
    }
  }

  // read_image* and write_image* on a 2-D image argument, whose offsets
  // count rows: a write covers one pixel of the row its coordinates' y
  // names; a read is unbounded (a sampler may clamp or wrap anywhere).
  // Other images are one object, never cut in windows.
  void image_access(llvm::CallInst &c, uint8_t modes) {
    const auto *arg = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(c.getArgOperand(0)));
    if (!arg || arg->getParent() != &f_) return whole("uses an image that is not one of its arguments");
    Param &p = k_.params[arg->getArgNo()];
    if (p.kind != Param::Kind::Image2D) return whole("uses the image " + p.name + ", which is not a 2-D image");
    access::MemoryAccess a;
    a.arg = arg->getArgNo();
    a.modes = modes;
    a.size = Expr::constant(1);
    if (modes & access::kWrites)
      if (llvm::Value *row = llvm::findScalarElement(c.getArgOperand(1), 1); row && row->getType()->isIntegerTy())
        a.offset = reader_.read(se_.getSCEV(row));
    if (a.offset) a.guards = guards_of(c);
    p.modes |= modes;
    k_.accesses.push_back(std::move(a));
  }

  void memory_intrinsic(llvm::CallInst &c, llvm::MemIntrinsic &mem) {
    auto length = reader_.read(se_.getSCEV(mem.getLength()));
    Expr size = length ? *length : Expr::constant(0);
    if (auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(&mem))
      record(c, transfer->getSource(), length ? se_.getSCEV(transfer->getSource()) : nullptr, size, access::kReads);
    record(c, mem.getDest(), length ? se_.getSCEV(mem.getDest()) : nullptr, size, access::kWrites);
  }

  // A function the analysis does not know, given pointers to a kernel
  // argument's memory: it may read and write anywhere through them.
  void unknown_call(llvm::CallInst &c, const std::string &name) {
    for (llvm::Value *operand : c.args())
      if (operand->getType()->isPointerTy() && operand->getType()->getPointerAddressSpace() != kPrivate)
        record(c, operand, nullptr, Expr::constant(0), access::kReads | access::kWrites, "passes memory to " + name);
  }

  // An access at `ptr` (address `at`, null: unbounded) of `size` bytes.
  void record(llvm::Instruction &i, const llvm::Value *ptr, const llvm::SCEV *at, Expr size, uint8_t modes,
              const std::string &unbounded_why = "") {
    unsigned space = ptr->getType()->getPointerAddressSpace();
    if (space == kLocal) return work_group("local memory");
    if (space == kPrivate) return;
    llvm::SmallVector<const llvm::Value *, 4> objects;
    llvm::getUnderlyingObjects(ptr, objects, &loops_);
    std::vector<const llvm::Argument *> args;
    for (const llvm::Value *o : objects) {
      if (const auto *arg = llvm::dyn_cast<llvm::Argument>(o); arg && arg->getParent() == &f_) {
        unsigned arg_space = arg->getType()->isPointerTy() ? arg->getType()->getPointerAddressSpace() : kPrivate;
        if (arg_space == kLocal) work_group("local memory");
        else if (!arg->hasByValAttr()) args.push_back(arg);
      } else if (const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(o)) {
        if (global->getAddressSpace() == kLocal) work_group("local memory");
        else if ((modes & access::kWrites) && !global->isConstant()) whole("writes the program-scope variable " + global->getName().str());
      } else if (!llvm::isa<llvm::AllocaInst>(o)) {
        whole("accesses memory through a pointer not taken from an argument");
      }
    }
    for (const llvm::Argument *arg : args) {
      const Param &p = k_.params[arg->getArgNo()];
      if (p.kind == Param::Kind::Other || p.kind == Param::Kind::Image2D) {  // an image or a pipe, handed to a function
        whole("uses the image or pipe " + p.name);                            // the analysis does not know
        continue;
      }
      if (!unbounded_why.empty() && (modes & access::kWrites)) whole(unbounded_why);
      access::MemoryAccess a;
      a.arg = arg->getArgNo();
      a.modes = modes;
      a.size = size;
      if (at && args.size() == 1) a.offset = offset_from(i, at, arg);
      if (a.offset) a.guards = guards_of(i);
      k_.params[a.arg].modes |= modes;
      k_.accesses.push_back(std::move(a));
    }
  }

  // The conditions every work-item that runs `i` has met: those of the
  // conditional branches whose taken edge dominates its block, as guards
  // `value < limit` whose value names a global id.
  std::vector<access::Guard> guards_of(const llvm::Instruction &i) {
    std::vector<access::Guard> out;
    const llvm::BasicBlock *at = i.getParent();
    for (auto *node = dominators_.getNode(at); node && node->getIDom(); node = node->getIDom()) {
      const llvm::BasicBlock *above = node->getIDom()->getBlock();
      const auto *branch = llvm::dyn_cast<llvm::BranchInst>(above->getTerminator());
      if (!branch || !branch->isConditional()) continue;
      for (unsigned s = 0; s < 2; ++s)
        if (dominators_.dominates(llvm::BasicBlockEdge(above, branch->getSuccessor(s)), at))
          condition(branch->getCondition(), s == 0, out);
    }
    return out;
  }

  // What `c` being `truth` says, as guards: both sides of a logical and
  // that holds (of an or that fails), a comparison of integers as `<`.
  void condition(const llvm::Value *c, bool truth, std::vector<access::Guard> &out) {
    using namespace llvm::PatternMatch;
    const llvm::Value *x = nullptr, *y = nullptr;
    if ((truth && match(c, m_LogicalAnd(m_Value(x), m_Value(y)))) || (!truth && match(c, m_LogicalOr(m_Value(x), m_Value(y))))) {
      condition(x, truth, out);
      return condition(y, truth, out);
    }
    const auto *compare = llvm::dyn_cast<llvm::ICmpInst>(c);
    if (!compare || !compare->getOperand(0)->getType()->isIntegerTy()) return;
    auto predicate = truth ? compare->getPredicate() : compare->getInversePredicate();
    const llvm::Value *lhs = compare->getOperand(0), *rhs = compare->getOperand(1);
    if (llvm::ICmpInst::isGT(predicate) || llvm::ICmpInst::isGE(predicate)) {
      std::swap(lhs, rhs);
      predicate = llvm::ICmpInst::getSwappedPredicate(predicate);
    }
    if (!llvm::ICmpInst::isLT(predicate) && !llvm::ICmpInst::isLE(predicate)) return;  // == and !=
    auto value = reader_.read(se_.getSCEV(const_cast<llvm::Value *>(lhs)));
    auto limit = reader_.read(se_.getSCEV(const_cast<llvm::Value *>(rhs)));
    if (!value || !limit || !value->names(access::WorkItem::GlobalId)) return;
    if (llvm::ICmpInst::isLE(predicate)) limit = access::add(std::move(*limit), Expr::constant(1));
    out.push_back({std::move(*value), std::move(*limit), lhs->getType()->getIntegerBitWidth(),
                   llvm::ICmpInst::isSigned(predicate)});
  }

  // The byte offset of address `at` from argument `arg`, where the access
  // `i` is.
  std::optional<Expr> offset_from(llvm::Instruction &i, const llvm::SCEV *at, const llvm::Argument *arg) {
    const llvm::SCEV *scoped = se_.getSCEVAtScope(at, loops_.getLoopFor(i.getParent()));
    const llvm::SCEV *base = se_.getPointerBase(scoped);
    const auto *unknown = llvm::dyn_cast<llvm::SCEVUnknown>(base);
    if (!unknown || unknown->getValue()->stripPointerCasts() != arg) return std::nullopt;
    const llvm::SCEV *offset = se_.getMinusSCEV(scoped, base);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(offset)) return std::nullopt;
    return reader_.read(offset);
  }

  llvm::Function &f_;
  llvm::ScalarEvolution &se_;
  llvm::LoopInfo &loops_;
  llvm::DominatorTree &dominators_;
  const llvm::DataLayout &layout_;
  ScevReader reader_;
  KernelAccess k_;
};

}  // namespace

KernelAccess read_kernel(llvm::Function &kernel, llvm::ScalarEvolution &se, llvm::LoopInfo &loops,
                         llvm::DominatorTree &dominators) {
  return KernelReader(kernel, se, loops, dominators).read();
}

}  // namespace unicl::analysis
