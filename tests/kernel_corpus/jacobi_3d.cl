// A 7-point Jacobi step on a 3-D grid: halo planes above and below.
// modes: r w - - -
// launch: global=8,8,8
// args: f32:512 zero:2048 int=8 int=8 int=8
// expect: split 2 | 0:-256:256:732 1:0:256:220
__kernel void jacobi_3d(__global const float *in, __global float *out, int w, int h, int d) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int i = (z * h + y) * w + x;
  if (x < 1 || y < 1 || z < 1 || x >= w - 1 || y >= h - 1 || z >= d - 1) return;
  out[i] = (in[i - 1] + in[i + 1] + in[i - w] + in[i + w] + in[i - w * h] + in[i + w * h] + in[i]) / 7.0f;
}
