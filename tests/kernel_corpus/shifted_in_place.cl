// In place, each element from its left neighbour: what index i reads, index i - 1 writes.
// modes: rw -
// launch: global=64
// args: f32:65 int=0
// expect: whole reads of x at bytes other indices write
__kernel void shifted_in_place(__global float *x, int unused) {
  int i = get_global_id(0);
  x[i + 1] = x[i] * 2.0f;
}
