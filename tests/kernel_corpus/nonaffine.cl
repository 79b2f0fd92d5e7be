// Writes at the square of its index: not linear in it.
// modes: w
// launch: global=32
// args: zero:4096
// expect: whole not linear
__kernel void nonaffine(__global float *out) {
  int i = get_global_id(0);
  out[i * i] = (float)i;
}
