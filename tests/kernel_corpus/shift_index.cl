// An index computed with a shift.
// modes: w r
// launch: global=256
// args: zero:1024 f32:512
// expect: split 0 | 0:0:4:4 1:0:8:4
__kernel void shift_index(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  out[i] = in[i << 1];
}
