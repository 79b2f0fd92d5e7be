// Image-library style: rows addressed in bytes with mad24, the global size rounded up to whole work-groups and the work-items past the data stopped by a guard: the guard bounds each row's bytes.
// modes: r - - w - - - -
// launch: global=64,24 local=16,8
// args: f32:1000 int=200 int=0 zero:4000 int=200 int=0 int=20 int=50
// expect: split 1 | 0:0:200:200 3:0:200:200
// launch: global=64,32 local=16,8 offset=0,0
// args: f32:1200 int=240 int=40 zero:4800 int=240 int=40 int=20 int=50
// expect: split 1 | 0:40:240:200 3:40:240:200
__kernel void guarded_byte_steps(__global const uchar *src, int src_step, int src_offset, __global uchar *dst,
                                 int dst_step, int dst_offset, int rows, int cols) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < cols && y < rows) {
    int si = mad24(y, src_step, mad24(x, (int)sizeof(float), src_offset));
    int di = mad24(y, dst_step, mad24(x, (int)sizeof(float), dst_offset));
    *(__global float *)(dst + di) = 2.0f * *(__global const float *)(src + si);
  }
}
