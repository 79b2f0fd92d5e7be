// Softmax of each row: three passes over the row, written in place.
// modes: rw -
// launch: global=16
// args: f32:512 int=32
// expect: split 0 | 0:0:128:128
__kernel void row_softmax(__global float *x, int n) {
  __global float *row = x + get_global_id(0) * n;
  float m = row[0], s = 0;
  for (int j = 1; j < n; ++j) m = fmax(m, row[j]);
  for (int j = 0; j < n; ++j) s += exp(row[j] - m);
  for (int j = 0; j < n; ++j) row[j] = exp(row[j] - m) / s;
}
