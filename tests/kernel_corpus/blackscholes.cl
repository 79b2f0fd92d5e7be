// Black-Scholes pricing: five arrays, one element each.
// modes: r r r w w - -
// launch: global=1000
// args: f32:1000 f32:1000 f32:1000 zero:4000 zero:4000 float=0.02 float=0.3
// expect: split 0 | 0:0:4:4 1:0:4:4 2:0:4:4 3:0:4:4 4:0:4:4
float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = 0.39894228f * exp(-0.5f * d * d) * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  return d > 0 ? 1.0f - c : c;
}
__kernel void blackscholes(__global const float *s, __global const float *x, __global const float *t,
                           __global float *call, __global float *put, float r, float v) {
  int i = get_global_id(0);
  float S = fabs(s[i]) * 100 + 10, X = fabs(x[i]) * 100 + 10, T = fabs(t[i]) + 0.1f;
  float d1 = (log(S / X) + (r + 0.5f * v * v) * T) / (v * sqrt(T)), d2 = d1 - v * sqrt(T);
  call[i] = S * cnd(d1) - X * exp(-r * T) * cnd(d2);
  put[i] = X * exp(-r * T) * cnd(-d2) - S * cnd(-d1);
}
