// One work-item writes a flag every index would share.
// modes: w r -
// launch: global=256
// args: zero:4 f32:256 int=256
// expect: whole do not move
__kernel void same_location(__global float *flag, __global const float *in, int n) {
  if (get_global_id(0) == 0) flag[0] = in[n - 1];
}
