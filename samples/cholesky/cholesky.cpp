// cholesky: tiled Cholesky factorization A = L * L^T of a symmetric positive
// definite N x N float matrix, split into T x T tiles, each tile a buffer of
// its own. The classic tile kernels form a real task graph:
//
//   for k in 0..T-1:
//     POTRF(k,k)                      L(k,k) = chol(A(k,k))
//     TRSM(i,k)   for i > k           L(i,k) = A(i,k) * L(k,k)^-T
//     SYRK(i,i)   for i > k           A(i,i) -= L(i,k) * L(i,k)^T
//     GEMM(i,j)   for k < j < i       A(i,j) -= L(i,k) * L(j,k)^T
//
// Each task waits, through events, only for the tasks that last wrote the
// tiles it touches; so the TRSMs of one column, and the updates of different
// tiles, may run at once on different devices. The host checks L * L^T == A.
//
// usage: cholesky [--platform SUBSTRING] [--size N] [--blocks TILES_PER_SIDE]
//                 [--queue per-device|device-less] [--scheduler NAME]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/sample_common.hpp"

namespace {

// Tiles are `size` x `size` floats, row-major. Only tiles on and below the
// diagonal exist.
constexpr const char *kSource = R"CLC(
// In place: the lower triangle of the diagonal tile becomes its Cholesky
// factor, the upper triangle zero. One work-group; its work-items share the
// rows and meet at barriers after each column.
kernel void potrf(global float *a, uint size) {
  const uint first = get_local_id(0), stride = get_local_size(0);
  for (uint k = 0; k < size; ++k) {
    if (first == 0) a[k * size + k] = sqrt(a[k * size + k]);
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint r = k + 1 + first; r < size; r += stride) a[r * size + k] /= a[k * size + k];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint r = k + 1 + first; r < size; r += stride)
      for (uint j = k + 1; j <= r; ++j) a[r * size + j] -= a[r * size + k] * a[j * size + k];
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  for (uint r = first; r < size; r += stride)
    for (uint j = r + 1; j < size; ++j) a[r * size + j] = 0.0f;
}

// x = x * l^-T, for x a tile below the diagonal tile l: each work-item
// solves one row by forward substitution.
kernel void trsm(global const float *l, global float *x, uint size) {
  const uint r = get_global_id(0);
  for (uint j = 0; j < size; ++j) {
    float s = x[r * size + j];
    for (uint m = 0; m < j; ++m) s -= x[r * size + m] * l[j * size + m];
    x[r * size + j] = s / l[j * size + j];
  }
}

// c = c - a * a^T, for c a diagonal tile; only its lower triangle, the part
// POTRF reads.
kernel void syrk(global const float *a, global float *c, uint size) {
  const uint col = get_global_id(0), row = get_global_id(1);
  if (col > row) return;
  float s = 0.0f;
  for (uint m = 0; m < size; ++m) s += a[row * size + m] * a[col * size + m];
  c[row * size + col] -= s;
}

// c = c - a * b^T, for c a tile below the diagonal.
kernel void gemm(global const float *a, global const float *b, global float *c, uint size) {
  const uint col = get_global_id(0), row = get_global_id(1);
  float s = 0.0f;
  for (uint m = 0; m < size; ++m) s += a[row * size + m] * b[col * size + m];
  c[row * size + col] -= s;
}
)CLC";

// Lower tiles (i >= j) numbered row by row.
size_t tile_index(size_t i, size_t j) { return i * (i + 1) / 2 + j; }

// The events that exist among `events`: a tile not yet written by any task
// has an empty event, and OpenCL refuses null entries in a wait list.
std::vector<cl::Event> after(std::initializer_list<const cl::Event *> events) {
  std::vector<cl::Event> wait;
  for (const cl::Event *e : events)
    if ((*e)() != nullptr) wait.push_back(*e);
  return wait;
}

