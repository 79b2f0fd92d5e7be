// Walks a row with a pointer incremented in the loop.
// modes: r w -
// launch: global=64
// args: f32:1024 zero:256 int=16
// expect: split 0 | 0:0:64:64 1:0:4:4
__kernel void pointer_walk(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  __global const float *row = in + i * n;
  float s = 0;
  for (int k = 0; k < n; ++k) s += *row++;
  out[i] = s;
}
