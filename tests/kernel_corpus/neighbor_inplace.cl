// Reads the element the next work-item writes: a race within the launch,
// whose result depends on the order its work-items run, so it is not run.
// run: no
// modes: rw -
// launch: global=500
// args: f32:501 int=500
// expect: whole other indices write
__kernel void neighbor_inplace(__global float *a, int n) {
  int i = get_global_id(0);
  if (i < n) a[i] = a[i] + a[i + 1];
}
