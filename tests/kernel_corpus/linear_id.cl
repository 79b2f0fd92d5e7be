// get_global_linear_id: every dimension's offset and size.
// build: -cl-std=CL2.0
// run: no
// modes: w
// launch: global=16,16
// args: zero:1024
// expect: whole get_global_linear_id
__kernel void linear_id(__global float *out) { out[get_global_linear_id()] = 1.0f; }
