// An expression rewritten so that its bounds over a launch are tighter,
// its value unchanged: a sum holding a min or a max is taken into it
// (x + min(a, b) = min(x + a, x + b)) and like terms are combined
// (3*g + -1*g = 2*g). Evaluation bounds each occurrence of a name on its
// own, so the count of OpenCV's row loop, `min(g + 1, rows) - g - 1`,
// ranges over the whole launch's rows unless g cancels first; after this
// it is `min(0, rows - 1 - g)`: at most 0, whatever g. Exact over the
// integers; where the kernel computed in fewer bits (the min's width),
// evaluation still checks each new operand fits, so a value that would
// not only fails to bound.
#pragma once
#include "access/expr.hpp"

namespace unicl::access {

Expr simplify(Expr e);

}  // namespace unicl::access
