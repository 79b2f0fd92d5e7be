// A barrier without local memory: still tied to its work-group size.
// modes: w r
// launch: global=256 local=32
// args: zero:1024 f32:256
// expect: split 0 | 0:0:4:4 1:0:4:4
// launch: global=256 local=-
// args: zero:1024 f32:256
// expect: whole barrier
__kernel void barrier_only(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float v = in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] = v + 1.0f;
}
