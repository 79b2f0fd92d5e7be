// Row width from get_global_size(0): the split dimension is another one.
// modes: w r
// launch: global=32,16
// args: zero:2048 f32:512
// expect: split 1 | 0:0:128:128 1:0:128:128
__kernel void global_size_width(__global float *out, __global const float *in) {
  int x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0);
  out[y * w + x] = in[y * w + x] - 1.0f;
}
