// Vector types: one float4 per work-item.
// modes: w r -
// launch: global=250
// args: zero:4000 f32:1000 float=0.5
// expect: split 0 | 0:0:16:16 1:0:16:16
__kernel void float4_scale(__global float4 *out, __global const float4 *in, float s) {
  int i = get_global_id(0);
  out[i] = in[i] * s;
}
