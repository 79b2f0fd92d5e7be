// The OpenCL C built-in functions a kernel calls, by what they mean to the
// analysis: the work-item functions (values a launch fixes), the ones that
// read or write memory through a pointer (vload/vstore, atomics, async
// copies), and the ones that tie work-items of a work-group together
// (barriers, work-group functions). Calls are named as the front end
// mangles them (`_Z13get_global_idj`); builtin() reads the plain name.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "access/expr.hpp"

namespace unicl::analysis {

// The plain name of a function as the front end mangles an overloadable
// builtin (`get_global_id` for `_Z13get_global_idj`); the name itself when
// it is not mangled.
std::string plain_name(std::string_view mangled);

struct Builtin {
  enum class Kind {
    WorkItem,       // `item` below
    LinearId,       // get_global_linear_id: every dimension's offset and size
    WorkGroupOnly,  // get_local_linear_id, get_sub_group_*, work_group_*, sub_group_*, barrier, wait_group_events
    VectorLoad,     // vloadN, vload_halfN, vloada_halfN: (offset, pointer)
    VectorStore,    // vstoreN, vstore_halfN[_rte..], vstorea_halfN: (data, offset, pointer)
    Atomic,         // atomic_*, atom_*: through the first argument
    AsyncCopy,      // async_work_group_copy / _strided_copy: (dst, src, count[, stride], event)
    ImageRead,      // read_image{f,i,ui,h}: (image, [sampler,] coordinates)
    ImageWrite,     // write_image{f,i,ui,h}: (image, coordinates, [lod,] colour)
    NoMemory,       // math, conversions, printf, fences, prefetch, get_work_dim, get_image_* ...: no memory a kernel argument holds
  };
  Kind kind = Kind::NoMemory;
  access::WorkItem item = access::WorkItem::GlobalId;
  unsigned lanes = 1;  // vload/vstore: elements per call (vload3: 3)
  bool half = false;   // vload_half / vstore_half: elements are halves in memory
};

// What the function named `plain` (plain_name) is; nullopt for a function
// the analysis does not know (then a pointer passed to it is accessed in
// ways nothing bounds).
std::optional<Builtin> builtin(const std::string &plain);

}  // namespace unicl::analysis
