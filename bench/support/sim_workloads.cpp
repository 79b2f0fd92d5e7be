#include "sim_workloads.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>

namespace bench {

// In timing mode the simulator runs nothing: the bodies are for UniCL's
// analysis of the source, which tells which bytes each launch writes. The
// Cholesky steps store into their output tile, as the real ones do: with
// empty bodies no tile was ever written, its host copy stayed valid, and
// rank 0 sent the same tiles to several nodes (1.5 times the input per
// run) where a real factorization moves them from node to node.
const char *kSimSource = R"(
__kernel void mm_block(__global const float *a, __global const float *b, __global float *c, int n) {}
__kernel void bs_round(__global const float *s, __global const float *x, __global const float *t,
                       __global float *call, __global float *put) {}
size_t tile_element() { return get_global_id(1) * get_global_size(0) + get_global_id(0); }
__kernel void potrf(__global float *akk) { akk[tile_element()] *= 0.5f; }
__kernel void trsm(__global const float *akk, __global float *aik) { aik[tile_element()] -= akk[tile_element()]; }
__kernel void syrk(__global const float *aik, __global float *aii) { aii[tile_element()] -= aik[tile_element()]; }
__kernel void gemm(__global const float *aik, __global const float *ajk, __global float *aij) {
  aij[tile_element()] -= aik[tile_element()] * ajk[tile_element()];
}
)";

// The machine description, read by the simulator's own parser: the bound
// and the overshoot use its models (flops(n), gflops x efficiency, time_scale).
sim::Config read_machine(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  sim::Config m;
  try {
    m = sim::parse_config(in);
  } catch (const std::runtime_error &e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (m.devices.empty()) throw std::runtime_error(path + " describes no device");
  return m;
}

cl::Event launch(cl::CommandQueue &q, cl::Kernel &k, const cl::NDRange &global, const Events &after) {
  cl::Event e;
  q.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NullRange, after.empty() ? nullptr : &after, &e);
  return e;
}

namespace {

// Initial contents of every input (timing mode computes nothing).
const float *ones(size_t floats) {
  static std::vector<float> host;
  if (host.size() < floats) host.assign(floats, 1.0f);
  return host.data();
}

}  // namespace

Workload sim_matmul() {
  constexpr int n = 2048, blocks = 64, rows = n / blocks;
  Workload w{"matmul", "C = A x B, 2048^2 floats, 64 row blocks", {}, {}, {}};
  for (int i = 0; i < blocks; ++i) w.launches.push_back({"mm_block", double(n) * rows});
  w.critical_path = {{"mm_block", double(n) * rows}};
  w.input_bytes = 2.0 * n * n * sizeof(float);  // A's blocks and B
  w.shared_bytes = double(n) * n * sizeof(float);
  w.launch_in_bytes = w.launch_out_bytes = double(rows) * n * sizeof(float);
  w.prepare = [](const cl::Context &ctx, const cl::Program &p) -> Prepared {
    size_t block = size_t(rows) * n * sizeof(float);
    auto b = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size_t(n) * n * sizeof(float),
                        const_cast<float *>(ones(size_t(n) * n)));
    std::vector<cl::Kernel> ks;
    std::vector<cl::Buffer> keep = {b};  // kernels do not keep their arguments alive
    for (int i = 0; i < blocks; ++i) {
      cl::Kernel k(p, "mm_block");
      keep.emplace_back(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, block, const_cast<float *>(ones(block / 4)));
      k.setArg(0, keep.back());
      k.setArg(1, b);
      keep.emplace_back(ctx, CL_MEM_WRITE_ONLY, block);
      k.setArg(2, keep.back());
      k.setArg(3, static_cast<int>(n));
      ks.push_back(k);
    }
    return [ks, keep](cl::CommandQueue &q) mutable {
      Events out;
      for (auto &k : ks) out.push_back(launch(q, k, cl::NDRange(n, rows)));
      return out;
    };
  };
  return w;
}

Workload sim_blackscholes() {
  constexpr int chunks = 24, rounds = 4;
  constexpr size_t options = 512 * 1024;
  Workload w{"blackscholes", "24 chunks x 4 rounds, 512 Ki options each", {}, {}, {}};
  for (int i = 0; i < chunks * rounds; ++i) w.launches.push_back({"bs_round", double(options)});
  for (int r = 0; r < rounds; ++r) w.critical_path.push_back({"bs_round", double(options)});
  w.input_bytes = 3.0 * chunks * options * sizeof(float);
  w.prepare = [](const cl::Context &ctx, const cl::Program &p) -> Prepared {
    size_t bytes = options * sizeof(float);
    std::vector<cl::Kernel> ks;
    std::vector<cl::Buffer> keep;  // kernels do not keep their arguments alive
    for (int c = 0; c < chunks; ++c) {
      cl::Kernel k(p, "bs_round");
      for (int b = 0; b < 5; ++b) {
        if (b < 3) keep.emplace_back(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float *>(ones(options)));
        else keep.emplace_back(ctx, CL_MEM_READ_WRITE, bytes);
        k.setArg(b, keep.back());
      }
      ks.push_back(k);
    }
    return [ks, keep](cl::CommandQueue &q) mutable {
      // Round by round, so that every chunk's next round is ready when the
      // previous one ends (a policy sees the reuse, not one chunk at a time).
      Events out, last(chunks);
      for (int r = 0; r < rounds; ++r)
        for (int c = 0; c < chunks; ++c) {
          last[c] = launch(q, ks[c], cl::NDRange(options), r > 0 ? Events{last[c]} : Events{});
          out.push_back(last[c]);
        }
      return out;
    };
  };
  return w;
}

