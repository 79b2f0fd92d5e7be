// An array of structs: one field written, two read.
// modes: w r
// launch: global=128
// args: zero:2048 f32:512
// expect: split 0 | 0:0:16:4 1:4:16:8
typedef struct {
  float x, y, z, w;
} point_t;
__kernel void struct_array(__global point_t *out, __global const point_t *in) {
  int i = get_global_id(0);
  out[i].x = in[i].y + in[i].z;
}
