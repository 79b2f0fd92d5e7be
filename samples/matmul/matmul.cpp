// matmul: C = A * B for N x N float matrices, computed in blocks of rows,
// one kernel launch per block, so that the blocks can spread over every
// device of the platform. Each block has its own buffers for its rows of A
// and of C: two devices never write one buffer, which OpenCL leaves
// undefined when they do it at the same time. B is one read-only buffer that
// every block reads.
//
// usage: matmul [--platform SUBSTRING] [--size N] [--blocks ROW_BLOCKS]
//               [--queue per-device|device-less] [--scheduler NAME]
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/sample_common.hpp"

namespace {

constexpr const char *kSource = R"CLC(
// c_rows = a_rows * b for a block of `rows` rows; one work-item per element.
kernel void matmul_rows(global const float *a_rows, global const float *b, global float *c_rows, uint n) {
  const size_t col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (uint k = 0; k < n; ++k) sum += a_rows[row * n + k] * b[k * n + col];
  c_rows[row * n + col] = sum;
}
)CLC";

bool run(sample::Session &session, const sample::Options &options) {
  const size_t n = options.size;
  if (options.blocks > n) throw sample::UsageError("--blocks must not exceed --size (one row per block at least)");
  std::printf("matmul: %zu x %zu floats, %zu row blocks\n", n, n, options.blocks);

  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(n * n), b(n * n), c(n * n, NAN);
  for (auto &x : a) x = uniform(random);
  for (auto &x : b) x = uniform(random);

  cl::Program program = session.build(kSource);
  cl::Kernel kernel(program, "matmul_rows");
  const auto blocks = sample::split(n, options.blocks);

  session.start_timer();
  cl::Buffer b_buffer(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * sizeof(float), b.data());
  std::vector<cl::Buffer> a_rows, c_rows;
  std::vector<cl::Event> reads;
  for (const auto &block : blocks) {
    const size_t bytes = block.count * n * sizeof(float);
    a_rows.emplace_back(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, &a[block.offset * n]);
    c_rows.emplace_back(session.context(), CL_MEM_WRITE_ONLY, bytes);
    kernel.setArg(0, a_rows.back());
    kernel.setArg(1, b_buffer);
    kernel.setArg(2, c_rows.back());
    kernel.setArg(3, static_cast<cl_uint>(n));
    const cl::Event done = session.launch(kernel, cl::NDRange(n, block.count));
    reads.push_back(session.read(c_rows.back(), 0, bytes, &c[block.offset * n], done));
  }
  session.wait_all(reads);
  session.stop_timer();

  // Recursive float summation of n products errs by at most about
  // n * eps * sum |a_ik * b_kj|: the bound, not a guess, sets the tolerance.
  constexpr double kEps = 1.1920929e-7;
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      double want = 0, magnitude = 0;
      for (size_t k = 0; k < n; ++k) {
        want += double(a[i * n + k]) * b[k * n + j];
        magnitude += std::fabs(double(a[i * n + k]) * b[k * n + j]);
      }
      const double got = c[i * n + j];
      if (!(std::fabs(got - want) <= (n + 2) * kEps * magnitude + 1e-30)) {
        if (wrong++ < 5) std::printf("C[%zu][%zu] = %.7g, expected %.7g\n", i, j, got, want);
      }
    }
  if (wrong) std::printf("%zu of %zu elements wrong\n", wrong, n * n);
  return wrong == 0;
}

}  // namespace

int main(int argc, char **argv) {
  return sample::main(argc, argv, {"matmul", "matrix order N", "row blocks, one launch each", 64, 4}, run);
}