Workload sim_cholesky() {
  constexpr int t = 10, b = 512;
  const double items = double(b) * b;
  Workload w{"cholesky", "10 x 10 tiles of 512^2 floats, 220 tasks", {}, {}, {}};
  w.input_bytes = t * (t + 1) / 2 * items * sizeof(float);  // the lower triangle's tiles
  for (int k = 0; k < t; ++k) {
    w.launches.push_back({"potrf", items});
    for (int i = k + 1; i < t; ++i) {
      w.launches.push_back({"trsm", items});
      w.launches.push_back({"syrk", items});
      for (int j = k + 1; j < i; ++j) w.launches.push_back({"gemm", items});
    }
  }
  // Longest chain: potrf(k) -> trsm(k+1,k) -> syrk(k+1,k) -> potrf(k+1) ...
  for (int k = 0; k < t; ++k) {
    w.critical_path.push_back({"potrf", items});
    if (k + 1 < t) {
      w.critical_path.push_back({"trsm", items});
      w.critical_path.push_back({"syrk", items});
    }
  }
  w.prepare = [](const cl::Context &ctx, const cl::Program &p) -> Prepared {
    size_t bytes = size_t(b) * b * sizeof(float);
    // Lower triangle only: tile (i, j), j <= i.
    std::map<std::pair<int, int>, cl::Buffer> tile;
    for (int i = 0; i < t; ++i)
      for (int j = 0; j <= i; ++j)
        tile[{i, j}] = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float *>(ones(bytes / 4)));
    // The tasks in submission order: kernel (arguments set), tiles read, tile written.
    struct Task {
      cl::Kernel kernel;
      std::vector<std::pair<int, int>> reads;
      std::pair<int, int> write;
    };
    std::vector<Task> tasks;
    auto task = [&](const char *name, std::vector<std::pair<int, int>> reads, std::pair<int, int> write) {
      cl::Kernel k(p, name);
      int arg = 0;
      for (auto &r : reads) k.setArg(arg++, tile[r]);
      k.setArg(arg, tile[write]);
      tasks.push_back({k, reads, write});
    };
    for (int k = 0; k < t; ++k) {
      task("potrf", {}, {k, k});
      for (int i = k + 1; i < t; ++i) task("trsm", {{k, k}}, {i, k});
      for (int i = k + 1; i < t; ++i) {
        task("syrk", {{i, k}}, {i, i});
        for (int j = k + 1; j < i; ++j) task("gemm", {{i, k}, {j, k}}, {i, j});
      }
    }
    return [tasks, tile](cl::CommandQueue &q) mutable {
      // A task waits for the last writer of every tile it reads or writes.
      // Right-looking order: a tile read by a step is final by then (potrf
      // and trsm outputs are never written again), so there are no
      // write-after-read hazards to order.
      std::map<std::pair<int, int>, cl::Event> written;
      Events out;
      for (auto &tk : tasks) {
        Events after;
        for (auto &r : tk.reads)
          if (written.count(r)) after.push_back(written[r]);
        if (written.count(tk.write)) after.push_back(written[tk.write]);
        cl::Event e = launch(q, tk.kernel, cl::NDRange(b, b), after);
        written[tk.write] = e;
        out.push_back(e);
      }
      return out;
    };
  };
  return w;
}

Bound ideal_bound(const sim::Config &m, const Workload &w, int copies) {
  Bound b;
  for (auto &l : w.launches) {
    double per_second = 0;
    for (auto &d : m.devices) per_second += copies / m.kernel_seconds(l.kernel, d, l.items);
    b.flops += m.kernel_model(l.kernel).flops(l.items);
    b.seconds += 1 / per_second;
  }
  return b;
}

double whole_launch_bound(const sim::Config &m, const Workload &w, int copies, double network_bandwidth) {
  if (w.shared_bytes <= 0 || w.launches.empty()) return 0;
  const Launch &l = w.launches.front();
  const auto first_in = static_cast<std::uint64_t>(w.shared_bytes + w.launch_in_bytes);
  const auto out = static_cast<std::uint64_t>(w.launch_out_bytes);
  // Launches device d can finish by `t`.
  auto launches_by = [&](double t) {
    double n = 0;
    for (auto &d : m.devices) {
      const double arrive = first_in / network_bandwidth + m.transfer_seconds(d, first_in);
      const double back = m.transfer_seconds(d, out) + out / network_bandwidth;
      const double run = m.kernel_seconds(l.kernel, d, l.items);
      if (t > arrive + back) n += copies * std::floor((t - arrive - back) / run);
    }
    return n;
  };
  double lo = 0, hi = 1;
  while (launches_by(hi) < w.launches.size()) hi *= 2;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (launches_by(mid) >= w.launches.size() ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace bench
