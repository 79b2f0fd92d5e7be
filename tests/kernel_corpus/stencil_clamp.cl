// A stencil that clamps its neighbours' indices: reads the analysis cannot bound.
// modes: r w -
// launch: global=700
// args: f32:700 zero:2800 int=700
// expect: split 0 | 1:0:4:4
__kernel void stencil_clamp(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  out[i] = in[clamp(i - 1, 0, n - 1)] + in[i] + in[min(i + 1, n - 1)];
}
