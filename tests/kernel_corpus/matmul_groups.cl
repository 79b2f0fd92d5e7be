// A tiled matrix product indexed by group and local ids (the textbook form).
// modes: r r w -
// launch: global=32,32 local=8,8
// args: f32:1024 f32:1024 zero:4096 int=32
// expect: whole get_group_id
#define TS 8
__kernel void matmul_groups(__global const float *A, __global const float *B, __global float *C, int n) {
  int bx = get_group_id(0), by = get_group_id(1), tx = get_local_id(0), ty = get_local_id(1);
  __local float As[TS][TS], Bs[TS][TS];
  float acc = 0;
  for (int t = 0; t < n / TS; ++t) {
    As[ty][tx] = A[(by * TS + ty) * n + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * n + bx * TS + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(by * TS + ty) * n + bx * TS + tx] = acc;
}
