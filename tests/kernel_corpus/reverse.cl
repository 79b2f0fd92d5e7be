// Fills its output backwards: a negative stride.
// modes: w r -
// launch: global=1000
// args: zero:4000 f32:1000 int=1000
// expect: split 0 | 0:3996:-4:4 1:0:4:4
__kernel void reverse(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  out[n - 1 - i] = in[i];
}
