// A 3-point stencil: each index reads a halo of one element either side.
// modes: r w -
// launch: global=1000
// args: f32:1000 zero:4000 int=1000
// expect: split 0 | 0:-4:4:12 1:0:4:4
__kernel void stencil_1d(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  if (i > 0 && i < n - 1) out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
