// A histogram: atomic increments at data-dependent bins.
// modes: r rw
// launch: global=512
// args: i32:512:16 zero:64
// expect: whole atomics on global memory
__kernel void histogram(__global const int *in, __global int *bins) {
  atomic_inc(&bins[in[get_global_id(0)]]);
}
