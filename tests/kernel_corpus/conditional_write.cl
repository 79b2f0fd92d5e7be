// Writes on either branch of a condition on the data.
// modes: w r
// launch: global=640
// args: zero:2560 f32:640
// expect: split 0 | 0:0:4:4 1:0:4:4
__kernel void conditional_write(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  if (in[i] > 0) out[i] = in[i];
  else out[i] = -0.5f * in[i];
}
