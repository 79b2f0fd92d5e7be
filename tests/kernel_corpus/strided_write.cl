// Writes with a stride given as an argument.
// modes: w r -
// launch: global=300
// args: zero:3600 f32:300 int=3
// expect: split 0 | 0:0:12:4 1:0:4:4
__kernel void strided_write(__global float *out, __global const float *in, int stride) {
  int i = get_global_id(0);
  out[i * stride] = in[i];
}
