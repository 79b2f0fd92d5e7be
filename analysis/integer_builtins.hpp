// OpenCL C's integer built-ins that compute an index, as the instructions
// they stand for, so that ScalarEvolution reads through them: mad24 and
// mul24 (a * b + c, a * b: what they give for the operands they are
// defined for; the analysis then checks at each launch that the values
// fit their type), min, max and clamp (signed or unsigned by their
// mangled operand type). Image kernels and libraries written for many
// devices (OpenCV's) index this way: unread, their result is an unknown
// and no access through it can be bounded.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace unicl::analysis {

// Replaces the calls of scalar integer operands; vector forms stay calls.
void lower_integer_builtins(llvm::Module &module);

}  // namespace unicl::analysis
