// A prefix sum by brute force: the loop's length depends on the index.
// modes: w r
// launch: global=300
// args: zero:1200 f32:300
// expect: split 0 | 0:0:4:4 1:0:0:1200
__kernel void triangular(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float s = 0;
  for (int k = 0; k <= i; ++k) s += in[k];
  out[i] = s;
}
