// y = A x: each row of A, all of x.
// modes: r r w -
// launch: global=64
// args: f32:4096 f32:64 zero:256 int=64
// expect: split 0 | 0:0:256:256 1:0:0:256 2:0:4:4
__kernel void matvec(__global const float *a, __global const float *x, __global float *y, int n) {
  int i = get_global_id(0);
  float s = 0;
  for (int j = 0; j < n; ++j) s += a[i * n + j] * x[j];
  y[i] = s;
}
