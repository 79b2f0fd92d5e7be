// A grid-stride loop: its indices depend on the launch's global size.
// modes: r w -
// launch: global=128
// args: f32:1000 zero:4000 int=1000
// expect: whole get_global_size(0)
__kernel void grid_stride(__global const float *in, __global float *out, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = 2.0f * in[i];
}
