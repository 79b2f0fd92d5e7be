// Writes a 2-D image at its own pixel, reading another with a sampler
// (ffmpeg's filters): split by rows of the written image, the read one whole.
// modes: r w -
// launch: global=32,24
// args: img:32:24 img:32:24 float=0.5
// expect: split 1 | 1:0:1:1
// launch: global=32,32 local=8,8
// args: img:32:24 img:32:24 float=2
// expect: split 1 | 1:0:1:1
__kernel void image_rows(__read_only image2d_t src, __write_only image2d_t dst, float gain) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  if (at.x >= get_image_width(dst) || at.y >= get_image_height(dst)) return;
  float4 left = read_imagef(src, s, at - (int2)(1, 0)), right = read_imagef(src, s, at + (int2)(1, 0));
  write_imagef(dst, at, gain * (left + right) - read_imagef(src, s, at));
}
