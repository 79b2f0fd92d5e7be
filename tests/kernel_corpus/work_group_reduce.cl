// An OpenCL 2.0 work-group function: the work-group size must be given.
// build: -cl-std=CL2.0
// run: no
// modes: r w
// launch: global=256 local=64
// args: f32:256 zero:1024
// expect: split 0 | 0:0:4:4 1:0:4:4
// launch: global=256 local=-
// args: f32:256 zero:1024
// expect: whole work-group size
__kernel void work_group_reduce(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  out[i] = work_group_reduce_add(in[i]);
}
