// Writes a 2-D image at a row that does not move with a global id (a
// column per work-item, down the image): whole.
// modes: r w -
// launch: global=16
// args: img:16:8 img:16:8 int=8
// expect: whole do not move
__kernel void image_columns(__read_only image2d_t src, __write_only image2d_t dst, int h) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int x = get_global_id(0);
  float4 sum = (float4)(0.0f);
  for (int y = 0; y < h; ++y) {
    sum += read_imagef(src, s, (int2)(x, y));
    write_imagef(dst, (int2)(x, y), sum);
  }
}
