// The checks the specification gives the rectangular buffer transfers
// (clEnqueue{Read,Write,Copy}BufferRect), made by UniCL: in a context of
// several devices a command reaches a vendor only once planned, too late
// to refuse it, and a vendor given a region past a buffer's end may read
// or write out of bounds rather than refuse.
#pragma once
#include <CL/cl.h>

namespace unicl::api {

// One side of a transfer: its origin and pitches (0: the default).
struct RectSide {
  const size_t *origin;
  size_t row_pitch, slice_pitch;
};

// CL_SUCCESS, or CL_INVALID_VALUE: a null origin or region, a region with a
// zero extent, a pitch smaller than the region's row or slice, a slice
// pitch not a multiple of its row pitch; or, with `bytes` (a buffer's
// size; 0 for host memory, unbounded), a region reaching past its end.
cl_int check_rect(const RectSide &side, const size_t *region, size_t bytes);

}  // namespace unicl::api
