#include "core/inferred_split.hpp"

#include "access/launch_split.hpp"
#include "core/kernel.hpp"
#include "core/program_analysis.hpp"

namespace unicl {
namespace {

std::vector<access::LaunchArg> launch_args(const _cl_kernel &k) {
  std::vector<access::LaunchArg> out(k.args.size());
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ArgValue &a = k.args[i];
    out[i].value = a.bytes;
    if (a.mem && live(a.mem)) {
      out[i].buffer = a.mem->root();
      out[i].origin = a.mem->root() == a.mem ? 0 : a.mem->origin;
      out[i].size = a.mem->size;
    }
  }
  return out;
}

access::LaunchShape launch_shape(const KernelLaunch &l) {
  access::LaunchShape shape;
  shape.dim = l.dim;
  for (cl_uint i = 0; i < l.dim && i < 3; ++i) {
    shape.offset[i] = l.offset ? l.offset[i] : 0;
    shape.global[i] = l.global[i];
    shape.local[i] = l.local ? l.local[i] : 0;
  }
  return shape;
}

}  // namespace

std::optional<InferredSplit> infer_split(const KernelLaunch &l) {
  UNICL_HOLDS(l.kernel->mutex, "infer_split: caller holds the kernel's mutex (its arguments are read)");
  std::shared_ptr<const access::KernelAccess> analysed = l.kernel->analysed();
  if (!analysed) return std::nullopt;
  access::SplitVerdict verdict = access::split_at_launch(*analysed, launch_shape(l), launch_args(*l.kernel));
  if (!verdict.split) return InferredSplit{std::nullopt, verdict.reason};
  KernelSplit split{verdict.split->dim, {}};
  for (const access::SplitWindow &w : verdict.split->windows) {
    // A window of an image counts its rows; an image kept whole (made from
    // a buffer or an image) cannot take the rows each piece writes.
    _cl_mem *m = w.arg < l.kernel->args.size() ? l.kernel->args[w.arg].mem : nullptr;
    if (m && m->is_image() && !m->row_bytes()) {
      if (analysed->params[w.arg].modes & access::kWrites)
        return InferredSplit{std::nullopt, "writes the image " + analysed->params[w.arg].name +
                                               " by rows, and it is kept whole (an image made from a buffer or an image)"};
      continue;  // read whole
    }
    split.args.push_back({w.arg, w.offset, w.stride, w.size});
  }
  return InferredSplit{std::move(split), {}};
}

}  // namespace unicl
