// Indexes from the launch's global offset.
// modes: w r
// launch: global=200 offset=56
// args: zero:1024 f32:256
// expect: whole get_global_offset(0)
__kernel void global_offset(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  out[i - get_global_offset(0)] = in[i];
}
