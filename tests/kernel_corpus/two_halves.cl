// Writes in both halves of its output: one window per index would span
// the gap and overlap the next index's.
// modes: w r r -
// launch: global=500
// args: zero:4000 f32:500 f32:500 int=500
// expect: whole overlap
__kernel void two_halves(__global float *out, __global const float *a, __global const float *b, int n) {
  int i = get_global_id(0);
  out[i] = a[i];
  out[i + n] = b[i];
}
