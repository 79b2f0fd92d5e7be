// The Mandelbrot set: a 2-D image, a loop of data-dependent length.
// modes: w - - -
// launch: global=64,32
// args: zero:8192 int=64 int=32 int=64
// expect: split 1 | 0:0:256:256
__kernel void mandelbrot(__global int *out, int w, int h, int max_iter) {
  int x = get_global_id(0), y = get_global_id(1);
  float cr = -2.0f + 3.0f * x / w, ci = -1.0f + 2.0f * y / h, zr = 0, zi = 0;
  int k = 0;
  while (k < max_iter && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  out[y * w + x] = k;
}
