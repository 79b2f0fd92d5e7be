// Sums each column: an index's reads are spread over every row.
// modes: w r - -
// launch: global=64
// args: zero:256 f32:1024 int=64 int=16
// expect: split 0 | 0:0:4:4 1:0:4:3844
__kernel void column_sum(__global float *out, __global const float *in, int w, int h) {
  int x = get_global_id(0);
  float s = 0;
  for (int y = 0; y < h; ++y) s += in[y * w + x];
  out[x] = s;
}
