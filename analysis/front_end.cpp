#include "front_end.hpp"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#ifndef UNICL_CLANG_RESOURCE_DIR
#error "UNICL_CLANG_RESOURCE_DIR: Clang's resource folder (opencl-c-base.h), set by the build"
#endif

namespace unicl::analysis {
namespace {

// The words of an options string, as a build splits them: on blanks,
// with quotes grouping ("-D NAME=\"a b\"").
std::vector<std::string> words(const std::string &text) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(word);
  return out;
}

constexpr const char *kSourceName = "program.cl";

}  // namespace

std::vector<std::string> front_end_options(const std::string &options) {
  std::vector<std::string> in = words(options), out;
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string &w = in[i];
    for (const char *flag : {"-D", "-U", "-I"}) {
      if (w.rfind(flag, 0) != 0) continue;
      if (w.size() > 2) out.push_back(w);                           // -DNAME=1
      else if (i + 1 < in.size()) out.push_back(w + in[++i]);      // -D NAME=1
    }
    if (w.rfind("-cl-std=", 0) == 0) out.push_back(w);
  }
  return out;
}

std::unique_ptr<llvm::Module> compile(const std::string &source, const std::string &options, llvm::LLVMContext &context,
                                      std::string &log) {
  std::vector<std::string> args = {"-triple", "spir64-unknown-unknown", "-x", "cl", "-cl-std=CL1.2",
                                   "-fdeclare-opencl-builtins", "-finclude-default-header", "-cl-kernel-arg-info",
                                   // Optimised code generation (no optnone), its passes left to prepare().
                                   "-O2", "-disable-llvm-passes", "-w", "-resource-dir", UNICL_CLANG_RESOURCE_DIR};
  for (auto &o : front_end_options(options)) args.push_back(o);  // a later -cl-std wins
  args.push_back(kSourceName);
  std::vector<const char *> argv;
  for (auto &a : args) argv.push_back(a.c_str());

  llvm::raw_string_ostream messages(log);
  clang::CompilerInstance ci;
  auto diagnostic_options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  ci.createDiagnostics(new clang::TextDiagnosticPrinter(messages, diagnostic_options.get()), true);
  if (!clang::CompilerInvocation::CreateFromArgs(ci.getInvocation(), argv, ci.getDiagnostics())) return nullptr;
  ci.getPreprocessorOpts().addRemappedFile(kSourceName, llvm::MemoryBuffer::getMemBufferCopy(source, kSourceName).release());
  clang::EmitLLVMOnlyAction action(&context);
  if (!ci.ExecuteAction(action)) return nullptr;
  return action.takeModule();
}

}  // namespace unicl::analysis
