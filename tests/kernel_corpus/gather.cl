// A gather: reads at indices read from memory (taken whole), writes in order.
// modes: w r r
// launch: global=300
// args: zero:1200 f32:500 i32:300:500
// expect: split 0 | 0:0:4:4 2:0:4:4
__kernel void gather(__global float *out, __global const float *in, __global const int *idx) {
  int i = get_global_id(0);
  out[i] = in[idx[i]];
}
