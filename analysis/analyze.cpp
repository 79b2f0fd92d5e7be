#include "analyze.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include "front_end.hpp"
#include "kernel_reader.hpp"
#include "prepare.hpp"

namespace unicl::analysis {

Analysis analyze(const std::string &source, const std::string &options) {
  Analysis out;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = compile(source, options, context, out.log);
  if (!module || !prepare(*module)) return out;
  out.compiled = true;
  llvm::FunctionAnalysisManager fam;
  llvm::PassBuilder builder;
  builder.registerFunctionAnalyses(fam);
  for (llvm::Function &f : *module) {
    if (f.isDeclaration() || f.getCallingConv() != llvm::CallingConv::SPIR_KERNEL) continue;
    out.kernels.push_back(read_kernel(f, fam.getResult<llvm::ScalarEvolutionAnalysis>(f), fam.getResult<llvm::LoopAnalysis>(f),
                                      fam.getResult<llvm::DominatorTreeAnalysis>(f)));
  }
  return out;
}

}  // namespace unicl::analysis
