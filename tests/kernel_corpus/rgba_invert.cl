// Byte pixels, four channels per work-item.
// modes: w r
// launch: global=1000
// args: zero:4000 u8:4000
// expect: split 0 | 0:0:4:4 1:0:4:4
__kernel void rgba_invert(__global uchar4 *out, __global const uchar4 *in) {
  int i = get_global_id(0);
  out[i] = (uchar4)(255) - in[i];
}
