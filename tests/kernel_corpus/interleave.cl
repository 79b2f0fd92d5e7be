// Two inputs interleaved: each index writes two adjacent elements.
// modes: w r r
// launch: global=500
// args: zero:4000 f32:500 f32:500
// expect: split 0 | 0:0:8:8 1:0:4:4 2:0:4:4
__kernel void interleave(__global float *out, __global const float *a, __global const float *b) {
  int i = get_global_id(0);
  out[2 * i] = a[i];
  out[2 * i + 1] = b[i];
}
