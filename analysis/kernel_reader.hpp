// One kernel of a prepared module (prepare.hpp) as the analysis sees it:
// its parameters, every access to global or constant memory with the
// argument it goes through and its byte offset from it (ScevReader), and
// what keeps the kernel from being split (access/kernel_access.hpp), each
// reason naming the first thing in the kernel that gave it.
#pragma once

#include "access/kernel_access.hpp"

namespace llvm {
class DominatorTree;
class Function;
class LoopInfo;
class ScalarEvolution;
}  // namespace llvm

namespace unicl::analysis {

access::KernelAccess read_kernel(llvm::Function &kernel, llvm::ScalarEvolution &se, llvm::LoopInfo &loops,
                                 llvm::DominatorTree &dominators);

}  // namespace unicl::analysis
