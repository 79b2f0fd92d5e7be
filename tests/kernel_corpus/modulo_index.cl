// Reads at an index modulo an argument: taken whole.
// modes: w r -
// launch: global=512
// args: zero:2048 f32:100 int=100
// expect: split 0 | 0:0:4:4
__kernel void modulo_index(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  out[i] = in[i % n];
}
