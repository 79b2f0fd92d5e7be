// Element-wise sum, guarded against a rounded-up range.
// modes: r r w -
// launch: global=1000
// args: f32:1000 f32:1000 zero:4000 int=1000
// expect: split 0 | 0:0:4:4 1:0:4:4 2:0:4:4
// launch: global=600 offset=200
// args: f32:1000 f32:1000 zero:4000 int=1000
// expect: split 0 | 0:0:4:4 1:0:4:4 2:0:4:4
// launch: global=1024 local=64
// args: f32:1024 f32:1024 zero:4096 int=1000
// expect: split 0 | 0:0:4:4 1:0:4:4 2:0:4:4
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
