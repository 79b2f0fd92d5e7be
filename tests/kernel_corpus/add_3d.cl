// A 3-D element-wise update: split by planes.
// modes: w r - -
// launch: global=16,8,4
// args: zero:2048 f32:512 int=16 int=8
// expect: split 2 | 0:0:512:512 1:0:512:512
__kernel void add_3d(__global float *out, __global const float *in, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int i = (z * h + y) * w + x;
  out[i] = in[i] + 1.0f;
}
