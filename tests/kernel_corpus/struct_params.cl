// Parameters in a struct passed by value.
// modes: w r -
// launch: global=100
// args: zero:816 f32:100 struct=i32:5,f32:2,i32:2
// expect: split 0 | 0:20:8:4 1:0:4:4
typedef struct {
  int offset;
  float scale;
  int stride;
} params_t;
__kernel void struct_params(__global float *out, __global const float *in, params_t p) {
  int i = get_global_id(0);
  out[i * p.stride + p.offset] = in[i] * p.scale;
}
