// A 3-point stencil through a local tile with a halo.
// modes: r w - -
// launch: global=256 local=64
// args: f32:256 zero:1024 local:264 int=256
// expect: split 0 | 0:-4:4:12 1:0:4:4
__kernel void stencil_local_halo(__global const float *in, __global float *out, __local float *tile, int n) {
  int g = get_global_id(0), l = get_local_id(0), size = get_local_size(0);
  tile[l + 1] = in[g];
  if (l == 0) tile[0] = g > 0 ? in[g - 1] : 0.0f;
  if (l == size - 1) tile[size + 1] = g + 1 < n ? in[g + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[l] + tile[l + 1] + tile[l + 2];
}
