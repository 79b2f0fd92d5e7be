// What the specification makes a command's call check, checked by rank 0
// from what it knows of the command's objects (objects.hpp). A
// node's vendor is not asked before the call returns (commands are posted),
// so these errors come from here, as they would from a local vendor; what
// only the vendor can know fails the command's event instead.
#pragma once
#include "cluster/client/objects.hpp"

namespace unicl::cluster {

// A read (`reads`) or write of `m`'s bytes from the host that its host
// access flags forbid: CL_INVALID_OPERATION.
cl_int host_access_error(RemoteMemory *m, bool reads);
// A map of `m` with `flags`: unknown or contradictory flags are
// CL_INVALID_VALUE, a map its host access flags forbid CL_INVALID_OPERATION.
cl_int map_flags_error(RemoteMemory *m, cl_map_flags flags);
// Bytes [offset, offset + size) of buffer `m`: none (size 0) or past its
// end is CL_INVALID_VALUE.
cl_int range_error(RemoteMemory *m, size_t offset, size_t size);
// A fill of `m`'s bytes [offset, offset + size) with a pattern.
cl_int fill_error(RemoteMemory *m, const void *pattern, size_t pattern_size, size_t offset, size_t size);
// Copies whose source and destination overlap in one buffer (or in two
// sub-buffers of one): CL_MEM_COPY_OVERLAP.
cl_int copy_overlap_error(RemoteMemory *src, size_t src_offset, RemoteMemory *dst, size_t dst_offset, size_t size);

// A rectangle of a buffer (or of host memory, `size` 0: unbounded): its
// origin and region, pitches as given (0: packed).
struct Rect {
  const size_t *origin;
  const size_t *region;
  size_t row_pitch, slice_pitch;
};
// The pitches the specification makes of 0, or false when the given ones
// are too small or the slice pitch is not a multiple of the row pitch.
bool resolve_pitches(const Rect &r, size_t &row, size_t &slice);
// A rectangle of buffer `m` (null: of host memory): CL_INVALID_VALUE for
// null origin or region, an empty region, pitches below the region's, or a
// rectangle reaching past the buffer's end.
cl_int rect_error(RemoteMemory *m, const Rect &r);
cl_int rect_overlap_error(RemoteMemory *src, const Rect &s, RemoteMemory *dst, const Rect &d);

// Copies between images of different formats: CL_IMAGE_FORMAT_MISMATCH.
cl_int format_mismatch_error(RemoteMemory *src, RemoteMemory *dst);

}  // namespace unicl::cluster
