// A private array filled in a loop: private memory is the work-item's own.
// modes: w r
// launch: global=100
// args: zero:400 f32:400
// expect: split 0 | 0:0:4:4 1:0:16:16
__kernel void private_array(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float tmp[4];
  for (int k = 0; k < 4; ++k) tmp[k] = in[4 * i + k];
  float s = 0;
  for (int k = 0; k < 4; ++k) s += tmp[k] * tmp[3 - k];
  out[i] = s;
}
