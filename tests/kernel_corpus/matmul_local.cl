// Tiled matrix product through local memory, indexed by global ids, with
// the work-group size it requires.
// modes: r r w -
// launch: global=32,32 local=8,8
// args: f32:1024 f32:1024 zero:4096 uint=32
// expect: split 1 | 0:0:128:128 1:0:0:4096 2:0:128:128
#define TS 8
__kernel __attribute__((reqd_work_group_size(TS, TS, 1))) void matmul_local(__global const float *A, __global const float *B, __global float *C, uint n) {
  int row = get_global_id(1), col = get_global_id(0);
  int lr = get_local_id(1), lc = get_local_id(0);
  __local float As[TS][TS], Bs[TS][TS];
  float acc = 0;
  for (uint t = 0; t < n / TS; ++t) {
    As[lr][lc] = A[row * n + t * TS + lc];
    Bs[lr][lc] = B[(t * TS + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[lr][k] * Bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
