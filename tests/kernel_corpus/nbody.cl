// An N-body force step: every particle against every other.
// modes: r w -
// launch: global=128
// args: f32:512 zero:2048 int=128
// expect: split 0 | 1:0:16:16
__kernel void nbody(__global const float4 *pos, __global float4 *force, int n) {
  int i = get_global_id(0);
  float4 p = pos[i], f = (float4)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 d = pos[j] - p;
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
    f += d * (pos[j].w / (r2 * sqrt(r2)));
  }
  force[i] = f;
}
