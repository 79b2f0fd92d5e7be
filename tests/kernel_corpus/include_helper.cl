// An index helper from a header found with -I.
// build: -I include
// modes: w r -
// launch: global=64,32
// args: zero:8192 f32:2048 int=64
// expect: split 1 | 0:0:256:256 1:0:256:256
#include "corpus_index.h"
__kernel void include_helper(__global float *out, __global const float *in, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  out[corpus_index(x, y, w)] = in[corpus_index(x, y, w)] + 1.0f;
}
