// A sum through a global atomic.
// modes: r rw
// launch: global=256
// args: i32:256:100 zero:4
// expect: whole atomics on global memory
__kernel void reduce_atomic(__global const int *in, __global int *sum) {
  atomic_add(sum, in[get_global_id(0)]);
}
