// The row width comes from a -D option.
// build: -DWIDTH=16
// modes: w r
// launch: global=16,8
// args: zero:512 f32:128
// expect: split 1 | 0:0:64:64 1:0:64:64
__kernel void macro_width(__global float *out, __global const float *in) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * WIDTH + x] = 2.0f * in[y * WIDTH + x];
}
