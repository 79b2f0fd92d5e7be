#include "prepare.hpp"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include "integer_builtins.hpp"

namespace unicl::analysis {

// The passes, as LLVM's textual pipeline: inlining first (a kernel may call
// helpers, and other kernels), then per function the cleanups SCEV needs.
constexpr const char *kPipeline =
    "always-inline,"
    "function(sroa,early-cse<memssa>,instcombine,simplifycfg,loop-simplify,lcssa,loop(loop-rotate,indvars),"
    "early-cse,simplifycfg)";

bool prepare(llvm::Module &module) {
  lower_integer_builtins(module);
  for (llvm::Function &f : module) {
    if (f.isDeclaration()) continue;
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (auto err = builder.parsePassPipeline(passes, kPipeline)) {
    llvm::consumeError(std::move(err));
    return false;
  }
  passes.run(module, mam);
  return true;
}

}  // namespace unicl::analysis
