// size_t indices: no conversion at all.
// modes: w r
// launch: global=333
// args: zero:1332 f32:333
// expect: split 0 | 0:0:4:4 1:0:4:4
__kernel void size_t_index(__global float *out, __global const float *in) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1.0f;
}
