// A reduction in local memory writing one partial sum per work-group.
// modes: r w -
// launch: global=256 local=64
// args: f32:256 zero:16 local:256
// expect: whole get_group_id(0)
__kernel void reduce_groups(__global const float *in, __global float *partial, __local float *scratch) {
  int l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = scratch[0];
}
