#include "api/rect_checks.hpp"

namespace unicl::api {

cl_int check_rect(const RectSide &side, const size_t *region, size_t bytes) {
  if (!side.origin || !region || region[0] == 0 || region[1] == 0 || region[2] == 0) return CL_INVALID_VALUE;
  if (side.row_pitch != 0 && side.row_pitch < region[0]) return CL_INVALID_VALUE;
  const unsigned __int128 row = side.row_pitch ? side.row_pitch : region[0];
  if (side.slice_pitch != 0 && (side.slice_pitch < row * region[1] || side.slice_pitch % row != 0)) return CL_INVALID_VALUE;
  const unsigned __int128 slice = side.slice_pitch ? side.slice_pitch : row * region[1];
  if (bytes == 0) return CL_SUCCESS;
  // The last byte of the region, past its origin: computed wide, so that
  // no product wraps.
  const unsigned __int128 start = side.origin[2] * slice + side.origin[1] * row + side.origin[0];
  const unsigned __int128 end = start + (region[2] - 1) * slice + (region[1] - 1) * row + region[0];
  return end <= bytes ? CL_SUCCESS : CL_INVALID_VALUE;
}

}  // namespace unicl::api
