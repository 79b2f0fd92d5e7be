// An inclusive scan within each work-group (Hillis-Steele in local memory),
// written back at the work-item's own index.
// modes: r w -
// launch: global=256 local=64
// args: f32:256 zero:1024 local:512
// expect: split 0 | 0:0:4:4 1:0:4:4
__kernel void scan_local(__global const float *in, __global float *out, __local float *buf) {
  int l = get_local_id(0), n = get_local_size(0);
  int pout = 0, pin = 1;
  buf[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    buf[pout * n + l] = l >= offset ? buf[pin * n + l] + buf[pin * n + l - offset] : buf[pin * n + l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = buf[pout * n + l];
}