bool run(sample::Session &session, const sample::Options &options) {
  const size_t n = options.size, tiles = options.blocks;
  if (n % tiles != 0) throw sample::UsageError("--size must be a multiple of --blocks (tiles per side)");
  const size_t t = n / tiles;
  std::printf("cholesky: %zu x %zu floats, %zu x %zu tiles of %zu x %zu\n", n, n, tiles, tiles, t, t);

  // Symmetric, off-diagonal entries in [-1, 1] and diagonal above n: strictly
  // diagonally dominant, hence positive definite and well conditioned.
  std::mt19937 random(11);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(n * n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) a[i * n + j] = a[j * n + i] = uniform(random);
    a[i * n + i] = static_cast<float>(n) + 1.0f + uniform(random);
  }

  cl::Program program = session.build(kSource);
  cl::Kernel potrf(program, "potrf"), trsm(program, "trsm"), syrk(program, "syrk"), gemm(program, "gemm");
  // Any device may run POTRF, so its work-group must suit them all.
  const size_t potrf_group = std::min(t, session.max_work_group(potrf));

  const size_t tile_count = tiles * (tiles + 1) / 2, tile_bytes = t * t * sizeof(float);
  std::vector<std::vector<float>> host(tile_count, std::vector<float>(t * t));
  for (size_t i = 0; i < tiles; ++i)
    for (size_t j = 0; j <= i; ++j)
      for (size_t r = 0; r < t; ++r)
        std::copy_n(&a[(i * t + r) * n + j * t], t, &host[tile_index(i, j)][r * t]);

  session.start_timer();
  std::vector<cl::Buffer> buffers;
  for (auto &tile : host)
    buffers.emplace_back(session.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, tile_bytes, tile.data());
  const cl_uint size = static_cast<cl_uint>(t);
  // The task that last wrote each tile: every later reader or writer waits
  // for it. A tile read by TRSM, SYRK or GEMM is final by then, so no task
  // needs to wait for earlier readers.
  std::vector<cl::Event> written(tile_count);
  size_t tasks = 0;
  for (size_t k = 0; k < tiles; ++k) {
    cl::Event &diagonal = written[tile_index(k, k)];
    potrf.setArg(0, buffers[tile_index(k, k)]);
    potrf.setArg(1, size);
    diagonal = session.launch(potrf, cl::NDRange(potrf_group), cl::NDRange(potrf_group), after({&diagonal}));
    ++tasks;
    for (size_t i = k + 1; i < tiles; ++i) {
      cl::Event &below = written[tile_index(i, k)];
      trsm.setArg(0, buffers[tile_index(k, k)]);
      trsm.setArg(1, buffers[tile_index(i, k)]);
      trsm.setArg(2, size);
      below = session.launch(trsm, cl::NDRange(t), cl::NullRange, after({&diagonal, &below}));
      ++tasks;
    }
    for (size_t i = k + 1; i < tiles; ++i) {
      const cl::Event &l_ik = written[tile_index(i, k)];
      cl::Event &target = written[tile_index(i, i)];
      syrk.setArg(0, buffers[tile_index(i, k)]);
      syrk.setArg(1, buffers[tile_index(i, i)]);
      syrk.setArg(2, size);
      target = session.launch(syrk, cl::NDRange(t, t), cl::NullRange, after({&l_ik, &target}));
      ++tasks;
      for (size_t j = k + 1; j < i; ++j) {
        const cl::Event &l_jk = written[tile_index(j, k)];
        cl::Event &update = written[tile_index(i, j)];
        gemm.setArg(0, buffers[tile_index(i, k)]);
        gemm.setArg(1, buffers[tile_index(j, k)]);
        gemm.setArg(2, buffers[tile_index(i, j)]);
        gemm.setArg(3, size);
        update = session.launch(gemm, cl::NDRange(t, t), cl::NullRange, after({&l_ik, &l_jk, &update}));
        ++tasks;
      }
    }
  }
  std::vector<cl::Event> reads;
  for (size_t tile = 0; tile < tile_count; ++tile)
    reads.push_back(session.read(buffers[tile], 0, tile_bytes, host[tile].data(), written[tile]));
  session.wait_all(reads);
  session.stop_timer();
  std::printf("%zu tile tasks\n", tasks);

  // L, with the diagonal tiles whole: an upper triangle POTRF failed to
  // clear would show in L * L^T.
  std::vector<double> l(n * n, 0.0);
  for (size_t i = 0; i < tiles; ++i)
    for (size_t j = 0; j <= i; ++j)
      for (size_t r = 0; r < t; ++r)
        for (size_t c = 0; c < t; ++c) l[(i * t + r) * n + j * t + c] = host[tile_index(i, j)][r * t + c];

  // Cholesky's backward error is at most about (n + 1) * eps * (|L||L^T|)_ij,
  // which Cauchy-Schwarz bounds by (n + 1) * eps * sqrt(a_ii * a_jj).
  constexpr double kEps = 1.1920929e-7;
  size_t wrong = 0;
  double worst = 0;
  std::vector<size_t> wrong_in_tile(tiles * tiles, 0);  // of L*L^T, by tile row and column
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      double product = 0;
      for (size_t m = 0; m < n; ++m) product += l[i * n + m] * l[j * n + m];
      const double want = a[i * n + j];
      const double tolerance = 2 * (n + 1) * kEps * std::sqrt(double(a[i * n + i]) * a[j * n + j]);
      const double error = std::fabs(product - want);
      if (!(error <= tolerance)) {
        ++wrong_in_tile[(i / t) * tiles + j / t];
        if (wrong++ < 5) std::printf("(L*L^T)[%zu][%zu] = %.7g, A has %.7g\n", i, j, product, want);
      } else {
        worst = std::max(worst, error / tolerance);
      }
    }
  // Which tiles: a wrong tile of L shows in its row and column of L*L^T.
  for (size_t i = 0; i < tiles; ++i)
    for (size_t j = 0; j < tiles; ++j)
      if (size_t w = wrong_in_tile[i * tiles + j])
        std::printf("tile (%zu, %zu) of L*L^T: %zu of %zu elements wrong\n", i, j, w, t * t);
  if (wrong) std::printf("%zu of %zu elements of L*L^T wrong\n", wrong, n * n);
  else std::printf("largest error: %.1f%% of the tolerance\n", 100 * worst);
  return wrong == 0;
}

}  // namespace

int main(int argc, char **argv) {
  return sample::main(argc, argv, {"cholesky", "matrix order N", "tiles per side (N must be a multiple)", 64, 4},
                      run);
}
