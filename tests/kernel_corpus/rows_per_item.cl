// Several rows per work-item, the last ones cut by min(): the loop's count, min(rows, y0 + 4) - y0 - 1, is at most 3 whatever y0.
// modes: r w - -
// launch: global=32,8
// args: f32:900 zero:3600 int=30 int=30
// expect: split 1 | 0:0:480:480 1:0:480:480
// launch: global=32,16 local=8,4
// args: f32:900 zero:3600 int=30 int=30
// expect: split 1 | 0:0:480:480 1:0:480:480
__kernel void rows_per_item(__global const float *src, __global float *dst, int cols, int rows) {
  int x = get_global_id(0);
  int y0 = get_global_id(1) * 4;
  if (x >= cols) return;
  for (int y = y0, cy = min(rows, y0 + 4); y < cy; ++y) dst[y * cols + x] = src[y * cols + x] + 1.0f;
}
