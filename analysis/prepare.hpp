// The module as the analysis reads it: every helper function inlined into
// the kernels that call it (so that each access is seen with its kernel's
// arguments), private variables in registers, loops in the canonical form
// ScalarEvolution reads (a preheader, one latch, rotated, one induction
// variable), common subexpressions merged. Nothing that changes which
// bytes an access touches.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace unicl::analysis {

// False when LLVM refuses the pipeline (it never should).
bool prepare(llvm::Module &module);

}  // namespace unicl::analysis
