#include "cluster/client/checks.hpp"

#include <algorithm>
#include <cstring>
#include "cluster/client/refusal.hpp"

namespace unicl::cluster {
namespace {

// Where `m`'s bytes start in the buffer that holds them (a sub-buffer's
// parent), and that buffer.
RemoteMemory *root_of(RemoteMemory *m, size_t &base) {
  base = m->parent ? m->origin : 0;
  return m->parent ? m->parent : m;
}

bool ranges_overlap(size_t a, size_t a_size, size_t b, size_t b_size) { return a < b + b_size && b < a + a_size; }

}  // namespace

cl_int host_access_error(RemoteMemory *m, bool reads) {
  const cl_mem_flags forbidden = CL_MEM_HOST_NO_ACCESS | (reads ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY);
  if (!(m->flags & forbidden)) return CL_SUCCESS;
  return cluster::refuse(CL_INVALID_OPERATION, reads ? "the host may not read this memory object (its flags)"
                                                   : "the host may not write this memory object (its flags)");
}

cl_int map_flags_error(RemoteMemory *m, cl_map_flags flags) {
  const cl_map_flags kinds = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~kinds) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return cluster::refuse(CL_INVALID_VALUE, "map_flags are not valid (unknown bits, or CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE)");
  if (flags & CL_MAP_READ)
    if (cl_int err = host_access_error(m, true); err != CL_SUCCESS) return err;
  if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    if (cl_int err = host_access_error(m, false); err != CL_SUCCESS) return err;
  return CL_SUCCESS;
}

cl_int range_error(RemoteMemory *m, size_t offset, size_t size) {
  if (size == 0 || offset > m->size || size > m->size - offset)
    return cluster::refuse(CL_INVALID_VALUE, "the region (offset, size) is empty or not inside the buffer");
  return CL_SUCCESS;
}

cl_int fill_error(RemoteMemory *m, const void *pattern, size_t pattern_size, size_t offset, size_t size) {
  // A power of two from 1 to 128 bytes, whole patterns only.
  if (!pattern || pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1))) return cluster::refuse(CL_INVALID_VALUE, "pattern is NULL or pattern_size is not 1, 2, 4, ... 128");
  if (offset % pattern_size || size % pattern_size) return cluster::refuse(CL_INVALID_VALUE, "offset or size is not a multiple of pattern_size");
  return range_error(m, offset, size);
}

cl_int copy_overlap_error(RemoteMemory *src, size_t src_offset, RemoteMemory *dst, size_t dst_offset, size_t size) {
  size_t src_base = 0, dst_base = 0;
  if (root_of(src, src_base) != root_of(dst, dst_base)) return CL_SUCCESS;
  if (!ranges_overlap(src_base + src_offset, size, dst_base + dst_offset, size)) return CL_SUCCESS;
  return cluster::refuse(CL_MEM_COPY_OVERLAP, "the source and destination regions overlap");
}

bool resolve_pitches(const Rect &r, size_t &row, size_t &slice) {
  row = r.row_pitch ? r.row_pitch : r.region[0];
  slice = r.slice_pitch ? r.slice_pitch : r.region[1] * row;
  if (row < r.region[0] || slice < r.region[1] * row) return false;
  return !r.slice_pitch || r.slice_pitch % row == 0;
}

cl_int rect_error(RemoteMemory *m, const Rect &r) {
  if (!r.origin || !r.region || !r.region[0] || !r.region[1] || !r.region[2]) return cluster::refuse(CL_INVALID_VALUE, "origin or region is NULL, or the region empty");
  size_t row = 0, slice = 0;
  if (!resolve_pitches(r, row, slice)) return cluster::refuse(CL_INVALID_VALUE, "a row or slice pitch is below the region's, or the slice pitch is not a multiple of the row pitch");
  if (!m) return CL_SUCCESS;
  // The last byte the rectangle touches, inside the buffer.
  const size_t end = (r.origin[2] + r.region[2] - 1) * slice + (r.origin[1] + r.region[1] - 1) * row + r.origin[0] +
                     r.region[0];
  return end > m->size ? cluster::refuse(CL_INVALID_VALUE, "the rectangle is not inside the buffer") : CL_SUCCESS;
}

cl_int rect_overlap_error(RemoteMemory *src, const Rect &s, RemoteMemory *dst, const Rect &d) {
  size_t src_base = 0, dst_base = 0;
  if (root_of(src, src_base) != root_of(dst, dst_base)) return CL_SUCCESS;
  size_t srow = 0, sslice = 0, drow = 0, dslice = 0;
  resolve_pitches(s, srow, sslice);
  resolve_pitches(d, drow, dslice);
  // Each row of one against each of the other; past a few hundred rows,
  // their whole spans (never a false "no overlap").
  auto row_at = [](const Rect &r, size_t base, size_t row, size_t slice, size_t y, size_t z) {
    return base + (r.origin[2] + z) * slice + (r.origin[1] + y) * row + r.origin[0];
  };
  const size_t rows = s.region[1] * s.region[2];
  if (rows > 256) {
    const size_t a = row_at(s, src_base, srow, sslice, 0, 0), b = row_at(d, dst_base, drow, dslice, 0, 0);
    const size_t a_end = row_at(s, src_base, srow, sslice, s.region[1] - 1, s.region[2] - 1) + s.region[0];
    const size_t b_end = row_at(d, dst_base, drow, dslice, d.region[1] - 1, d.region[2] - 1) + d.region[0];
    if (!ranges_overlap(a, a_end - a, b, b_end - b)) return CL_SUCCESS;
    return cluster::refuse(CL_MEM_COPY_OVERLAP, "the source and destination rectangles overlap");
  }
  for (size_t sz = 0; sz < s.region[2]; ++sz)
    for (size_t sy = 0; sy < s.region[1]; ++sy) {
      const size_t a = row_at(s, src_base, srow, sslice, sy, sz);
      for (size_t dz = 0; dz < d.region[2]; ++dz)
        for (size_t dy = 0; dy < d.region[1]; ++dy)
          if (ranges_overlap(a, s.region[0], row_at(d, dst_base, drow, dslice, dy, dz), d.region[0]))
            return cluster::refuse(CL_MEM_COPY_OVERLAP, "the source and destination rectangles overlap");
    }
  return CL_SUCCESS;
}

cl_int format_mismatch_error(RemoteMemory *src, RemoteMemory *dst) {
  if (std::memcmp(&src->format, &dst->format, sizeof(cl_image_format)) == 0) return CL_SUCCESS;
  return cluster::refuse(CL_IMAGE_FORMAT_MISMATCH, "the source and destination images have different formats");
}

}  // namespace unicl::cluster
