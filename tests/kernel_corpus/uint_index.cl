// Unsigned indices: zero-extended, not sign-extended.
// modes: w r
// launch: global=777
// args: zero:3108 f32:777
// expect: split 0 | 0:0:4:4 1:0:4:4
__kernel void uint_index(__global float *out, __global const float *in) {
  uint i = get_global_id(0);
  out[i] = in[i] * 3.0f;
}
