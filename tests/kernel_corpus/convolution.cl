// A 2-D convolution with a mask in constant memory.
// modes: r r w - - -
// launch: global=32,16
// args: f32:612 f32:9 zero:2048 int=34 int=32 int=3
// expect: split 1 | 0:0:136:408 1:0:0:36 2:0:128:128
__kernel void convolution(__global const float *in, __constant float *mask, __global float *out, int iw, int ow,
                          int m) {
  int x = get_global_id(0), y = get_global_id(1);
  float s = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) s += in[(y + i) * iw + x + j] * mask[i * m + j];
  out[y * ow + x] = s;
}
