// A lookup in a program-scope constant table.
// modes: w r
// launch: global=400
// args: zero:1600 f32:400
// expect: split 0 | 0:0:4:4 1:0:4:4
__constant float weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
__kernel void constant_table(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  out[i] = in[i] * weights[i & 3];
}
