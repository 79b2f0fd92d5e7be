// Writes at an offset given as an argument.
// modes: w r - -
// launch: global=512
// args: zero:2112 f32:512 int=16 float=3
// expect: split 0 | 0:64:4:4 1:0:4:4
__kernel void scale_offset(__global float *out, __global const float *in, int off, float s) {
  int i = get_global_id(0);
  out[i + off] = in[i] * s;
}
