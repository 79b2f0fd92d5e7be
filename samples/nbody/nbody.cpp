// nbody: a few time steps of all-pairs gravity. The bodies are split into
// chunks, one launch per chunk per step; every launch reads the positions of
// all bodies from the previous step, so each step depends on the whole of
// the one before: a chain of fork-joins through events.
//
// Each chunk writes its new positions and velocities to buffers of its own
// (two devices must not write one buffer at the same time). Between steps,
// copies gather the chunks' positions into the buffer of all positions the
// next step reads; they run one after the other, ordered by events, for the
// same reason. Two such buffers alternate, so a step never overwrites the
// positions it reads.
//
// usage: nbody [--platform SUBSTRING] [--size BODIES] [--blocks CHUNKS]
//              [--queue per-device|device-less] [--scheduler NAME]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/sample_common.hpp"

namespace {

constexpr size_t kSteps = 2;
constexpr float kTimeStep = 0.01f;
// Softening keeps close encounters finite, and the float results close to
// the double reference.
constexpr float kSoftening2 = 0.01f;

constexpr const char *kSource = R"CLC(
// Bodies are float4: position in xyz, mass in w (gravitational constant 1).
kernel void nbody_chunk(global const float4 *all, global float4 *velocity, global float4 *next, uint first, uint n,
                        float dt, float softening2) {
  const size_t i = get_global_id(0);
  const float4 p = all[first + i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (uint j = 0; j < n; ++j) {
    const float4 q = all[j];
    const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const float inverse = rsqrt(dx * dx + dy * dy + dz * dz + softening2);
    const float f = q.w * inverse * inverse * inverse;
    ax += f * dx;
    ay += f * dy;
    az += f * dz;
  }
  float4 v = velocity[i];
  v.x += ax * dt;
  v.y += ay * dt;
  v.z += az * dt;
  velocity[i] = v;
  next[i] = (float4)(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}
)CLC";

struct Body {
  double x, y, z, mass, vx, vy, vz;
};

// The same steps in double on the host.
void reference_step(std::vector<Body> &bodies) {
  std::vector<Body> next = bodies;
  for (size_t i = 0; i < bodies.size(); ++i) {
    double ax = 0, ay = 0, az = 0;
    for (const Body &q : bodies) {
      const double dx = q.x - bodies[i].x, dy = q.y - bodies[i].y, dz = q.z - bodies[i].z;
      const double inverse = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + kSoftening2);
      const double f = q.mass * inverse * inverse * inverse;
      ax += f * dx, ay += f * dy, az += f * dz;
    }
    Body &b = next[i];
    b.vx += ax * kTimeStep, b.vy += ay * kTimeStep, b.vz += az * kTimeStep;
    b.x += b.vx * kTimeStep, b.y += b.vy * kTimeStep, b.z += b.vz * kTimeStep;
  }
  bodies = std::move(next);
}

bool run(sample::Session &session, const sample::Options &options) {
  const size_t n = options.size;
  if (options.blocks > n) throw sample::UsageError("--blocks must not exceed --size (one body per chunk at least)");
  std::printf("nbody: %zu bodies in %zu chunks, %zu steps\n", n, options.blocks, kSteps);

  // Bodies in the unit cube, total mass 1, small random velocities.
  std::mt19937 random(3);
  std::uniform_real_distribution<float> coordinate(-1.0f, 1.0f), speed(-0.1f, 0.1f);
  std::vector<cl_float4> positions(n), velocities(n);
  for (size_t i = 0; i < n; ++i) {
    positions[i] = {{coordinate(random), coordinate(random), coordinate(random), 1.0f / static_cast<float>(n)}};
    velocities[i] = {{speed(random), speed(random), speed(random), 0.0f}};
  }

  cl::Program program = session.build(kSource);
  cl::Kernel kernel(program, "nbody_chunk");
  const auto chunks = sample::split(n, options.blocks);
  std::vector<cl_float4> final_positions(n), final_velocities(n);

  session.start_timer();
  const size_t all_bytes = n * sizeof(cl_float4);
  const cl::Buffer all[2] = {cl::Buffer(session.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, all_bytes,
                                        positions.data()),
                             cl::Buffer(session.context(), CL_MEM_READ_WRITE, all_bytes)};
  std::vector<cl::Buffer> velocity, next;
  for (const auto &chunk : chunks) {
    const size_t bytes = chunk.count * sizeof(cl_float4);
    velocity.emplace_back(session.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                          &velocities[chunk.offset]);
    next.emplace_back(session.context(), CL_MEM_READ_WRITE, bytes);
  }

  // gathered: the last copy of the previous step's gather, after which
  // every chunk's launch of this step may start.
  std::vector<cl::Event> gathered, steps(chunks.size());
  for (size_t step = 0; step < kSteps; ++step) {
    for (size_t c = 0; c < chunks.size(); ++c) {
      kernel.setArg(0, all[step % 2]);
      kernel.setArg(1, velocity[c]);
      kernel.setArg(2, next[c]);
      kernel.setArg(3, static_cast<cl_uint>(chunks[c].offset));
      kernel.setArg(4, static_cast<cl_uint>(n));
      kernel.setArg(5, kTimeStep);
      kernel.setArg(6, kSoftening2);
      steps[c] = session.launch(kernel, cl::NDRange(chunks[c].count), cl::NullRange, gathered);
    }
    if (step + 1 == kSteps) break;  // the last positions are read from the chunks
    // Each copy waits for its chunk and for the copy before it: the copies
    // into all[] never overlap in time, and the last one ends after every
    // chunk of this step, which also makes it safe for the next step to
    // overwrite next[] and velocity[].
    for (size_t c = 0; c < chunks.size(); ++c) {
      std::vector<cl::Event> wait = {steps[c]};
      wait.insert(wait.end(), gathered.begin(), gathered.end());
      const size_t offset = chunks[c].offset * sizeof(cl_float4);
      gathered = {session.copy(next[c], all[(step + 1) % 2], 0, offset, chunks[c].count * sizeof(cl_float4), wait)};
    }
  }
  std::vector<cl::Event> reads;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const size_t bytes = chunks[c].count * sizeof(cl_float4);
    reads.push_back(session.read(next[c], 0, bytes, &final_positions[chunks[c].offset], steps[c]));
    reads.push_back(session.read(velocity[c], 0, bytes, &final_velocities[chunks[c].offset], steps[c]));
  }
  session.wait_all(reads);
  session.stop_timer();

