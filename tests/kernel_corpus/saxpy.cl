// y = a*x + y: a buffer read and written in place.
// modes: - r rw
// launch: global=999
// args: float=2.5 f32:999 f32:999
// expect: split 0 | 1:0:4:4 2:0:4:4
__kernel void saxpy(float a, __global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
