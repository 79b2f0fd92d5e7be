// vload4 and vstore4 over float arrays.
// modes: r w
// launch: global=250
// args: f32:1000 zero:4000
// expect: split 0 | 0:0:16:16 1:0:16:16
__kernel void vload_vstore(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, in) * 2.0f, i, out);
}
