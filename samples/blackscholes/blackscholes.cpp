// blackscholes: prices European call and put options with the Black-Scholes
// formula, over arrays of options split into chunks, one launch per chunk.
// It prices the same options several times with a different volatility each
// iteration: every iteration reads the same input buffers again, so a
// scheduler that keeps a chunk where its data already lies saves transfers.
// Each (iteration, chunk) writes buffers of its own, so that launches never
// share an output and need no ordering between them.
//
// usage: blackscholes [--platform SUBSTRING] [--size OPTIONS] [--blocks CHUNKS]
//                     [--queue per-device|device-less] [--scheduler NAME]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/sample_common.hpp"

namespace {

constexpr size_t kIterations = 3;
constexpr float kRate = 0.02f;  // risk-free interest rate
float volatility(size_t iteration) { return 0.20f + 0.10f * static_cast<float>(iteration); }

constexpr const char *kSource = R"CLC(
// Cumulative normal distribution: the Abramowitz-Stegun polynomial
// (error below 7.5e-8), as float-only devices need no erf.
float cnd(float d) {
  const float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  const float poly = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  const float tail = 0.39894228040143267794f * exp(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - tail : tail;
}

kernel void black_scholes(global const float *spot, global const float *strike, global const float *years,
                          global float *call, global float *put, float rate, float volatility) {
  const size_t i = get_global_id(0);
  const float s = spot[i], k = strike[i], t = years[i];
  const float sigma_sqrt_t = volatility * sqrt(t);
  const float d1 = (log(s / k) + (rate + 0.5f * volatility * volatility) * t) / sigma_sqrt_t;
  const float d2 = d1 - sigma_sqrt_t;
  const float discounted_strike = k * exp(-rate * t);
  call[i] = s * cnd(d1) - discounted_strike * cnd(d2);
  put[i] = discounted_strike * cnd(-d2) - s * cnd(-d1);
}
)CLC";

struct Prices {
  double call, put;
};

// The reference, in double with the exact normal distribution.
Prices black_scholes(double s, double k, double t, double rate, double sigma) {
  auto cnd = [](double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); };
  const double sigma_sqrt_t = sigma * std::sqrt(t);
  const double d1 = (std::log(s / k) + (rate + 0.5 * sigma * sigma) * t) / sigma_sqrt_t;
  const double d2 = d1 - sigma_sqrt_t;
  const double discounted_strike = k * std::exp(-rate * t);
  return {s * cnd(d1) - discounted_strike * cnd(d2), discounted_strike * cnd(-d2) - s * cnd(-d1)};
}

bool run(sample::Session &session, const sample::Options &options) {
  const size_t n = options.size;
  if (options.blocks > n) throw sample::UsageError("--blocks must not exceed --size (one option per chunk at least)");
  std::printf("blackscholes: %zu options in %zu chunks, %zu iterations\n", n, options.blocks, kIterations);

  // The ranges of NVIDIA's classic sample: spot 5-30, strike 1-100, 0.25-10 years.
  std::mt19937 random(7);
  std::uniform_real_distribution<float> spot_of(5.0f, 30.0f), strike_of(1.0f, 100.0f), years_of(0.25f, 10.0f);
  std::vector<float> spot(n), strike(n), years(n);
  for (size_t i = 0; i < n; ++i) spot[i] = spot_of(random), strike[i] = strike_of(random), years[i] = years_of(random);

  cl::Program program = session.build(kSource);
  cl::Kernel kernel(program, "black_scholes");
  const auto chunks = sample::split(n, options.blocks);

  // Results per iteration: [iteration][option].
  std::vector<std::vector<float>> call(kIterations, std::vector<float>(n, NAN)), put = call;

  session.start_timer();
  struct ChunkBuffers {
    cl::Buffer spot, strike, years;
  };
  std::vector<ChunkBuffers> inputs;
  for (const auto &chunk : chunks) {
    const size_t bytes = chunk.count * sizeof(float);
    constexpr cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    inputs.push_back({cl::Buffer(session.context(), in, bytes, &spot[chunk.offset]),
                      cl::Buffer(session.context(), in, bytes, &strike[chunk.offset]),
                      cl::Buffer(session.context(), in, bytes, &years[chunk.offset])});
  }
  std::vector<cl::Buffer> outputs;  // kept alive until the reads are done
  std::vector<cl::Event> reads;
  for (size_t it = 0; it < kIterations; ++it) {
    for (size_t c = 0; c < chunks.size(); ++c) {
      const size_t bytes = chunks[c].count * sizeof(float);
      const cl::Buffer call_out(session.context(), CL_MEM_WRITE_ONLY, bytes);
      const cl::Buffer put_out(session.context(), CL_MEM_WRITE_ONLY, bytes);
      kernel.setArg(0, inputs[c].spot);
      kernel.setArg(1, inputs[c].strike);
      kernel.setArg(2, inputs[c].years);
      kernel.setArg(3, call_out);
      kernel.setArg(4, put_out);
      kernel.setArg(5, kRate);
      kernel.setArg(6, volatility(it));
      const cl::Event done = session.launch(kernel, cl::NDRange(chunks[c].count));
      reads.push_back(session.read(call_out, 0, bytes, &call[it][chunks[c].offset], done));
      reads.push_back(session.read(put_out, 0, bytes, &put[it][chunks[c].offset], done));
      outputs.push_back(call_out);
      outputs.push_back(put_out);
    }
  }
  session.wait_all(reads);
  session.stop_timer();

  // Float loses about 1e-6 relative on each of the two terms of a price,
  // whose size is that of the spot and strike; allow 20 times that.
  size_t wrong = 0;
  double worst = 0;
  for (size_t it = 0; it < kIterations; ++it)
    for (size_t i = 0; i < n; ++i) {
      const Prices want = black_scholes(spot[i], strike[i], years[i], kRate, volatility(it));
      const double tolerance = 2e-5 * (spot[i] + strike[i]);
      const double error = std::max(std::fabs(call[it][i] - want.call), std::fabs(put[it][i] - want.put));
      // std::max drops a NaN in its second argument: test both.
      if (!(std::fabs(call[it][i] - want.call) <= tolerance && std::fabs(put[it][i] - want.put) <= tolerance)) {
        if (wrong++ < 5)
          std::printf("iteration %zu option %zu: call %.6g put %.6g, expected %.6g and %.6g\n", it, i, call[it][i],
                      put[it][i], want.call, want.put);
      } else {
        worst = std::max(worst, error / tolerance);
      }
    }
  if (wrong) std::printf("%zu of %zu prices wrong\n", wrong, kIterations * n);
  else std::printf("largest error: %.0f%% of the tolerance\n", 100 * worst);
  return wrong == 0;
}

}  // namespace

int main(int argc, char **argv) {
  return sample::main(argc, argv, {"blackscholes", "number of options", "chunks, one launch each per iteration", 4096, 4},
                      run);
}
