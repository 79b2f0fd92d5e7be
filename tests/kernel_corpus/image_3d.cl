// Writes a 3-D image: images other than 2-D are one object, never split.
// run: no
// modes: r -
// launch: global=8,8,8
// args: zero:4 zero:4
// expect: whole not a 2-D image
__kernel void image_3d(__global const float *in, __write_only image3d_t dst) {
  int4 at = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagef(dst, at, (float4)(in[0]));
}
