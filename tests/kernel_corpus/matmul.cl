// C = A x B, one work-item per element of C.
// modes: r r w -
// launch: global=32,32
// args: f32:1024 f32:1024 zero:4096 int=32
// expect: split 1 | 0:0:128:128 1:0:0:4096 2:0:128:128
// launch: global=32,32 local=8,8
// args: f32:1024 f32:1024 zero:4096 int=32
// expect: split 1 | 0:0:128:128 1:0:0:4096 2:0:128:128
__kernel void matmul(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(1), j = get_global_id(0);
  float s = 0;
  for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
  c[i * n + j] = s;
}
