// Reads an image: images are not split.
// run: no
// modes: - w -
// launch: global=64
// args: zero:4 zero:256 int=64
// expect: whole image
__kernel void image_blur(__read_only image2d_t img, __global float *out, int w) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int x = get_global_id(0);
  out[x] = read_imagef(img, s, (int2)(x, 0)).x + read_imagef(img, s, (int2)(x + 1, 0)).x;
}
