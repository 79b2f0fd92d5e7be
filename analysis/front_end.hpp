// OpenCL C source to LLVM IR, with Clang's front end as a library: the
// application's source, with the build options that change what it says
// (-D, -U, -I, -cl-std), for a generic 64-bit SPIR target, the built-in
// functions declared (never defined), nothing optimised yet.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace unicl::analysis {

// The options of a clBuildProgram `options` string that the front end
// needs (-D, -U, -I, -cl-std), split into arguments; the others (math
// flags, warnings, -cl-kernel-arg-info) change no address and are left out.
std::vector<std::string> front_end_options(const std::string &options);

// The module of `source`; null when it does not compile, with the
// compiler's messages in `log`.
std::unique_ptr<llvm::Module> compile(const std::string &source, const std::string &options, llvm::LLVMContext &context,
                                      std::string &log);

}  // namespace unicl::analysis
