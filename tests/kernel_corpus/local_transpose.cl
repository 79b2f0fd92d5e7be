// The classic tiled transpose: its output index comes from get_group_id.
// modes: r w - -
// launch: global=32,32 local=8,8
// args: f32:1024 zero:4096 int=32 int=32
// expect: whole get_group_id
#define TS 8
__kernel void local_transpose(__global const float *in, __global float *out, int w, int h) {
  __local float tile[TS][TS + 1];
  int gx = get_group_id(0), gy = get_group_id(1), lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[(gy * TS + ly) * w + gx * TS + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx * TS + ly) * h + gy * TS + lx] = tile[lx][ly];
}
