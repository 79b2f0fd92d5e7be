// A 2-D copy between pitched layouts.
// modes: w r - -
// launch: global=32,16
// args: zero:2304 f32:640 int=36 int=40
// expect: split 1 | 0:0:144:128 1:0:160:128
__kernel void pitch_copy(__global float *dst, __global const float *src, int dst_pitch, int src_pitch) {
  int x = get_global_id(0), y = get_global_id(1);
  dst[y * dst_pitch + x] = src[y * src_pitch + x];
}
