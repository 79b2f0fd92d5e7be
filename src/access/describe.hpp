// A kernel's verdict for people (UNICL_LOG=2, `unicl analyze`): the
// dimension its launches split along and each argument's window there, or
// the reason it runs whole. Windows are written as the bytes index i along
// that dimension touches, `i*STRIDE + OFFSET` (+ SIZE bytes), with the
// loop indices they name (k0, k1, ...) and their ranges.
#pragma once
#include <optional>
#include <string>

#include "access/kernel_access.hpp"

namespace unicl::access {

// Why no launch of `k` could split along `dim`, whatever its values (a
// write the analysis could not bound, one not linear in the index, ...);
// nullopt when some launch could (its values decide the rest).
std::optional<std::string> static_reason(const KernelAccess &k, uint32_t dim);

std::string describe(const KernelAccess &k);

}  // namespace unicl::access
