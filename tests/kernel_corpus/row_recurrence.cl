// A recurrence along each row, one row per work-item (as ADI solvers sweep): each element written from the one before it in the same row; the row's first element is only read. An index's window holds what it reads and writes of x: its whole row, apart from every other row.
// modes: r rw -
// launch: global=16
// args: f32:160 f32:160 int=10
// expect: split 0 | 0:4:40:36 1:0:40:40
// launch: global=16 local=4
// args: f32:160 f32:160 int=10
// expect: split 0 | 0:4:40:36 1:0:40:40
__kernel void row_recurrence(__global const float *a, __global float *x, int n) {
  int r = get_global_id(0);
  for (int c = 1; c < n; ++c) x[r * n + c] = x[r * n + c - 1] * 0.5f + a[r * n + c];
}
