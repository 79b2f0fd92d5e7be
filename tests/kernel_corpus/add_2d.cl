// A 2-D element-wise sum over row-major matrices: split by rows.
// modes: r r w -
// launch: global=64,32
// args: f32:2048 f32:2048 zero:8192 int=64
// expect: split 1 | 0:0:256:256 1:0:256:256 2:0:256:256
// launch: global=64,32 local=16,8
// args: f32:2048 f32:2048 zero:8192 int=64
// expect: split 1 | 0:0:256:256 1:0:256:256 2:0:256:256
__kernel void add_2d(__global const float *a, __global const float *b, __global float *c, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  c[y * w + x] = a[y * w + x] + b[y * w + x];
}
