// A helper the corpus kernel include_helper.cl includes (-I include).
#ifndef CORPUS_INDEX_H
#define CORPUS_INDEX_H
static inline int corpus_index(int x, int y, int width) { return y * width + x; }
#endif
