// Returns early past the end of the data.
// modes: w r -
// launch: global=1024
// args: zero:4000 f32:1000 int=1000
// expect: split 0 | 0:0:4:4 1:0:4:4
__kernel void early_return(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  out[i] = in[i] * in[i];
}
