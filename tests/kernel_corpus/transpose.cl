// A naive transpose: its writes are disjoint by columns of the input.
// modes: r w - -
// launch: global=32,16
// args: f32:512 zero:2048 int=32 int=16
// expect: split 0 | 0:0:4:1924 1:0:64:64
__kernel void transpose(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  out[x * h + y] = in[y * w + x];
}
