// A scatter: writes at indices read from memory.
// modes: w r r
// launch: global=256
// args: zero:1024 f32:256 perm:256
// expect: whole could not bound
__kernel void scatter(__global float *out, __global const float *in, __global const int *idx) {
  int i = get_global_id(0);
  out[idx[i]] = in[i];
}
