// A Sobel filter on bytes: a 3 x 3 neighbourhood around each pixel.
// modes: r w - -
// launch: global=64,32
// args: u8:2048 zero:2048 int=64 int=32
// expect: split 1 | 0:-65:64:193 1:0:64:64
__kernel void sobel(__global const uchar *in, __global uchar *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) {
    out[y * w + x] = 0;
    return;
  }
  int gx = -in[(y - 1) * w + x - 1] + in[(y - 1) * w + x + 1] - 2 * in[y * w + x - 1] + 2 * in[y * w + x + 1] -
           in[(y + 1) * w + x - 1] + in[(y + 1) * w + x + 1];
  int gy = -in[(y - 1) * w + x - 1] - 2 * in[(y - 1) * w + x] - in[(y - 1) * w + x + 1] + in[(y + 1) * w + x - 1] +
           2 * in[(y + 1) * w + x] + in[(y + 1) * w + x + 1];
  out[y * w + x] = (uchar)min(255u, abs(gx) + abs(gy));
}
