// Reads a 2-D image near each index (a sampler may read any pixel): the
// image is read whole, the buffer split.
// modes: r w -
// launch: global=64
// args: img:64:2 zero:256 int=64
// expect: split 0 | 1:0:4:4
__kernel void image_blur(__read_only image2d_t img, __global float *out, int w) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int x = get_global_id(0);
  out[x] = read_imagef(img, s, (int2)(x, 0)).x + read_imagef(img, s, (int2)(x + 1, 0)).x;
}
