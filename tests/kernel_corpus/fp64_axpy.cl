// Double precision.
// modes: - r rw
// launch: global=300
// args: float=1.5 f64:300 f64:300
// expect: split 0 | 1:0:8:8 2:0:8:8
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fp64_axpy(float a, __global const double *x, __global double *y) {
  int i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
