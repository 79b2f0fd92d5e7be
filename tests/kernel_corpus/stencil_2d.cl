// A 5-point stencil on a 2-D grid: a halo row above and below.
// modes: r w - -
// launch: global=32,32
// args: f32:1024 zero:4096 int=32 int=32
// expect: split 1 | 0:-128:128:380 1:0:128:124
__kernel void stencil_2d(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  out[y * w + x] = 0.2f * (in[y * w + x] + in[(y - 1) * w + x] + in[(y + 1) * w + x] + in[y * w + x - 1] +
                           in[y * w + x + 1]);
}
