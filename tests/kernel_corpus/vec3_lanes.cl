// Lanes of a vector argument give the sizes.
// modes: w r -
// launch: global=16,8
// args: zero:512 f32:128 int4=16,8,1,0
// expect: split 1 | 0:0:64:64 1:0:64:64
__kernel void vec3_lanes(__global float *out, __global const float *in, int4 dims) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * dims.x + x] = in[y * dims.x + x] * dims.y;
}
