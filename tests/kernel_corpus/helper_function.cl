// Accesses made in a helper function the kernel calls.
// modes: r w
// launch: global=400
// args: f32:401 zero:1600
// expect: split 0 | 0:0:4:8 1:0:4:4
float pair_sum(__global const float *p, int i) { return p[i] + p[i + 1]; }
void store(__global float *p, int i, float v) { p[i] = v; }
__kernel void helper_function(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  store(out, i, pair_sum(in, i));
}
