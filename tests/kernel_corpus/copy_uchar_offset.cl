// Byte copy from a sub-range: an offset argument on the read side.
// modes: w r -
// launch: global=1000
// args: zero:1000 u8:1100 int=100
// expect: split 0 | 0:0:1:1 1:100:1:1
__kernel void copy_uchar_offset(__global uchar *out, __global const uchar *in, int from) {
  int i = get_global_id(0);
  out[i] = in[i + from];
}
