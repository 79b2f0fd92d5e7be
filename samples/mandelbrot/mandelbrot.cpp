// mandelbrot: iteration counts of the Mandelbrot set over an N x N image,
// split into bands of rows, one launch per band. Bands near the set's middle
// cost far more than the others, so equal bands are unequal work: a good
// scheduler balances by time, not by count. Each band writes a buffer of its
// own, so that no two devices write one buffer.
//
// usage: mandelbrot [--platform SUBSTRING] [--size N] [--blocks BANDS]
//                   [--queue per-device|device-less] [--scheduler NAME]
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../common/sample_common.hpp"

namespace {

constexpr cl_uint kMaxIterations = 256;
// The view: x in [-2, 0.5], y in [-1.25, 1.25].
constexpr float kLeft = -2.0f, kTop = -1.25f, kSpan = 2.5f;

// The kernel and the host reference do the same float operations in the same
// order, without fused multiply-adds (FP_CONTRACT OFF here, -ffp-contract=off
// on the host), so every pixel should match exactly.
constexpr const char *kSource = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
kernel void mandelbrot_band(global uint *counts, uint first_row, uint width, float left, float top, float step,
                            uint max_iterations) {
  const uint col = get_global_id(0), row = get_global_id(1);
  const float cx = left + (float)col * step, cy = top + (float)(first_row + row) * step;
  float x = 0.0f, y = 0.0f;
  uint i = 0;
  while (i < max_iterations && x * x + y * y <= 4.0f) {
    const float next_x = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = next_x;
    ++i;
  }
  counts[row * width + col] = i;
}
)CLC";

cl_uint reference(size_t col, size_t row, float step) {
  const float cx = kLeft + static_cast<float>(col) * step, cy = kTop + static_cast<float>(row) * step;
  float x = 0.0f, y = 0.0f;
  cl_uint i = 0;
  while (i < kMaxIterations && x * x + y * y <= 4.0f) {
    const float next_x = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = next_x;
    ++i;
  }
  return i;
}

bool run(sample::Session &session, const sample::Options &options) {
  const size_t n = options.size;
  if (options.blocks > n) throw sample::UsageError("--blocks must not exceed --size (one row per band at least)");
  std::printf("mandelbrot: %zu x %zu pixels, %zu bands, at most %u iterations\n", n, n, options.blocks,
              kMaxIterations);
  const float step = kSpan / static_cast<float>(n);

  cl::Program program = session.build(kSource);
  cl::Kernel kernel(program, "mandelbrot_band");
  const auto bands = sample::split(n, options.blocks);
  std::vector<cl_uint> image(n * n, UINT32_MAX);

  session.start_timer();
  std::vector<cl::Buffer> buffers;
  std::vector<cl::Event> reads;
  for (const auto &band : bands) {
    const size_t bytes = band.count * n * sizeof(cl_uint);
    buffers.emplace_back(session.context(), CL_MEM_WRITE_ONLY, bytes);
    kernel.setArg(0, buffers.back());
    kernel.setArg(1, static_cast<cl_uint>(band.offset));
    kernel.setArg(2, static_cast<cl_uint>(n));
    kernel.setArg(3, kLeft);
    kernel.setArg(4, kTop);
    kernel.setArg(5, step);
    kernel.setArg(6, kMaxIterations);
    const cl::Event done = session.launch(kernel, cl::NDRange(n, band.count));
    reads.push_back(session.read(buffers.back(), 0, bytes, &image[band.offset * n], done));
  }
  session.wait_all(reads);
  session.stop_timer();

  // A device whose float arithmetic is not IEEE round-to-nearest could
  // stray on the few chaotic pixels at the set's edge; tolerate one in a
  // thousand, but no pixel left unwritten (its count is above the maximum).
  size_t wrong = 0, unwritten = 0, inside = 0;
  for (size_t row = 0; row < n; ++row)
    for (size_t col = 0; col < n; ++col) {
      const cl_uint want = reference(col, row, step), got = image[row * n + col];
      inside += want == kMaxIterations;
      unwritten += got > kMaxIterations;
      if (got != want && wrong++ < 5) std::printf("pixel (%zu, %zu): %u iterations, expected %u\n", col, row, got, want);
    }
  std::printf("%zu pixels inside the set, %zu differ from the host's\n", inside, wrong);
  return unwritten == 0 && wrong * 1000 <= n * n;
}

}  // namespace

int main(int argc, char **argv) {
  return sample::main(argc, argv, {"mandelbrot", "image width and height in pixels", "bands of rows, one launch each", 64, 4},
                      run);
}
