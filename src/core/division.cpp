#include "core/division.hpp"

namespace unicl {
namespace {

// Per thread: the divided launch whose divide function this thread runs.
thread_local DivisionRecord *innermost = nullptr;

}  // namespace

DivisionScope::DivisionScope(DivisionRecord &record) : previous_(innermost) { innermost = &record; }

DivisionScope::~DivisionScope() { innermost = previous_; }

DivisionRecord *DivisionScope::current() { return innermost; }

}  // namespace unicl
