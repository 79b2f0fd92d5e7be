// Reads two consecutive elements per work-item.
// modes: w r
// launch: global=500
// args: zero:2000 f32:1000
// expect: split 0 | 0:0:4:4 1:0:8:8
__kernel void strided_read(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  out[i] = in[2 * i] + in[2 * i + 1];
}