  std::vector<Body> bodies(n);
  for (size_t i = 0; i < n; ++i) {
    const cl_float4 &p = positions[i], &v = velocities[i];
    bodies[i] = {p.s[0], p.s[1], p.s[2], p.s[3], v.s[0], v.s[1], v.s[2]};
  }
  for (size_t step = 0; step < kSteps; ++step) reference_step(bodies);

  // With total mass 1 and softening, accelerations are of order 1 and a
  // float sum of n forces errs by about sqrt(n) * eps * 1 (4e-6 at n = 256;
  // measured: velocity errors near 1e-8, position errors near 6e-8, the
  // rounding of coordinates). Allow an acceleration error of 1e-4 each
  // step, and coordinate rounding.
  const double velocity_tolerance = kSteps * kTimeStep * 1e-4;
  const double position_tolerance = 1e-6 + kSteps * kTimeStep * velocity_tolerance;
  size_t wrong = 0;
  double worst_position = 0, worst_velocity = 0;
  for (size_t i = 0; i < n; ++i) {
    const Body &want = bodies[i];
    const cl_float4 &p = final_positions[i], &v = final_velocities[i];
    const double position_error =
        std::max({std::fabs(p.s[0] - want.x), std::fabs(p.s[1] - want.y), std::fabs(p.s[2] - want.z)});
    const double velocity_error =
        std::max({std::fabs(v.s[0] - want.vx), std::fabs(v.s[1] - want.vy), std::fabs(v.s[2] - want.vz)});
    // Negated comparisons, so that a NaN counts as wrong.
    bool ok = position_error <= position_tolerance && velocity_error <= velocity_tolerance;
    for (int k = 0; k < 3; ++k) ok = ok && !std::isnan(p.s[k]) && !std::isnan(v.s[k]);
    if (!ok && wrong++ < 5)
      std::printf("body %zu: position (%.6g, %.6g, %.6g), expected (%.6g, %.6g, %.6g)\n", i, p.s[0], p.s[1], p.s[2],
                  want.x, want.y, want.z);
    worst_position = std::max(worst_position, position_error);
    worst_velocity = std::max(worst_velocity, velocity_error);
  }
  std::printf("largest errors: position %.2g, velocity %.2g\n", worst_position, worst_velocity);
  if (wrong) std::printf("%zu of %zu bodies wrong\n", wrong, n);
  return wrong == 0;
}

}  // namespace

int main(int argc, char **argv) {
  return sample::main(argc, argv, {"nbody", "number of bodies", "chunks of bodies, one launch each per step", 256, 4},
                      run);
}
