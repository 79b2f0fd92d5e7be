// Writes through a pointer that is one of two arguments, chosen at run time.
// modes: w w -
// launch: global=128
// args: zero:512 zero:512 int=1
// expect: whole could not bound
__kernel void select_pointer(__global float *a, __global float *b, int use_a) {
  __global float *p = use_a ? a : b;
  p[get_global_id(0)] = 1.0f;
}
