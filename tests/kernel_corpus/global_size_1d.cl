// Uses get_global_size along its only dimension: a piece would see its own.
// modes: w r
// launch: global=256
// args: zero:1024 f32:256
// expect: whole get_global_size(0)
__kernel void global_size_1d(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  out[i] = in[i] / get_global_size(0);
}
